// What the reports list's tests share: the list page's routes, rendered, with its parts by role and
// name as ui-contract.md gives them; a real API holding given reports; the list requests sent.
import { screen, within } from '@testing-library/react';
import { saveConnection } from '@/api/http/connection';
import { resultForScore } from '@/contract/values';
import { createReport } from '@/api/reports';
import { REAL_API_KEY, realApi, server } from './msw';
import type { Analyser } from './reference-server';
import { WithNotifications, renderWithProviders } from './render';
import { Component as ReportsPage } from '@/features/reports-list/reports-page';

// Scores by page, so results differ: the analyser stands in for fetching real pages.
const SCORES: Record<string, number> = {
  'https://shop.example/': 91,
  'https://shop.example/cart': 62,
  'https://blog.example/': 35,
};


const scoreOf = (url: string) => SCORES[url] ?? 85;

/** An analyser that gives each page its score (scoreOf) and one check, passed above 50. */
export const scoredAnalyser: Analyser = (url) => {
  const score = scoreOf(url);
  return Promise.resolve({
    score,
    result: resultForScore(score),
    results: { title: { passed: score > 50, importance: 'high', value: 'A page' } },
  });
};

/** A real API (reference server app, in memory) with these reports, created one minute apart in order. */
export async function withReports(urls: string[], analyser: Analyser = scoredAnalyser): Promise<void> {
  let clock = Date.parse('2026-01-10T09:00:00Z');
  server.use(...realApi({ analyser, now: () => new Date(clock) }).handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  for (const url of urls) {
    await createReport({ url });
    clock += 60_000;
  }
}

/** Twelve report URLs of one site, page-01 to page-12: more than a page of 10. */
export const TWELVE_URLS = Array.from(
  { length: 12 },
  (_, i) => `https://docs.example/page-${String(i + 1).padStart(2, '0')}`,
);

/** The query of every GET /reports that reached the network, as an object, in order. */
export function recordListRequests() {
  const seen: Record<string, string>[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/api/v1/reports')
      seen.push(Object.fromEntries(url.searchParams));
  });
  return seen;
}

export function renderReportsPage(route = '/reports') {
  const view = renderWithProviders(
    [
      {
        element: <WithNotifications />,
        children: [
          { path: '/reports', Component: ReportsPage },
          { path: '/reports/new', element: <h1>New report</h1> },
          { path: '/reports/:id', element: <h1>One report</h1> },
        ],
      },
    ],
    { route },
  );
  const table = () => screen.getByRole('table', { name: 'Reports' });
  return {
    ...view,
    search: () => view.router.state.location.search,
    table,
    rows: () => within(table()).getAllByRole('row').slice(1),
    /** The report links' texts (URLs), in the table's order. */
    urls: () =>
      within(table())
        .getAllByRole('link')
        .filter((link) => link.getAttribute('href')?.startsWith('/reports/'))
        .map((link) => link.textContent),
    control: (name: string) => screen.getByRole('combobox', { name }),
    /** A row's checkbox, by the report's URL. */
    box: (url: string) => screen.getByRole('checkbox', { name: `Select ${url}` }),
    pageBox: () => screen.getByRole('checkbox', { name: 'Select all on this page' }),
    toolbar: () => screen.getByRole('toolbar', { name: 'Selection' }),
  };
}
