import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { readConnection, saveConnection } from '@/api/http/connection';
import { reportQueries } from '@/api/reports';
import { REAL_API_KEY, recordRequests, server, useRealApi } from '../../../test/msw';
import { readReportPageTemplate } from '@/lib/report-link';
import { renderWithProviders } from '../../../test/render';
import { SettingsPage } from './settings-page';

const REMOTE = 'https://reports.example.com';

function storedValues(storage: Storage): string[] {
  return Object.keys(storage).map((key) => storage.getItem(key) ?? '');
}

function renderSettings(options: Parameters<typeof renderWithProviders>[1] = {}) {
  const view = renderWithProviders(<SettingsPage />, { route: '/settings', ...options });
  const form = () => screen.getByRole('form', { name: 'Connection settings' });
  return {
    ...view,
    baseUrl: () => within(form()).getByRole('textbox', { name: 'Base URL' }),
    apiKey: () => within(form()).getByLabelText('API key'),
    remember: () => within(form()).getByRole('checkbox', { name: 'Remember this key on this device' }),
    save: () => within(form()).getByRole('button', { name: 'Save' }),
    test: () => within(form()).getByRole('button', { name: 'Test connection' }),
  };
}

describe('Settings: saving', () => {
  it('starts empty, meaning the API of this site, with no key', () => {
    const page = renderSettings();
    expect(page.baseUrl()).toHaveValue('');
    expect(page.apiKey()).toHaveValue('');
    expect(page.remember()).not.toBeChecked();
    expect(screen.queryByRole('button', { name: 'Forget key' })).not.toBeInTheDocument();
    expect(
      screen.getByText(/in use now: the api at this site \(same origin\); api key none saved/i),
    ).toBeInTheDocument();
  });

  it('keeps the key for this tab only unless Remember is ticked, and trims /api/v1 from the base URL', async () => {
    useRealApi();
    const page = renderSettings();
    await page.user.type(page.baseUrl(), `${REMOTE}/api/v1/`);
    await page.user.type(page.apiKey(), REAL_API_KEY);
    await page.user.click(page.save());

    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(page.baseUrl()).toHaveValue(REMOTE);
    expect(storedValues(window.sessionStorage)).toContain(REAL_API_KEY);
    expect(storedValues(window.localStorage)).not.toContain(REAL_API_KEY);
    expect(storedValues(window.localStorage)).toContain(REMOTE);

    // A reload of the tab keeps both.
    page.unmount();
    const reloaded = renderSettings();
    expect(reloaded.baseUrl()).toHaveValue(REMOTE);
    expect(reloaded.apiKey()).toHaveValue(REAL_API_KEY);
    reloaded.unmount();

    // Closing the browser ends the session: the base URL stays, the key goes.
    window.sessionStorage.clear();
    const reopened = renderSettings();
    expect(reopened.baseUrl()).toHaveValue(REMOTE);
    expect(reopened.apiKey()).toHaveValue('');
  });

  it('keeps the key on the device when Remember is ticked, and only there', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: 'old-tab-key', remember: false });
    const page = renderSettings();
    await page.user.clear(page.apiKey());
    await page.user.type(page.apiKey(), REAL_API_KEY);
    await page.user.click(page.remember());
    await page.user.click(page.save());

    expect(await screen.findByText(/kept on this device/)).toBeInTheDocument();
    expect(storedValues(window.localStorage)).toContain(REAL_API_KEY);
    expect(storedValues(window.sessionStorage)).not.toContain(REAL_API_KEY);
    expect(storedValues(window.sessionStorage)).not.toContain('old-tab-key');

    page.unmount();
    window.sessionStorage.clear();
    const reopened = renderSettings();
    expect(reopened.apiKey()).toHaveValue(REAL_API_KEY);
    expect(reopened.remember()).toBeChecked();
  });

  it('Forget key asks first; Cancel keeps the key and gives the focus back', async () => {
    saveConnection({ baseUrl: REMOTE, apiKey: 'device-key', remember: true });
    const page = renderSettings();
    const forget = screen.getByRole('button', { name: 'Forget key' });
    await page.user.click(forget);

    const dialog = await screen.findByRole('dialog', { name: 'Forget the API key?' });
    expect(dialog).toHaveTextContent(/shown only once/);
    expect(readConnection().apiKey).toBe('device-key');
    await page.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(readConnection().apiKey).toBe('device-key');
    expect(page.apiKey()).toHaveValue('device-key');
    expect(screen.getByRole('button', { name: 'Forget key' })).toHaveFocus();

    // Escape is Cancel too.
    await page.user.click(screen.getByRole('button', { name: 'Forget key' }));
    await screen.findByRole('dialog', { name: 'Forget the API key?' });
    await page.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(readConnection().apiKey).toBe('device-key');
  });

  it('Forget key, confirmed, removes the key from both storages and the form', async () => {
    saveConnection({ baseUrl: REMOTE, apiKey: 'device-key', remember: true });
    const page = renderSettings();
    expect(page.apiKey()).toHaveValue('device-key');

    await page.user.click(screen.getByRole('button', { name: 'Forget key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Forget the API key?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Forget key' }));

    expect(await screen.findByText('API key forgotten')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(page.apiKey()).toHaveValue('');
    await waitFor(() => expect(page.apiKey()).toHaveFocus());
    expect(storedValues(window.localStorage)).not.toContain('device-key');
    expect(storedValues(window.sessionStorage)).not.toContain('device-key');
    expect(readConnection()).toMatchObject({ baseUrl: REMOTE, apiKey: null });
    expect(screen.queryByRole('button', { name: 'Forget key' })).not.toBeInTheDocument();
  });

  it('refuses a base URL that is not an absolute http(s) address, and a key with spaces', async () => {
    const page = renderSettings();
    await page.user.type(page.baseUrl(), 'reports.example.com');
    await page.user.type(page.apiKey(), 'two words');
    await page.user.click(page.save());

    expect(
      await screen.findByText('Enter a full address starting with http:// or https://.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/an api key has no spaces/i)).toBeInTheDocument();
    expect(page.baseUrl()).toHaveAttribute('aria-invalid', 'true');
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);

    await page.user.clear(page.baseUrl());
    await page.user.type(page.baseUrl(), 'ftp://reports.example.com');
    await page.user.click(page.save());
    expect(await screen.findByText('The address must start with http:// or https://.')).toBeInTheDocument();
  });

  it('keeps a Report page address with {id}, and refuses one without it or not http(s)', async () => {
    const page = renderSettings();
    const field = () => screen.getByRole('textbox', { name: 'Report page address' });
    await page.user.type(field(), 'https://share.example/r/');
    await page.user.click(page.save());
    expect(await screen.findByText(/^Put \{id\} where the report’s number goes/)).toBeInTheDocument();
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(readReportPageTemplate()).toBe('');

    await page.user.clear(field());
    // user-event reads { as a key descriptor: {{ types one.
    await page.user.type(field(), 'https://share.example/r/{{id}');
    await page.user.click(page.save());
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(readReportPageTemplate()).toBe('https://share.example/r/{id}');
  });

  it('drops every cached answer when the key changes, and again on Forget key', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: 'first-key', remember: false });
    const page = renderSettings();
    const listKey = reportQueries.list().queryKey;
    page.queryClient.setQueryData(listKey, {
      items: [],
      meta: { currentPage: 1, lastPage: 1, perPage: 10, total: 0, from: null, to: null },
    });

    await page.user.clear(page.apiKey());
    await page.user.type(page.apiKey(), REAL_API_KEY);
    await page.user.click(page.save());
    await waitFor(() => expect(page.queryClient.getQueryCache().getAll()).toHaveLength(0));

    page.queryClient.setQueryData(listKey, {
      items: [],
      meta: { currentPage: 1, lastPage: 1, perPage: 10, total: 0, from: null, to: null },
    });
    await page.user.click(screen.getByRole('button', { name: 'Forget key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Forget the API key?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Forget key' }));
    await waitFor(() => expect(page.queryClient.getQueryCache().getAll()).toHaveLength(0));
  });

  it('Save tries a new key first: a wrong one is not kept, the result says why, and a refused key has no Save anyway', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const requests = recordRequests();
    const page = renderSettings();
    await page.user.clear(page.apiKey());
    await page.user.type(page.apiKey(), 'wrong-key');
    await page.user.click(page.save());

    const result = await screen.findByRole('alert');
    expect(within(result).getByText('Invalid API key')).toBeInTheDocument();
    expect(result).toHaveTextContent('Nothing was saved.');
    expect(screen.queryByText('Settings saved')).not.toBeInTheDocument();
    expect(readConnection().apiKey).toBe(REAL_API_KEY);
    expect(requests).toHaveLength(1);
    // The service said the key is wrong: saving it anyway would only bring the sign-in panel.
    expect(within(result).queryByRole('button', { name: 'Save anyway' })).not.toBeInTheDocument();
  });

  it('Save keeps a key that works at once, and sends no test when key and address did not change', async () => {
    useRealApi();
    const requests = recordRequests();
    const page = renderSettings();
    await page.user.type(page.apiKey(), REAL_API_KEY);
    await page.user.click(page.save());
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(screen.getByText('Connected')).toBeInTheDocument();
    // The test, then, the key working, who it belongs to (and the deployment's extensions, not known yet).
    const paths = () => requests.map((request) => new URL(request.url).pathname);
    expect(paths()).toEqual(['/api/v1/reports', '/api/v1/capabilities', '/api/v1/me']);

    await page.user.click(page.remember());
    await page.user.click(page.save());
    await waitFor(() => expect(readConnection().remember).toBe(true));
    expect(requests).toHaveLength(3);
  });

  it('keeps cached answers when Save changes nothing', async () => {
    saveConnection({ baseUrl: '', apiKey: 'same-key', remember: false });
    const page = renderSettings();
    page.queryClient.setQueryData(['reports', 'list', { per_page: 10 }], 'cached');
    await page.user.click(page.save());
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(page.queryClient.getQueryData(['reports', 'list', { per_page: 10 }])).toBe('cached');
  });
});

