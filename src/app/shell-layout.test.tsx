import { act, screen, waitFor } from '@testing-library/react';
import { Link } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { shareKeyAcrossTabs } from '@/api/http/tab-key-share';
import { noCapabilities, server } from '../../test/msw';
import { renderWithProviders } from '../../test/render';
import { ShellLayout } from './shell-layout';

/** A shell with two pages; the second one's loader takes `loadMs`. */
function renderShell(loadMs: number) {
  return renderWithProviders(
    [
      {
        Component: ShellLayout,
        children: [
          { path: '/', element: <Link to="/slow">To the slow page</Link> },
          {
            path: '/slow',
            loader: () => new Promise((resolve) => setTimeout(() => resolve(null), loadMs)),
            element: <h1>Slow page</h1>,
          },
        ],
      },
    ],
    { route: '/' },
  );
}

describe('shell: the page spinner', () => {
  // Signed in: without a key the sign-in panel would stand in for the pages.
  beforeEach(() => {
    saveConnection({ baseUrl: '', apiKey: 'some-key', remember: false });
    // The shell asks which extensions the server has (for Alerts); this one has none.
    server.use(noCapabilities());
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows no spinner for a page that comes quickly', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const app = renderShell(200);
    await app.user.click(screen.getByRole('link', { name: 'To the slow page' }));
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(screen.queryByLabelText('Loading page')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.getByRole('heading', { name: 'Slow page' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading page')).not.toBeInTheDocument();
  });

  it('shows the spinner while a slow page loads, and not after', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const app = renderShell(1000);
    await app.user.click(screen.getByRole('link', { name: 'To the slow page' }));
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(screen.getByLabelText('Loading page')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(800));
    expect(screen.getByRole('heading', { name: 'Slow page' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading page')).not.toBeInTheDocument();
  });
});

describe('shell: the narrow-screen menu', () => {
  beforeEach(() => {
    saveConnection({ baseUrl: '', apiKey: 'some-key', remember: false });
    // The shell asks which extensions the server has (for Alerts); this one has none.
    server.use(noCapabilities());
  });

  it('closes on Escape and gives the focus back to its button', async () => {
    const app = renderShell(0);
    const burger = screen.getByRole('button', { name: 'Open navigation' });
    await app.user.click(burger);
    expect(screen.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('navigation', { name: 'Main' })).toHaveLength(2);
    await app.user.keyboard('{Escape}');
    expect(screen.getAllByRole('navigation', { name: 'Main' })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Open navigation' })).toHaveFocus();
  });
});

describe('shell: a new tab without a key', () => {
  it('shows the page loading while it asks the open tabs for their key, never the sign-in panel, then the page', async () => {
    server.use(noCapabilities());
    const openTab = new BroadcastChannel('webpage-report.key');
    let asked = false;
    openTab.onmessage = (event: MessageEvent<{ type: string }>) => {
      if (event.data.type === 'ask') asked = true;
    };
    // The panel's code at hand, as in a browser that has it cached: without the wait it would show at once.
    await import('@/features/settings/sign-in-panel');
    const stop = shareKeyAcrossTabs({ waitMs: 10_000 });
    try {
      renderShell(0);
      await waitFor(() => expect(asked).toBe(true));
      // A few turns of the event loop: enough for React to render the panel's code it already has.
      for (let turn = 0; turn < 5; turn++) await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
      expect(screen.getByLabelText('Loading page')).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();
      openTab.postMessage({ type: 'key', baseUrl: '', apiKey: 'key-of-the-open-tab' });
      expect(await screen.findByRole('link', { name: 'To the slow page' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();
    } finally {
      stop();
      openTab.close();
    }
  });

  it('shows the sign-in panel when no tab answers in time', async () => {
    server.use(noCapabilities());
    const stop = shareKeyAcrossTabs({ waitMs: 50 });
    try {
      renderShell(0);
      expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    } finally {
      stop();
    }
  });
});
