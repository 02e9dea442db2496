import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsoleError } from '../../test/console';
import { renderWithProviders } from '../../test/render';
import { RouteErrorBoundary } from './route-error-boundary';

function routesThatThrow(error: unknown) {
  return [
    {
      path: '*',
      ErrorBoundary: RouteErrorBoundary,
      Component: () => {
        throw error;
      },
    },
  ];
}

describe('RouteErrorBoundary', () => {
  it('shows a crash as an error page with a way to reload, not a blank screen', async () => {
    // React Router logs the error it caught.
    allowConsoleError(/Cannot read properties of undefined \(reading 'url'\)/);
    renderWithProviders(
      routesThatThrow(new TypeError("Cannot read properties of undefined (reading 'url')")),
    );

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Something went wrong' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the start page' })).toHaveAttribute('href', '/');
  });

  it('explains a page whose code could not be downloaded', async () => {
    allowConsoleError(/Failed to fetch dynamically imported module/);
    renderWithProviders(
      routesThatThrow(
        new TypeError(
          'Failed to fetch dynamically imported module: http://localhost/assets/settings-page-abc.js',
        ),
      ),
    );

    expect(
      await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/newer version has been installed/)).toBeInTheDocument();
  });
});
