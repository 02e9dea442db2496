// What the report page's tests share: the real API with a scripted analyser (so results and their
// changes are known in advance), a recorder of the requests the page sends, and the page's routes.
import { Title } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import { Notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { HttpResponse, http } from 'msw';
import { Outlet, useLocation, useParams } from 'react-router-dom';
import type { Location, RouteObject } from 'react-router-dom';
import { saveConnection } from '@/api/http/connection';
import { createReport } from '@/api/reports';
import type { CreateReportInput } from '@/api/reports';
import type { Report } from '@/contract/domain';
import type { Analyser, Analysis } from '../server/src/analysis/analyse';
import { REAL_API_KEY, realApi, server } from './msw';
import type { RealApi } from './msw';
import { renderWithProviders } from './render';
import { Component as ReportPage } from '@/features/report/report-page';

export const PAGE_URL = 'https://shop.example/pricing';

/** The first analysis: decent, with failures of each importance and a check the dashboard does not know. */
export const FIRST_ANALYSIS: Analysis = {
  score: 62,
  result: 'decent',
  results: {
    title: { passed: true, importance: 'high', value: 'Pricing - Example Shop' },
    meta_description: { passed: false, importance: 'high', value: null, errors: { missing: true } },
    headings: { passed: true, importance: 'high', value: { h1: ['Pricing'], h2: ['Plans', 'Questions'] } },
    language: { passed: false, importance: 'medium', value: null, errors: { missing: true } },
    favicon: { passed: false, importance: 'low', value: null, errors: { missing: true } },
    load_time: { passed: false, importance: 'high', value: 2140, errors: { too_slow: 2140 } },
    page_size: { passed: true, importance: 'medium', value: 350_000 },
    https_encryption: { passed: true, importance: 'high', value: true },
    charset: { passed: true, importance: 'medium', value: 'utf-8' },
    page_speed_index: {
      passed: false,
      importance: 'low',
      value: { lab: { first_paint: 1200, runs: [980, 1420] }, field: null },
      errors: { over_budget: { limit: 1000 } },
    },
  },
};

/** After the site's owner fixed things (and broke the title): good. */
export const SECOND_ANALYSIS: Analysis = {
  score: 84,
  result: 'good',
  results: {
    title: {
      passed: false,
      importance: 'high',
      value: 'Pricing - Example Shop - Plans for every team, billed monthly or yearly',
      errors: { too_long: 72 },
    },
    meta_description: { passed: true, importance: 'high', value: 'Plans and prices for every team size.' },
    headings: { passed: true, importance: 'high', value: { h1: ['Pricing'] } },
    language: { passed: false, importance: 'medium', value: null, errors: { missing: true } },
    favicon: { passed: true, importance: 'low', value: 'https://shop.example/favicon.ico' },
    load_time: { passed: true, importance: 'high', value: 420 },
    page_size: { passed: true, importance: 'medium', value: 350_000 },
    https_encryption: { passed: true, importance: 'high', value: true },
    charset: { passed: true, importance: 'medium', value: 'utf-8' },
    social: { passed: false, importance: 'low', value: {}, errors: { missing: ['og:title', 'og:image'] } },
  },
};

/** Answers each analysis in turn (an Error is thrown instead), repeating the last one. */
export function scriptedAnalyser(...answers: (Analysis | Error)[]): Analyser {
  let next = 0;
  return async () => {
    const answer = answers[Math.min(next, answers.length - 1)];
    next += 1;
    if (answer === undefined) throw new Error('scriptedAnalyser needs at least one answer');
    if (answer instanceof Error) throw answer;
    return structuredClone(answer);
  };
}

/** The real API (fresh in-memory database) with the given analyses, and the dashboard connected to it. */
export function connectRealApi(...answers: (Analysis | Error)[]): RealApi {
  return connectRealApiAt(() => new Date(), ...answers);
}

/** connectRealApi on a clock of the test's: each analysis is dated `now()`. */
export function connectRealApiAt(now: () => Date, ...answers: (Analysis | Error)[]): RealApi {
  const api = realApi({ analyser: scriptedAnalyser(...(answers.length > 0 ? answers : [FIRST_ANALYSIS])), now });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return api;
}

/**
 * The real API as a deployment without history answers it (the service's own deployments): reports
 * carry no `runs` or `recent_scores`, and there is no runs path.
 */
export function withoutHistory(api: RealApi): void {
  server.use(
    http.all('*/api/v1/*', async ({ request }) => {
      if (new URL(request.url).pathname.endsWith('/runs'))
        return HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 });
      const { app } = await api.backend();
      const answer = await app.fetch(request);
      const body = (await answer.json()) as { data?: unknown };
      const strip = (report: unknown) => {
        if (typeof report !== 'object' || report === null) return report;
        const { runs: _runs, recent_scores: _scores, ...rest } = report as Record<string, unknown>;
        return rest;
      };
      if (Array.isArray(body.data)) body.data = body.data.map(strip);
      else if (body.data) body.data = strip(body.data);
      return HttpResponse.json(body, { status: answer.status });
    }),
  );
}

/** Creates a report through the API, as the create form would. */
export function seedReport(input: Partial<CreateReportInput> = {}): Promise<Report> {
  return createReport({ url: PAGE_URL, privacy: 0, ...input });
}

export interface SentRequest {
  method: string;
  path: string;
  /** The form body as pairs, in order. */
  body: [string, string][];
}

/** Records every API request from now on (until the test's MSW reset). */
export function recordRequests(): { sent: SentRequest[]; settled: () => Promise<SentRequest[]> } {
  const sent: SentRequest[] = [];
  const pending: Promise<void>[] = [];
  const listener = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/v1/')) return;
    pending.push(
      request
        .clone()
        .text()
        .then((text) => {
          sent.push({
            method: request.method,
            path: url.pathname,
            body: [...new URLSearchParams(text).entries()],
          });
        }),
    );
  };
  server.events.on('request:start', listener);
  return {
    sent,
    settled: async () => {
      await Promise.all(pending);
      return sent;
    },
  };
}

/** Stops every recorder (MSW keeps event listeners across handler resets). */
export function stopRecording(): void {
  server.events.removeAllListeners('request:start');
}

function ReportsLanding() {
  const { search } = useLocation();
  return (
    <>
      <Title order={1}>Reports</Title>
      <p>Query: {search || '(none)'}</p>
    </>
  );
}

/** Where a report's project link leads: the project's page, named by the router's reading of the path. */
function ProjectLanding() {
  return <h1>Project {useParams().project}</h1>;
}

function Shell() {
  return (
    <>
      <Outlet />
      <Notifications />
    </>
  );
}

export const REPORT_ROUTES: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      { path: '/reports/:id', Component: ReportPage },
      { path: '/reports', Component: ReportsLanding },
      { path: '/projects/:project', Component: ProjectLanding },
    ],
  },
];

/** The report's edit form, by role and name (the settings load beside the results, after them). */
export async function editForm() {
  const edit = await screen.findByRole('form', { name: 'Edit report' });
  return {
    edit,
    radio: (name: 'Public' | 'Private' | 'Password') => within(edit).getByRole('radio', { name }),
    password: () => within(edit).queryByLabelText(/^Password/, { selector: 'input[type="password"]' }),
    refresh: () => within(edit).getByRole('switch', { name: 'Refresh results' }),
    save: () => within(edit).getByRole('button', { name: 'Save changes' }),
  };
}

export function renderReportPage(path: string | Partial<Location>, queryClient?: QueryClient) {
  return renderWithProviders(REPORT_ROUTES, { route: path, queryClient });
}
