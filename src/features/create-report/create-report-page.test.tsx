import { Notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import type { HttpHandler } from 'msw';
import { Outlet } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { createReport, reportQueries } from '@/api/reports';
import { AnalysisError, type Analyser } from '../../../test/reference-server';
import { REAL_API_KEY, realApi, server } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { Component as CreateReportPage } from './create-report-page';
import { httpsSuggestion, urlProblem } from './create-report-schema';

// The reference server behind these tests shares two cores with everything else running: give
// it time, and load its modules once before the first test rather than inside one.
beforeAll(async () => {
  await realApi().backend();
});

const analysis = {
  score: 88,
  result: 'good',
  results: { title: { passed: true, importance: 'high', value: 'Hi' } },
} as const;
const analyser: Analyser = (url) =>
  url.includes('missing')
    ? Promise.reject(new AnalysisError('The page answered 404.'))
    : Promise.resolve(analysis);

/** Every POST /reports body that reached the network, as an object. */
function recordCreates() {
  const bodies: Record<string, string>[] = [];
  server.events.on('request:start', ({ request }) => {
    if (request.method !== 'POST' || !request.url.endsWith('/api/v1/reports')) return;
    void request
      .clone()
      .text()
      .then((text) => bodies.push(Object.fromEntries(new URLSearchParams(text))));
  });
  return bodies;
}

async function renderForm(options: { analyser?: Analyser; handlers?: HttpHandler[] } = {}) {
  const api = realApi({ analyser: options.analyser ?? analyser });
  // The page asks the capabilities as it renders (for the key's role, issue 47): a test's own answers first.
  server.use(...(options.handlers ?? []), ...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  const view = renderWithProviders(
    [
      {
        element: (
          <>
            <Outlet />
            <Notifications />
          </>
        ),
        children: [
          { path: '/reports/new', Component: CreateReportPage },
          { path: '/reports/:id', element: <h1>One report</h1> },
          { path: '/reports', element: <h1>Reports</h1> },
        ],
      },
    ],
    { route: '/reports/new' },
  );
  // Where the server has accounts the form waits for the key's role (GET /me): an owner's here.
  await screen.findByRole('form', { name: 'New report' });
  const form = () => screen.getByRole('form', { name: 'New report' });
  return {
    ...view,
    api,
    url: () => within(form()).getByRole('textbox', { name: 'URL' }),
    privacy: (name: 'Public' | 'Private' | 'Password') =>
      within(within(form()).getByRole('radiogroup', { name: 'Privacy' })).getByRole('radio', { name }),
    password: () => within(form()).queryByLabelText(/^Password/, { selector: 'input:not([type=radio])' }),
    submit: () => within(form()).getByRole('button', { name: 'Create report' }),
  };
}

describe('urlProblem and httpsSuggestion', () => {
  it.each([
    ['', 'Enter the address of the page to analyse.'],
    ['example.com/pricing', 'Start the URL with https:// or http://.'],
    ['ftp://example.com/', 'Only http:// and https:// pages can be analysed.'],
    ['javascript:alert(1)', 'Only http:// and https:// pages can be analysed.'],
    ['not a url', 'This is not a valid URL.'],
    ['https://exa mple.com/', 'This is not a valid URL.'],
    [`https://example.com/${'a'.repeat(2048)}`, 'A URL can have at most 2048 characters.'],
  ])('rejects %j', (url, message) => {
    expect(urlProblem(url)).toBe(message);
  });

  it('accepts absolute http and https URLs', () => {
    expect(urlProblem('https://example.com/pricing?a=1')).toBeNull();
    expect(urlProblem('http://shop.example:4181/')).toBeNull();
  });

  it('suggests https only for what looks like an address without a scheme', () => {
    expect(httpsSuggestion('example.com/pricing')).toBe('https://example.com/pricing');
    expect(httpsSuggestion('shop.example:8080/x')).toBe('https://shop.example:8080/x');
    expect(httpsSuggestion('https://example.com/')).toBeNull();
    expect(httpsSuggestion('ftp://example.com/')).toBeNull();
    expect(httpsSuggestion('javascript:alert(1)')).toBeNull();
    expect(httpsSuggestion('hello')).toBeNull();
  });
});

describe('Create report', () => {
  it('catches invalid input before any request', async () => {
    const creates = recordCreates();
    const form = await renderForm();

    await form.user.click(form.submit());
    expect(await screen.findByText('Enter the address of the page to analyse.')).toBeInTheDocument();
    expect(form.url()).toHaveAttribute('aria-invalid', 'true');
    expect(form.url()).toHaveFocus();

    await form.user.type(form.url(), 'ftp://example.com/file');
    await form.user.click(form.submit());
    expect(await screen.findByText('Only http:// and https:// pages can be analysed.')).toBeInTheDocument();
    expect(creates).toEqual([]);
  });

  it('offers https:// for an address typed without a scheme', async () => {
    const form = await renderForm();
    await form.user.type(form.url(), 'example.com/pricing');
    await form.user.click(form.submit());
    expect(await screen.findByText('Start the URL with https:// or http://.')).toBeInTheDocument();

    await form.user.click(screen.getByRole('button', { name: 'Use https://example.com/pricing' }));
    expect(form.url()).toHaveValue('https://example.com/pricing');
    await waitFor(() =>
      expect(screen.queryByText('Start the URL with https:// or http://.')).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('button', { name: /^Use https/ })).not.toBeInTheDocument();
  });

  it('asks for a password only with Password privacy, and at most 128 characters', async () => {
    const creates = recordCreates();
    const form = await renderForm();
    expect(form.privacy('Public')).toBeChecked();
    expect(form.password()).toBeNull();

    await form.user.type(form.url(), 'https://shop.example/');
    await form.user.click(form.privacy('Password'));
    expect(form.password()).toBeInTheDocument();
    await form.user.click(form.submit());
    expect(await screen.findByText('Enter the password that will protect the report.')).toBeInTheDocument();

    await form.user.click(form.password()!);
    await form.user.paste('x'.repeat(129));
    await form.user.click(form.submit());
    expect(await screen.findByText('A password can have at most 128 characters.')).toBeInTheDocument();
    expect(creates).toEqual([]);

    // Private needs none, and the typed one is not sent.
    await form.user.click(form.privacy('Private'));
    expect(form.password()).toBeNull();
    await form.user.click(form.submit());
    expect(await screen.findByRole('heading', { name: 'One report' })).toBeInTheDocument();
    expect(creates).toEqual([{ url: 'https://shop.example/', privacy: '1' }]);
  });

  it('creates the report, says so, opens it, and refreshes the lists', async () => {
    const creates = recordCreates();
    const form = await renderForm();
    const list = reportQueries.list();
    form.queryClient.setQueryData(list.queryKey, {
      items: [],
      meta: { currentPage: 1, lastPage: 1, perPage: 10, total: 0, from: null, to: null },
    });

    await form.user.type(form.url(), '  https://shop.example/checkout ');
    await form.user.click(form.privacy('Password'));
    await form.user.type(form.password()!, 'open sesame');
    await form.user.click(form.submit());

    expect(await screen.findByRole('heading', { name: 'One report' })).toBeInTheDocument();
    expect(form.router.state.location.pathname).toBe('/reports/1');
    expect(await screen.findByText('Report created')).toBeInTheDocument();
    expect(creates).toEqual([
      { url: 'https://shop.example/checkout', privacy: '2', password: 'open sesame' },
    ]);
    expect(form.queryClient.getQueryState(list.queryKey)?.isInvalidated).toBe(true);
    expect(form.queryClient.getQueryData(reportQueries.detail(1).queryKey)).toMatchObject({
      url: 'https://shop.example/checkout',
      privacy: 2,
    });
  });

  it('shows the analysis running and sends one request however often it is submitted', async () => {
    let finish = () => {};
    const slow: Analyser = () =>
      new Promise((resolve) => {
        finish = () => resolve(analysis);
      });
    const creates = recordCreates();
    const form = await renderForm({ analyser: slow });

    await form.user.type(form.url(), 'https://blog.example/');
    await form.user.click(form.submit());
    expect(await screen.findByText('Analysing page…')).toBeInTheDocument();
    expect(form.submit()).toBeDisabled();
    await form.user.type(form.url(), '{Enter}');
    await waitFor(() => expect(creates).toHaveLength(1));

    finish();
    expect(await screen.findByRole('heading', { name: 'One report' })).toBeInTheDocument();
    expect(creates).toHaveLength(1);
  });

  it('puts the server’s 422 errors on their fields and keeps what was typed', async () => {
    const form = await renderForm();
    await form.user.type(form.url(), 'https://shop.example/missing');
    await form.user.click(form.privacy('Private'));
    await form.user.click(form.submit());

    expect(await screen.findByText('The page answered 404.')).toBeInTheDocument();
    expect(form.url()).toHaveAttribute('aria-invalid', 'true');
    expect(form.url()).toHaveValue('https://shop.example/missing');
    expect(form.privacy('Private')).toBeChecked();
    expect(form.router.state.location.pathname).toBe('/reports/new');
    expect(screen.queryByText('Analysing page…')).not.toBeInTheDocument();
  });

  it('shows other failures above the button, with a notification', async () => {
    const form = await renderForm();
    server.use(
      http.post('*/api/v1/reports', () =>
        HttpResponse.json({ message: 'Server error.', status: 500 }, { status: 500 }),
      ),
    );
    await form.user.type(form.url(), 'https://shop.example/');
    await form.user.click(form.submit());

    const alert = await within(screen.getByRole('form', { name: 'New report' })).findByRole('alert');
    expect(alert).toHaveTextContent('The report was not created');
    expect(alert).toHaveTextContent('Server error');
    expect(await screen.findAllByText('The report was not created')).toHaveLength(2);
    expect(form.url()).toHaveValue('https://shop.example/');
    expect(form.submit()).toBeEnabled();
  });
});

describe('Create report: a report of the same URL exists', () => {
  /** Each list request's filter: `url=…` (the exact filter) or `search=…`. */
  function recordLists() {
    const searches: string[] = [];
    server.events.on('request:start', ({ request }) => {
      const url = new URL(request.url);
      if (request.method === 'GET' && url.pathname === '/api/v1/reports') {
        const exact = url.searchParams.get('url');
        searches.push(exact === null ? `search=${url.searchParams.get('search') ?? ''}` : `url=${exact}`);
      }
    });
    return searches;
  }

  it('says so once typing stops, with Open report; one exact-URL request, not one per key', async () => {
    const form = await renderForm();
    const existing = await createReport({ url: 'https://shop.example/pricing' });
    await createReport({ url: 'https://shop.example/pricing/teams' });
    const searches = recordLists();
    await form.user.type(form.url(), 'https://shop.example/pricing');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('A report of this URL exists');
    expect(within(alert).getByRole('link', { name: 'Open report' })).toHaveAttribute(
      'href',
      `/reports/${existing.id}`,
    );
    expect(searches).toEqual(['url=https://shop.example/pricing']);

    // Another URL, even one containing it: nothing to say.
    await form.user.type(form.url(), '/enterprise');
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('finds it behind 33 newer reports whose URLs contain it (the 25 newest matches are not enough)', async () => {
    const form = await renderForm();
    const existing = await createReport({ url: 'https://shop.example/pricing' });
    for (let i = 0; i < 33; i += 1) await createReport({ url: `https://shop.example/pricing?plan=${i}` });
    await form.user.type(form.url(), 'HTTPS://Shop.Example:443/pricing');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('link', { name: 'Open report' })).toHaveAttribute(
      'href',
      `/reports/${existing.id}`,
    );
  });

  it('without the exact filter (no GET /capabilities), searches and compares exact URLs', async () => {
    const form = await renderForm({
      handlers: [
        http.get('*/api/v1/capabilities', () =>
          HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 }),
        ),
      ],
    });
    const existing = await createReport({ url: 'https://shop.example/pricing' });
    for (let i = 0; i < 30; i += 1) await createReport({ url: `https://shop.example/pricing/${i}` });
    const searches = recordLists();
    await form.user.type(form.url(), 'https://shop.example/pricing');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('link', { name: 'Open report' })).toHaveAttribute(
      'href',
      `/reports/${existing.id}`,
    );
    expect(searches).toEqual(['search=shop.example/pricing']);
    await form.user.clear(form.url());
    await form.user.type(form.url(), 'https://shop.example/pricing/3/x');
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('refreshes the existing report instead of creating another, then opens it', async () => {
    const form = await renderForm();
    await createReport({ url: 'https://shop.example/pricing' });
    const creates = recordCreates();
    await form.user.type(form.url(), 'https://shop.example/pricing');
    const alert = await screen.findByRole('alert');
    await form.user.click(within(alert).getByRole('button', { name: 'Refresh it instead' }));
    expect(await screen.findByRole('heading', { name: 'One report' })).toBeInTheDocument();
    expect(await screen.findByText('Results refreshed')).toBeInTheDocument();
    expect(creates).toEqual([]);
  });
});
