import { screen, waitFor, within } from '@testing-library/react';
import { afterNextPaint } from '@/lib/after-next-paint';
import { beforeEach, describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, noCapabilities, server, useRealApi } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { HOME_PATH } from './navigation';
import { createRoutes } from './routes';

function renderApp(route: string) {
  const queryClient = createTestQueryClient();
  return renderWithProviders(createRoutes(), { route, queryClient });
}

describe('app shell and routes', () => {
  // Signed in (the pages below ask the API nothing): without a key the sign-in panel stands in for them.
  beforeEach(() => {
    saveConnection({ baseUrl: '', apiKey: 'some-key', remember: false });
    // The shell asks which extensions the server has (for Alerts); this one has none.
    server.use(noCapabilities());
  });

  it('shows the Overview at / where the server has it', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const app = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe(HOME_PATH);
  });

  it('leads from / to the reports list against a deployment without the overview', async () => {
    useRealApi();
    server.use(noCapabilities());
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const app = renderApp('/?sort_by=alerts');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    expect(app.router.state.location.pathname + app.router.state.location.search).toBe('/reports');
  });

  it('shows Settings with its title, its navigation entry marked current, and a skip link', async () => {
    renderApp('/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Settings · Webpage Reports'));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute(
      'href',
      '#main-content',
    );
  });

  it('shows Page not found for an unknown path, with a way back', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const app = renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Page not found · Webpage Reports'));
    expect(screen.getByText('/no/such/page')).toBeInTheDocument();

    await app.user.click(screen.getByRole('link', { name: 'Go to the start page' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument();
  });

  it('skip link moves focus to the main content without touching the address', async () => {
    const app = renderApp('/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    await app.user.click(screen.getByRole('link', { name: 'Skip to main content' }));
    expect(screen.getByRole('main')).toHaveFocus();
    expect(app.router.state.location.hash).toBe('');
  });

  it('puts focus on the main content after moving to another page', async () => {
    const app = renderApp('/no/such/page');
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await app.user.click(within(nav).getByRole('link', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('leaves focus where the person put it right after moving to another page', async () => {
    const app = renderApp('/no/such/page');
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await app.user.click(within(nav).getByRole('link', { name: 'Settings' }));
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    // Before the new page's first frame: the focus on the main content is still to come.
    const toggle = screen.getByRole('button', { name: /Switch to (dark|light) mode/ });
    toggle.focus();
    // Wait out the app's own wait: a callback asked for after it runs after it.
    await new Promise((resolve) => afterNextPaint(() => resolve(undefined)));
    expect(toggle).toHaveFocus();
  });

  it('switches between light and dark', async () => {
    const app = renderApp('/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    // The test environment's system preference is light.
    await app.user.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await app.user.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  it('opens the navigation from the burger on small screens and closes it after a choice', async () => {
    const app = renderApp('/no/such/page');
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    const burger = screen.getByRole('button', { name: 'Open navigation' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    await app.user.click(burger);
    expect(screen.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');

    const drawer = document.getElementById('app-navigation');
    expect(drawer).not.toBeNull();
    await app.user.click(within(drawer as HTMLElement).getByRole('link', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open navigation' })).toBeInTheDocument();
    expect(document.getElementById('app-navigation')).toBeNull();
  });
});
