// One test per line of api-contract.md's "Tolerance" section, each answered from a fixture shaped
// like what real deployments of the service send.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import error403NoAccess from '../../test/fixtures/tolerance/error-403-no-access.json';
import error403Unauthorized from '../../test/fixtures/tolerance/error-403-unauthorized.json';
import error404Laravel from '../../test/fixtures/tolerance/error-404-laravel.json';
import error405Laravel from '../../test/fixtures/tolerance/error-405-laravel.json';
import error422Laravel from '../../test/fixtures/tolerance/error-422-laravel.json';
import error500Service from '../../test/fixtures/tolerance/error-500-service.json';
import loginPage from '../../test/fixtures/tolerance/login-page.html?raw';
import projectDeletedAsReport from '../../test/fixtures/tolerance/project-deleted-as-report.json';
import projectsCountVariants from '../../test/fixtures/tolerance/projects-count-variants.json';
import proxy502 from '../../test/fixtures/tolerance/proxy-502.html?raw';
import reportNestedResults from '../../test/fixtures/tolerance/report-nested-results.json';
import reportTimestamps from '../../test/fixtures/tolerance/report-timestamps.json';
import reportUrlWithoutScheme from '../../test/fixtures/tolerance/report-url-without-scheme.json';
import reportWithoutStatus from '../../test/fixtures/tolerance/report-without-status.json';
import reportsExtraFields from '../../test/fixtures/tolerance/reports-extra-fields.json';
import reportsNumericStrings from '../../test/fixtures/tolerance/reports-numeric-strings.json';
import reportsPasswordVariants from '../../test/fixtures/tolerance/reports-password-variants.json';
import reportsPrivacyVariants from '../../test/fixtures/tolerance/reports-privacy-variants.json';
import reportsResultVariants from '../../test/fixtures/tolerance/reports-result-variants.json';
import reportsWithoutLinks from '../../test/fixtures/tolerance/reports-without-links.json';
import unexpectedShape from '../../test/fixtures/tolerance/unexpected-shape.json';
import { server } from '../../test/msw';
import { openPageHref } from '../lib/urls';
import { categoryOf } from '@/contract/values';
import { failureOf } from '../../test/fixtures/api-failure';
import { deleteProject, fetchProjects } from './projects';
import { deleteReport, fetchReport, fetchReports, updateReport } from './reports';

function answer(method: 'get' | 'patch' | 'delete' | 'post', path: string, response: () => Response) {
  server.use(http[method](`*/api/v1/${path}`, response));
}

