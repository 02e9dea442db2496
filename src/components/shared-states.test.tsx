import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/http/errors';
import { renderWithProviders } from '../../test/render';
import { EmptyState } from './empty-state';
import { ErrorState } from './error-state';
import { LoadingRows } from './loading-rows';

describe('ErrorState', () => {
  it('shows the error message and retries on Retry', async () => {
    const onRetry = vi.fn();
    const error = new ApiError({
      status: 503,
      kind: 'server',
      message: 'The server answered 503 Service Unavailable.',
    });
    const { user } = renderWithProviders(
      <ErrorState error={error} onRetry={onRetry} title="The reports could not be loaded" />,
    );

    expect(screen.getByText('The reports could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The server answered 503 Service Unavailable.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /settings/i })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('offers no Retry when the key is missing or invalid (the sign-in panel takes over)', () => {
    const error = new ApiError({
      status: 401,
      kind: 'unauthenticated',
      message: 'The API key is missing or invalid.',
    });
    renderWithProviders(<ErrorState error={error} onRetry={() => {}} />);

    expect(screen.getByText(/The API key is missing or invalid\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('does not show the text of an error that is not from the API', () => {
    renderWithProviders(
      <ErrorState
        error={new TypeError("Cannot read properties of undefined (reading 'x')")}
        onRetry={() => {}}
      />,
    );
    expect(screen.getByText('An unexpected error occurred in the dashboard.')).toBeInTheDocument();
    expect(screen.queryByText(/Cannot read properties/)).not.toBeInTheDocument();
  });
});

describe('EmptyState', () => {
  it('says there is nothing and offers the next step', () => {
    renderWithProviders(
      <EmptyState
        title="No reports yet"
        description="Create one to see how a page does."
        action={<button type="button">New report</button>}
      />,
    );
    expect(screen.getByText('No reports yet')).toBeInTheDocument();
    expect(screen.getByText('Create one to see how a page does.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New report' })).toBeInTheDocument();
  });
});

describe('LoadingRows', () => {
  it('tells screen readers that something is loading', () => {
    renderWithProviders(<LoadingRows rows={3} label="Loading reports" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading reports');
  });
});