describe('Settings: Test connection', () => {
  it('connects with the typed values, sends the key only as a Bearer header and saves nothing', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: 'saved-but-wrong', remember: false });
    const requests = recordRequests();
    const page = renderSettings();
    await page.user.type(page.baseUrl(), `${REMOTE}/api/v1`);
    await page.user.clear(page.apiKey());
    await page.user.type(page.apiKey(), REAL_API_KEY);
    await page.user.click(page.test());

    const result = await screen.findByRole('alert');
    expect(within(result).getByText('Connected')).toBeInTheDocument();
    expect(result).toHaveTextContent(`The API at ${REMOTE} accepted this key. Save to use these settings.`);

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toMatch(new RegExp(`^${REMOTE}/api/v1/reports\\?`));
    expect(request?.url).not.toContain(REAL_API_KEY);
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${REAL_API_KEY}`);
    expect(readConnection()).toMatchObject({ baseUrl: '', apiKey: 'saved-but-wrong' });
  });

  it('says the key is invalid when the API answers 401', async () => {
    useRealApi();
    const page = renderSettings();
    await page.user.type(page.apiKey(), 'wrong-key');
    await page.user.click(page.test());

    const result = await screen.findByRole('alert');
    expect(within(result).getByText('Invalid API key')).toBeInTheDocument();
    expect(result).toHaveTextContent('The API key is missing or invalid.');
    expect(result).not.toHaveTextContent('wrong-key');
  });

  it('says the account has no API access on a 403 "no access to this feature"', async () => {
    server.use(
      http.get('*/api/v1/reports', () =>
        HttpResponse.json({ message: "You don't have access to this feature." }, { status: 403 }),
      ),
    );
    const page = renderSettings();
    await page.user.type(page.apiKey(), 'free-plan-key');
    await page.user.click(page.test());

    const result = await screen.findByRole('alert');
    expect(within(result).getByText('No API access for this account')).toBeInTheDocument();
    expect(result).toHaveTextContent('This account is not allowed to use the API.');
  });

  it('says the API is unreachable when neither the request nor a no-cors probe gets an answer', async () => {
    server.use(http.get(`${REMOTE}/api/v1/reports`, () => HttpResponse.error()));
    const page = renderSettings();
    await page.user.type(page.baseUrl(), REMOTE);
    await page.user.type(page.apiKey(), 'some-key');
    await page.user.click(page.test());

    const result = await screen.findByRole('alert');
    expect(within(result).getByText('Could not reach the API')).toBeInTheDocument();
    expect(result).toHaveTextContent(`No answer came from ${REMOTE}.`);
    expect(result).not.toHaveTextContent(/CORS|security policy/);
  });

  it('says CORS keeps the answers out when only the no-cors probe gets one, with what to do', async () => {
    server.use(
      http.get(`${REMOTE}/api/v1/reports`, ({ request }) =>
        request.mode === 'no-cors' ? new HttpResponse(null, { status: 401 }) : HttpResponse.error(),
      ),
    );
    const page = renderSettings();
    await page.user.type(page.baseUrl(), REMOTE);
    await page.user.type(page.apiKey(), 'some-key');
    await page.user.click(page.test());

    const result = await screen.findByRole('alert');
    expect(within(result).getByText('Blocked by CORS')).toBeInTheDocument();
    expect(result).toHaveTextContent(`The server at ${REMOTE} answered`);
    expect(result).toHaveTextContent(/CORS_ORIGINS/);
    expect(result).toHaveTextContent(/UPSTREAM_URL/);
    expect(result).not.toHaveTextContent(/CONNECT_SRC/);
  });

  it('names the page’s security policy and CONNECT_SRC when the CSP refused the request', async () => {
    server.use(
      http.get(`${REMOTE}/api/v1/reports`, () => {
        // What Chromium dispatches on the document when connect-src refuses a fetch.
        document.dispatchEvent(
          Object.assign(new Event('securitypolicyviolation'), {
            effectiveDirective: 'connect-src',
            violatedDirective: 'connect-src',
            blockedURI: `${REMOTE}/api/v1/reports?per_page=10`,
            disposition: 'enforce',
          }),
        );
        return HttpResponse.error();
      }),
    );
    const page = renderSettings();
    await page.user.type(page.baseUrl(), REMOTE);
    await page.user.type(page.apiKey(), 'some-key');
    await page.user.click(page.save());

    const result = await screen.findByRole('alert');
    expect(within(result).getByText('Blocked by this page’s security policy')).toBeInTheDocument();
    expect(result).toHaveTextContent(/connect-src/);
    expect(result).toHaveTextContent(REMOTE);
    expect(result).toHaveTextContent(/CONNECT_SRC/);
    expect(result).not.toHaveTextContent(/CORS_ORIGINS/);
    expect(within(result).getByRole('button', { name: 'Save anyway' })).toBeInTheDocument();
    expect(readConnection().baseUrl).toBe('');
  });

  it('says the address answers but is not this API when the body is something else', async () => {
    server.use(
      http.get(`${REMOTE}/api/v1/reports`, () =>
        HttpResponse.html('<!doctype html><title>Welcome</title><h1>Welcome to nginx</h1>'),
      ),
    );
    const page = renderSettings();
    await page.user.type(page.baseUrl(), REMOTE);
    await page.user.type(page.apiKey(), 'some-key');
    await page.user.click(page.test());

    const result = await screen.findByRole('alert');
    expect(within(result).getByText('This is not the Webpage Report Service API')).toBeInTheDocument();
    expect(result).toHaveTextContent(REMOTE);
  });

  it('asks for a key before testing, without sending anything', async () => {
    const requests = recordRequests();
    const page = renderSettings();
    await page.user.click(page.test());

    expect(await screen.findByText('Enter an API key to test the connection.')).toBeInTheDocument();
    expect(page.apiKey()).toHaveFocus();
    expect(requests).toHaveLength(0);
  });

  it('hides a result once the values it was run with are edited', async () => {
    useRealApi();
    const page = renderSettings();
    await page.user.type(page.apiKey(), REAL_API_KEY);
    await page.user.click(page.test());
    expect(await screen.findByText('Connected')).toBeInTheDocument();

    await page.user.type(page.apiKey(), 'x');
    expect(screen.queryByText('Connected')).not.toBeInTheDocument();
  });
});
