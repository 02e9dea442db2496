import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi, afterEach } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { formatAbsolute } from '@/lib/dates';
import { DateText } from './date-text';
import { PrivacyBadge } from './privacy-badge';
import { ResultBadge } from './result-badge';

describe('ResultBadge', () => {
  it.each([
    ['good', 'Good'],
    ['decent', 'Decent'],
    ['bad', 'Bad'],
    [null, 'Unknown'],
  ] as const)('shows %s as %s', (result, text) => {
    renderWithProviders(<ResultBadge result={result} />);
    expect(screen.getByText(text)).toBeInTheDocument();
  });
});

describe('PrivacyBadge', () => {
  it.each([
    [0, 'Public'],
    [1, 'Private'],
    [2, 'Password'],
  ] as const)('shows %s as %s', (privacy, text) => {
    renderWithProviders(<PrivacyBadge privacy={privacy} />);
    expect(screen.getByText(text)).toBeInTheDocument();
  });
});

describe('DateText', () => {
  afterEach(() => vi.useRealTimers());

  it('shows how long ago, with the exact moment in a <time> element', () => {
    vi.useFakeTimers({ now: new Date('2025-03-17T12:00:00Z'), toFake: ['Date'] });
    const at = new Date('2025-03-14T09:05:00Z');
    renderWithProviders(<DateText date={at} />);
    const time = screen.getByText('3 days ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', '2025-03-14T09:05:00.000Z');
  });

  it('shows the exact moment on hover', async () => {
    const at = new Date('2025-03-14T09:05:00Z');
    const { user } = renderWithProviders(<DateText date={at} />);
    await user.hover(screen.getByText(/ago$/));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(formatAbsolute(at));
  });

  it('shows the exact moment on focus, from the keyboard', async () => {
    const at = new Date('2025-03-14T09:05:00Z');
    const { user } = renderWithProviders(<DateText date={at} />);
    await user.tab();
    expect(screen.getByText(/ago$/)).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(formatAbsolute(at));
    expect(screen.getByText(/ago$/)).toHaveAccessibleDescription(formatAbsolute(at));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
    await user.tab({ shift: true });
    await user.tab();
    expect(await screen.findByRole('tooltip')).toBeInTheDocument();
    await user.tab();
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });

  it('has one tooltip for the page: it moves to the date hovered, whose description it is', async () => {
    const first = new Date('2025-03-14T09:05:00Z');
    const second = new Date('2024-01-02T03:04:00Z');
    const { user } = renderWithProviders(
      <>
        <DateText date={first} />
        <DateText date={second} />
      </>,
    );
    const [a, b] = screen.getAllByText(/ago$/) as [HTMLElement, HTMLElement];
    expect(a).not.toHaveAttribute('aria-describedby');
    await user.hover(a);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(formatAbsolute(first));
    expect(a).toHaveAccessibleDescription(formatAbsolute(first));
    await user.hover(b);
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent(formatAbsolute(second)));
    expect(screen.getAllByRole('tooltip')).toHaveLength(1);
    expect(b).toHaveAccessibleDescription(formatAbsolute(second));
    expect(a).not.toHaveAttribute('aria-describedby');
    await user.unhover(b);
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
    expect(b).not.toHaveAttribute('aria-describedby');
  });

  it('hides the tooltip on Escape without closing what holds the date', async () => {
    const at = new Date('2025-03-14T09:05:00Z');
    const outside = vi.fn();
    const { user } = renderWithProviders(
      <div onKeyDown={(event) => event.key === 'Escape' && outside()}>
        <DateText date={at} />
      </div>,
    );
    await user.tab();
    expect(await screen.findByRole('tooltip')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
    expect(outside).not.toHaveBeenCalled();
    // Once hidden, Escape is the page's again.
    await user.keyboard('{Escape}');
    expect(outside).toHaveBeenCalledTimes(1);
  });

  it('shows the exact moment on a tap', async () => {
    const at = new Date('2025-03-14T09:05:00Z');
    const { user } = renderWithProviders(<DateText date={at} />);
    await user.pointer({ keys: '[TouchA]', target: screen.getByText(/ago$/) });
    expect(await screen.findByRole('tooltip')).toHaveTextContent(formatAbsolute(at));
  });

  it('moves on while the page is open', async () => {
    vi.useFakeTimers({ now: new Date('2025-03-17T12:00:00Z'), toFake: ['Date', 'setInterval', 'clearInterval'] });
    renderWithProviders(<DateText date={new Date('2025-03-17T11:59:55Z')} />);
    expect(screen.getByText('5 seconds ago')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(screen.getByText('1 minute ago')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(60 * 60_000));
    expect(screen.getByText('1 hour ago')).toBeInTheDocument();
  });

  it('shows a dash for no date', () => {
    renderWithProviders(<DateText date={null} />);
    expect(screen.getByText('—')).toBeInTheDocument();
  });
});
