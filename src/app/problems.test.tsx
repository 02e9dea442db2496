// /problems in the app's own routes against the real reference server: every failing check with
// its pages failing out of analysed, projects and site-wide mark; Project, Sort by and Show ignored
// in the URL; a row leads to the reports list of its pages; on a project, Ignore (with a note),
// Stop ignoring and Importance; and a deployment without the extension, where the page counts the
// problems itself from the newest reports and says so.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { createReport } from '@/api/reports';
import { resultForScore } from '@/contract/values';
import type { Analyser } from '../../test/reference-server';
import { REAL_API_KEY, noCapabilities, realApi, server } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';

/**
 * shop.example /a-/e fail HTTPS (5 of 5: site-wide), /a and /b the title too; blog.example /x fails
 * the title; the image alt text fails everywhere (low importance).
 */
const analyser: Analyser = (url) => {
  const { hostname, pathname } = new URL(url);
  const shop = hostname === 'shop.example';
  const results = {
    title: {
      passed: !(pathname === '/a' || pathname === '/b' || !shop),
      importance: 'high' as const,
      value: null,
    },
    https_encryption: { passed: !shop, importance: 'high' as const, value: null },
    image_keywords: { passed: false, importance: 'low' as const, value: null },
  };
  const score = shop ? 40 : 60;
  return Promise.resolve({ score, result: resultForScore(score), results });
};

async function withProblems() {
  const api = realApi({ analyser });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  for (const page of ['a', 'b', 'c', 'd', 'e']) await createReport({ url: `https://shop.example/${page}` });
  await createReport({ url: 'https://blog.example/x' });
  return api;
}

function renderApp(route: string) {
  const queryClient = createTestQueryClient();
  const app = renderWithProviders(createRoutes(), { route, queryClient });
  return {
    ...app,
    address: () => `${app.router.state.location.pathname}${app.router.state.location.search}`,
  };
}

const table = () => screen.getByRole('table', { name: 'Problems' });
const rows = () => within(table()).getAllByRole('row').slice(1);
const rowOf = (name: string) =>
  rows().find((row) => within(row).queryByRole('rowheader')?.textContent?.includes(name));
const checksShown = () =>
  rows().map((row) => within(row).getByRole('rowheader').querySelector('a, p')?.textContent);