describe('tolerance of real deployments', () => {
  it('url without scheme and www: shown as it is; the open link adds https:// only for host + path', async () => {
    answer('get', 'reports', () => HttpResponse.json(reportUrlWithoutScheme));
    const page = await fetchReports();
    expect(page.items.map((r) => r.url)).toEqual(['example.com/pricing', 'example.com']);
    expect(page.items.map((r) => openPageHref(r.url))).toEqual([
      'https://example.com/pricing',
      'https://example.com/',
    ]);
    expect(openPageHref('javascript:alert(1)')).toBeNull();
  });

  it('result null without score, result as a number, score instead of result: mapped by the thresholds, else unknown', async () => {
    answer('get', 'reports', () => HttpResponse.json(reportsResultVariants));
    const { items } = await fetchReports();
    expect(items.map((r) => [r.url, r.result, r.score])).toEqual([
      ['https://null.example', null, null],
      ['https://numeric.example', 'good', 87],
      ['https://numeric-string.example', 'decent', 49],
      ['https://score.example', 'bad', 48],
    ]);
  });

  it('results nested by category, unknown keys, errors present or absent, value of any type: flattened, kept', async () => {
    answer('get', 'reports/12', () => HttpResponse.json(reportNestedResults));
    const report = await fetchReport(12);
    expect(Object.keys(report.results).sort()).toEqual(
      ['ai_summary', 'headings', 'https_encryption', 'image_format', 'load_time', 'title'].sort(),
    );
    expect(report.results.headings).toEqual({
      passed: false,
      importance: 'medium',
      value: { h1: 0, h2: 3 },
      errors: { missing: ['h1'] },
    });
    expect(report.results.title).toEqual({ passed: true, importance: 'high', value: 'Shop', errors: null });
    expect(report.results.image_format).toMatchObject({ value: [], errors: null });
    expect(report.results.https_encryption?.value).toBe(true);
    expect(report.results.load_time?.value).toBe(0.42);
    expect(categoryOf('ai_summary')).toBe('other');
    expect(report.results.ai_summary).toEqual({
      passed: false,
      importance: 'low',
      value: null,
      errors: { unavailable: null },
    });
  });

  it('password absent or a boolean: unknown, or the flag', async () => {
    answer('get', 'reports', () => HttpResponse.json(reportsPasswordVariants));
    const { items } = await fetchReports();
    expect(items.map((r) => r.hasPassword)).toEqual([null, true, false]);
  });

  it('privacy as a numeric string or null (null is public)', async () => {
    answer('get', 'reports', () => HttpResponse.json(reportsPrivacyVariants));
    const { items } = await fetchReports();
    expect(items.map((r) => r.privacy)).toEqual([2, 0, 1]);
  });

  it('id and meta numbers as numeric strings', async () => {
    answer('get', 'reports', () => HttpResponse.json(reportsNumericStrings));
    const page = await fetchReports({ page: 4 });
    expect(page.items[0]?.id).toBe(31);
    expect(page.meta).toEqual({ currentPage: 4, lastPage: 4, perPage: 10, total: 31, from: 31, to: 31 });
  });

  it('timestamps with 6 fractional digits, or null', async () => {
    answer('get', 'reports/5', () => HttpResponse.json(reportTimestamps));
    const report = await fetchReport(5);
    expect(report.generatedAt).toBeNull();
    expect(report.createdAt?.toISOString()).toBe('2026-10-12T13:45:06.123Z');
    expect(report.updatedAt?.toISOString()).toBe('2026-10-12T13:45:06.000Z');
    expect(report.results).toEqual({});
  });

  it('projects with reports_count, with an extra summed result, or with no count', async () => {
    answer('get', 'projects', () => HttpResponse.json(projectsCountVariants));
    const { items } = await fetchProjects();
    expect(items).toEqual([
      { name: 'counted.example', reports: 4, createdAt: new Date('2026-10-12T13:45:06Z') },
      { name: 'summed.example', reports: 2, createdAt: new Date('2026-10-11T09:00:00Z') },
      { name: 'bare.example', reports: null, createdAt: new Date('2026-10-10T09:00:00Z') },
    ]);
  });

  it('extra unknown fields anywhere (status, object, deleted_at, meta.links…) are ignored', async () => {
    answer('get', 'reports', () => HttpResponse.json(reportsExtraFields));
    const page = await fetchReports();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).not.toHaveProperty('deleted_at');
    expect(page.items[0]?.results.title).toEqual({
      passed: true,
      importance: 'high',
      value: 'Home',
      errors: null,
    });
    expect(page.meta).toEqual({ currentPage: 1, lastPage: 1, perPage: 10, total: 1, from: 1, to: 1 });
  });

  it('a list without links and with meta missing from/to: the range is computed', async () => {
    answer('get', 'reports', () => HttpResponse.json(reportsWithoutLinks));
    const page = await fetchReports({ page: 3 });
    expect(page.meta).toEqual({ currentPage: 3, lastPage: 3, perPage: 10, total: 22, from: 21, to: 22 });
  });

  it('bodies without status, a delete answered 204 without a body, a project delete saying "object": "report"', async () => {
    answer('get', 'reports/8', () => HttpResponse.json(reportWithoutStatus));
    await expect(fetchReport(8)).resolves.toMatchObject({ id: 8, result: 'bad', score: 30 });
    answer('delete', 'reports/8', () => new HttpResponse(null, { status: 204 }));
    await expect(deleteReport(8)).resolves.toBeUndefined();
    answer('delete', 'projects/example.com', () => HttpResponse.json(projectDeletedAsReport));
    await expect(deleteProject('example.com')).resolves.toBeUndefined();
  });

  it('403 "This action is unauthorized." and 403 "You don’t have access to this feature." say which', async () => {
    answer('patch', 'reports/991', () => HttpResponse.json(error403Unauthorized, { status: 403 }));
    const notYours = await failureOf(updateReport({ id: 991, privacy: 1 }));
    expect(notYours).toMatchObject({ status: 403, kind: 'forbidden' });
    expect(notYours.message).toBe('This report does not exist or does not belong to your API key.');

    answer('get', 'reports', () => HttpResponse.json(error403NoAccess, { status: 403 }));
    const noAccess = await failureOf(fetchReports());
    expect(noAccess).toMatchObject({ status: 403, kind: 'no-api-access' });
    expect(noAccess.message).toBe('This account is not allowed to use the API.');
  });

  it('422 in Laravel’s standard shape: errors go onto their fields', async () => {
    answer('patch', 'reports/3', () => HttpResponse.json(error422Laravel, { status: 422 }));
    const error = await failureOf(updateReport({ id: 3, privacy: 2 }));
    expect(error.kind).toBe('validation');
    expect(error.fieldErrors).toEqual({
      url: ['The url field is required.'],
      privacy: ['The selected privacy is invalid.'],
    });
    expect(error.message).not.toBe('The given data was invalid.');
  });

  it('500 with the service’s own words; 404 and 405 with Laravel’s wording or empty', async () => {
    answer('get', 'reports', () => HttpResponse.json(error500Service, { status: 500 }));
    expect((await failureOf(fetchReports())).message).toBe(
      'An unexpected error has occurred, please try again later.',
    );

    answer('get', 'reports/991', () => HttpResponse.json(error404Laravel, { status: 404 }));
    const laravel404 = await failureOf(fetchReport(991));
    expect(laravel404.kind).toBe('not-found');
    expect(laravel404.message).not.toMatch(/App\\Models/);

    answer('get', 'reports/992', () => HttpResponse.json({ message: '' }, { status: 404 }));
    expect(await failureOf(fetchReport(992))).toMatchObject({ kind: 'not-found' });

    answer('patch', 'reports/5', () => HttpResponse.json(error405Laravel, { status: 405 }));
    const laravel405 = await failureOf(updateReport({ id: 5, privacy: 0 }));
    expect(laravel405.kind).toBe('method-not-allowed');
    expect(laravel405.message).not.toMatch(/route api/);

    answer('patch', 'reports/6', () => new HttpResponse('', { status: 405 }));
    expect(await failureOf(updateReport({ id: 6, privacy: 0 }))).toMatchObject({
      kind: 'method-not-allowed',
    });
  });

  it('without Accept: application/json a bad key would redirect to a login page: the header is always sent', async () => {
    server.use(
      http.get('*/api/v1/reports', ({ request }) =>
        request.headers.get('Accept') === 'application/json'
          ? HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 })
          : HttpResponse.redirect('http://localhost:3000/login', 302),
      ),
      http.get('*/login', () => HttpResponse.html(loginPage)),
    );
    expect(await failureOf(fetchReports())).toMatchObject({ kind: 'unauthenticated' });

    // Should a proxy drop the header anyway, the login page is an unexpected answer, not a crash.
    server.use(http.get('*/api/v1/reports', () => HttpResponse.html(loginPage)));
    expect(await failureOf(fetchReports())).toMatchObject({ kind: 'unexpected', status: 200 });
  });

  it('error bodies that are not JSON (an HTML page from a proxy): the status, not a crash', async () => {
    answer('get', 'reports', () => HttpResponse.html(proxy502, { status: 502 }));
    const error = await failureOf(fetchReports());
    expect(error).toMatchObject({
      status: 502,
      kind: 'server',
      message: 'The server answered 502 Bad Gateway.',
    });
  });

  it('anything else that does not fit: a clear "unexpected response" error', async () => {
    answer('get', 'reports', () => HttpResponse.json(unexpectedShape));
    const error = await failureOf(fetchReports());
    expect(error).toMatchObject({ kind: 'unexpected', status: 200 });
    expect(error.message).toBe('The server answered, but not as the Webpage Report Service API does.');
  });
});
