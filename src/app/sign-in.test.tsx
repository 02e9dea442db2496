import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readConnection, saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, recordRequests, useRealApi } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';
import { applySignInLink } from './sign-in-link';

function renderApp(route: string) {
  const queryClient = createTestQueryClient();
  const app = renderWithProviders(createRoutes(), { route, queryClient });
  const panel = () => screen.getByRole('form', { name: 'Sign in' });
  return {
    ...app,
    panel,
    apiKey: () => within(panel()).getByLabelText('API key'),
    remember: () => within(panel()).getByRole('checkbox', { name: 'Remember this key on this device' }),
    save: () => within(panel()).getByRole('button', { name: 'Save' }),
    location: () => `${app.router.state.location.pathname}${app.router.state.location.search}`,
  };
}

describe('without a key, the sign-in panel stands in for the page', () => {
  it('on a deep link: no error, no request; after Save, that very page', async () => {
    useRealApi();
    const requests = recordRequests();
    const app = renderApp('/reports/42?tab=results');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(
      screen.getByText(/Enter an API key of the Webpage Report Service to see this page/),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sign in · Webpage Reports'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'How to get a key' })).toBeInTheDocument();
    expect(screen.getByText(/settings#api_key=/)).toBeInTheDocument();
    // Settings' other controls are not part of signing in.
    expect(screen.queryByRole('textbox', { name: 'Report page address' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Test connection' })).not.toBeInTheDocument();
    expect(requests).toHaveLength(0);

    await app.user.type(app.apiKey(), REAL_API_KEY);
    await app.user.click(app.save());

    expect(await screen.findByRole('heading', { level: 1, name: 'Report not found' })).toBeInTheDocument();
    expect(app.location()).toBe('/reports/42?tab=results');
    expect(screen.queryByRole('form', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(await screen.findByText('Signed in')).toBeInTheDocument();
    expect(readConnection()).toMatchObject({ apiKey: REAL_API_KEY, remember: false });
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
    expect(requests.every((request) => !request.url.includes(REAL_API_KEY))).toBe(true);
  });

  it('on a project with an encoded name, remembering the key when asked', async () => {
    useRealApi();
    const app = renderApp('/projects/a%20b');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });

    await app.user.type(app.apiKey(), REAL_API_KEY);
    await app.user.click(app.remember());
    await app.user.click(app.save());

    // The project's own page (it has no reports here, so it says it is not found), not the panel.
    expect(await screen.findByRole('heading', { level: 1, name: 'Project not found' })).toBeInTheDocument();
    expect(app.location()).toBe('/projects/a%20b');
    expect(readConnection()).toMatchObject({ apiKey: REAL_API_KEY, remember: true });
  });

  it('Save with a wrong key says what failed and keeps nothing; a key refused with 401 is not offered Save anyway', async () => {
    useRealApi();
    const app = renderApp('/reports');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });

    await app.user.click(app.save());
    expect(await screen.findByText('Enter an API key.')).toBeInTheDocument();
    expect(app.apiKey()).toHaveFocus();

    await app.user.type(app.apiKey(), 'wrong-key');
    await app.user.click(app.save());

    const result = await within(app.panel()).findByRole('alert');
    expect(within(result).getByText('Invalid API key')).toBeInTheDocument();
    expect(result).toHaveTextContent('Nothing was saved.');
    expect(result).not.toHaveTextContent('wrong-key');
    expect(within(result).queryByRole('button', { name: 'Save anyway' })).not.toBeInTheDocument();
    expect(readConnection().apiKey).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  });

  it('leads with the API key (Base URL folded under Another service), names this server, and highlights no section', async () => {
    useRealApi();
    const app = renderApp('/reports');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(within(app.panel()).queryByRole('textbox', { name: 'Base URL' })).not.toBeInTheDocument();
    await app.user.click(within(app.panel()).getByRole('button', { name: 'Another service' }));
    expect(within(app.panel()).getByRole('textbox', { name: 'Base URL' })).toBeInTheDocument();
    expect(screen.getByText(`${window.location.origin}/settings#api_key=…`)).toBeInTheDocument();
    // The address is /reports, but the page shown is the panel: no section is current.
    for (const link of within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link'))
      expect(link).not.toHaveAttribute('aria-current');
  });

  it('Sign out in the header asks, then forgets the key and brings the panel', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: true });
    const app = renderApp('/reports');
    await screen.findByRole('heading', { level: 1, name: 'Reports' });
    await app.user.click(screen.getByRole('button', { name: 'Sign out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out?' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(readConnection().apiKey).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
  });

  it('a 401 to the saved key brings the panel, without a notification or Retry; a good key shows the page', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: 'revoked-key', remember: false });
    const app = renderApp('/reports?sort=asc');

    expect(
      await screen.findByText(/The service refused the saved API key: it is missing or invalid/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByText('The API key is missing or invalid.')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('revoked-key');

    await app.user.type(app.apiKey(), REAL_API_KEY);
    await app.user.click(app.save());
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    expect(app.location()).toBe('/reports?sort=asc');
  });

  it('Settings stays reachable without a key, and signing in there leads back to the page', async () => {
    useRealApi();
    const app = renderApp('/projects/a%20b?sort=asc');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });

    const nav = screen.getByRole('navigation', { name: 'Main' });
    await app.user.click(within(nav).getByRole('link', { name: 'Settings' }));
    const form = await screen.findByRole('form', { name: 'Connection settings' });
    await app.user.type(within(form).getByLabelText('API key'), REAL_API_KEY);
    await app.user.click(within(form).getByRole('button', { name: 'Save' }));

    // The project's own page (it has no reports here, so it says it is not found), not the panel.
    expect(await screen.findByRole('heading', { level: 1, name: 'Project not found' })).toBeInTheDocument();
    expect(app.location()).toBe('/projects/a%20b?sort=asc');
  });

  it('the sign-in link, opened after the panel showed, leads back to that page', async () => {
    useRealApi();
    const first = renderApp('/reports/7');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    first.unmount();

    // The person opens the link the server printed, in the same tab.
    window.history.replaceState(null, '', `/settings#api_key=${REAL_API_KEY}`);
    applySignInLink();
    expect(window.location.pathname).toBe('/reports/7');
    expect(window.location.href).not.toContain(REAL_API_KEY);
    window.history.replaceState(null, '', '/');
  });

  it('at / shows the Overview once signed in', async () => {
    useRealApi();
    const app = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(app.location()).toBe('/');
    await app.user.type(app.apiKey(), REAL_API_KEY);
    await app.user.click(app.save());
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument();
  });
});