describe('Problems', () => {
  it('lists every failing check by impact, with pages failing out of analysed, projects and the site-wide mark', async () => {
    await withProblems();
    renderApp('/problems');
    expect(await screen.findByRole('heading', { level: 1, name: 'Problems' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Problems' }),
    ).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(checksShown()).toEqual(['HTTPS encryption', 'Title', 'Image alt text']));
    const https = rowOf('HTTPS encryption')!;
    const cells = within(https)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual(['High', '5 of 6 (83%)', '1', '0', '0', 'Open']);
    expect(within(https).getByText('Site-wide')).toBeInTheDocument();
    expect(within(rowOf('Title')!).queryByText('Site-wide')).toBeNull();
    expect(within(rowOf('Title')!).getAllByRole('cell')[1]).toHaveTextContent('3 of 6 (50%)');
    expect(within(https).getByRole('link', { name: 'HTTPS encryption' })).toHaveAttribute(
      'href',
      '/reports?failing=https_encryption',
    );
    expect(screen.getByText(/3 checks fail across the pages in view/)).toBeInTheDocument();
  });

  it('keeps Project and Sort by in the URL, and a row leads to the project’s failing pages', async () => {
    await withProblems();
    const app = renderApp('/problems');
    await waitFor(() => expect(checksShown()).toHaveLength(3));
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'pages' } });
    await waitFor(() => expect(app.address()).toBe('/problems?sort_by=pages'));
    await waitFor(() => expect(checksShown()).toEqual(['Image alt text', 'HTTPS encryption', 'Title']));
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'check' } });
    await waitFor(() => expect(checksShown()).toEqual(['HTTPS encryption', 'Image alt text', 'Title']));
    await waitFor(() => expect(screen.getByRole('option', { name: 'blog.example' })).toBeInTheDocument());
    fireEvent.change(screen.getByRole('combobox', { name: 'Project' }), {
      target: { value: 'blog.example' },
    });
    await waitFor(() => expect(app.address()).toBe('/problems?project=blog.example&sort_by=check'));
    await waitFor(() => expect(checksShown()).toEqual(['Image alt text', 'Title']));
    expect(within(rowOf('Title')!).getAllByRole('cell')[1]).toHaveTextContent('1 of 1 (100%)');
    await userEvent.click(within(rowOf('Title')!).getByRole('link', { name: 'Title' }));
    await waitFor(() => expect(app.address()).toBe('/reports?project=blog.example&failing=title'));
  });

  it('on a project: Ignore with a note takes the check out, Show ignored lists it apart, Stop ignoring brings it back', async () => {
    const api = await withProblems();
    const app = renderApp('/problems?project=shop.example');
    await waitFor(() => expect(checksShown()).toEqual(['HTTPS encryption', 'Title', 'Image alt text']));
    await userEvent.click(
      within(rowOf('HTTPS encryption')!).getByRole('button', { name: 'Ignore on shop.example' }),
    );
    const note = await screen.findByRole('textbox', { name: 'Note' });
    await userEvent.type(note, 'Intranet, stays on HTTP');
    await userEvent.click(screen.getByRole('button', { name: 'Ignore' }));
    await waitFor(() => expect(checksShown()).toEqual(['Title', 'Image alt text']));
    const stored = await (await api.backend()).storage.problems.checkSettingsOf('shop.example');
    expect(stored.get('https_encryption')).toEqual({
      state: 'ignored',
      importance: null,
      note: 'Intranet, stays on HTTP',
    });

    await userEvent.click(screen.getByRole('switch', { name: 'Show ignored' }));
    await waitFor(() => expect(app.address()).toBe('/problems?project=shop.example&state=all'));
    await waitFor(() => expect(checksShown()).toContain('HTTPS encryption'));
    const ignored = rowOf('HTTPS encryption')!;
    expect(within(ignored).getByText('Ignored')).toBeInTheDocument();
    expect(within(ignored).getByText('Note: Intranet, stays on HTTP')).toBeInTheDocument();
    await userEvent.click(
      within(ignored).getByRole('button', { name: 'Stop ignoring HTTPS encryption on shop.example' }),
    );
    await waitFor(() => expect(within(rowOf('HTTPS encryption')!).getByText('Open')).toBeInTheDocument());

    // Importance: the image alt text raised to high outweighs the title on this project.
    fireEvent.change(
      within(rowOf('Image alt text')!).getByRole('combobox', {
        name: 'Importance of Image alt text on shop.example',
      }),
      {
        target: { value: 'high' },
      },
    );
    await waitFor(() => expect(checksShown()).toEqual(['HTTPS encryption', 'Image alt text', 'Title']));
    expect(within(rowOf('Image alt text')!).getAllByRole('cell')[0]).toHaveTextContent('High');
  });

  it('against a deployment without the extension: counts the problems from the newest reports, says so, and offers no settings', async () => {
    await withProblems();
    server.use(noCapabilities());
    renderApp('/problems?project=shop.example');
    await waitFor(() => expect(checksShown()).toEqual(['HTTPS encryption', 'Title', 'Image alt text']));
    expect(screen.getByText(/Counted in this browser from the newest 5 of 5 reports/)).toBeInTheDocument();
    expect(
      within(rowOf('HTTPS encryption')!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['High', '5 of 5 (100%)', '1', '—', '—', 'Open']);
    expect(within(rowOf('HTTPS encryption')!).getByText('Site-wide')).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Show ignored' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Ignore on/ })).toBeNull();
  });

  it('against a deployment without the extension: a row leads to its pages picked here from the same newest reports, nothing asked again', async () => {
    await withProblems();
    server.use(noCapabilities());
    const lists: string[] = [];
    server.events.on('request:start', ({ request }) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/v1/reports') lists.push(url.search);
    });
    const app = renderApp('/problems?project=shop.example');
    await waitFor(() => expect(checksShown()).toHaveLength(3));
    const asked = lists.length;
    await userEvent.click(within(rowOf('Title')!).getByRole('link', { name: 'Title' }));
    await waitFor(() => expect(app.address()).toBe('/reports?project=shop.example&failing=title'));
    const reports = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() =>
      expect(
        within(reports)
          .getAllByRole('link')
          .map((link) => link.textContent)
          .filter((text) => text?.startsWith('https://')),
      ).toEqual(['https://shop.example/b', 'https://shop.example/a']),
    );
    expect(screen.getByRole('note')).toHaveTextContent('Picked in this browser from all 5 reports');
    expect(lists).toHaveLength(asked);
    server.events.removeAllListeners();
  });
});
