// The client against the reference server itself (its real app, storage and analyser), so the two
// cannot drift apart: every operation, and the errors the server really produces.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnalyser } from '../../test/reference-server';
import { startPageServer } from '../../test/fixtures/page-server';
import type { PageServer } from '../../test/fixtures/page-server';
import { REAL_API_KEY, useRealApi } from '../../test/msw';
import { saveConnection } from './http/connection';
import { failureOf } from '../../test/fixtures/api-failure';
import { deleteProject, fetchProjects } from './projects';
import { createReport, deleteReport, fetchReport, fetchReports, updateReport } from './reports';

let pages: PageServer;
let port: string;

beforeEach(async () => {
  pages = await startPageServer();
  port = new URL(pages.origin).port;
  // Two "public" host names, both pinned to the loopback page server.
  useRealApi({
    analyser: createAnalyser({
      allowPrivate: false,
      hostMap: { 'shop.example': '127.0.0.1', 'blog.example': '127.0.0.1' },
      timeoutMs: 5000,
    }),
  });
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
});

afterEach(async () => {
  await pages.close();
});

describe('the client against the reference server', () => {
  it('creates, lists, shows, updates and deletes a report', async () => {
    const created = await createReport({
      url: `http://shop.example:${port}/pricing`,
      privacy: 2,
      password: 'hunter22',
    });
    // The analyser really fetched the page, through MSW, from the loopback server.
    expect(pages.requests).toContain('/pricing');
    expect(created).toMatchObject({
      url: `http://shop.example:${port}/pricing`,
      project: 'shop.example',
      privacy: 2,
      hasPassword: true,
    });
    expect(created.result).not.toBeNull();
    expect(created.score).toBeGreaterThan(0);
    expect(created.results.title).toMatchObject({ passed: true, value: 'Pricing - Example Shop' });
    expect(created.generatedAt).toBeInstanceOf(Date);

    const page = await fetchReports();
    expect(page.items.map((r) => r.id)).toEqual([created.id]);
    expect(page.meta).toEqual({ currentPage: 1, lastPage: 1, perPage: 10, total: 1, from: 1, to: 1 });

    await expect(fetchReport(created.id)).resolves.toEqual(created);

    const updated = await updateReport({ id: created.id, privacy: 0 });
    expect(updated).toMatchObject({ id: created.id, privacy: 0, hasPassword: false });

    const refreshed = await updateReport({ id: created.id, refreshResults: true });
    expect(refreshed.results.title).toMatchObject({ passed: true });
    expect(pages.requests.filter((p) => p === '/pricing')).toHaveLength(2);

    await deleteReport(created.id);
    expect(await failureOf(fetchReport(created.id))).toMatchObject({ status: 404, kind: 'not-found' });
  });

  it('filters, searches and pages lists with the API’s parameters', async () => {
    await createReport({ url: `http://shop.example:${port}/pricing` });
    await createReport({ url: `http://shop.example:${port}/contact` });
    await createReport({ url: `http://blog.example:${port}/post` });

    const shop = await fetchReports({ project: 'shop.example', sort_by: 'url', sort: 'asc' });
    expect(shop.items.map((r) => new URL(r.url).pathname)).toEqual(['/contact', '/pricing']);

    const search = await fetchReports({ search: 'CONTACT' });
    expect(search.items.map((r) => new URL(r.url).pathname)).toEqual(['/contact']);

    const past = await fetchReports({ page: 5 });
    expect(past.items).toEqual([]);
    expect(past.meta).toMatchObject({ currentPage: 5, total: 3, from: null, to: null });
  });

  it('lists and deletes projects, with every report of the project', async () => {
    await createReport({ url: `http://shop.example:${port}/pricing` });
    await createReport({ url: `http://shop.example:${port}/contact` });
    await createReport({ url: `http://blog.example:${port}/post` });

    const projects = await fetchProjects({ sort_by: 'project', sort: 'asc' });
    expect(projects.items.map((p) => [p.name, p.reports])).toEqual([
      ['blog.example', 1],
      ['shop.example', 2],
    ]);
    expect(projects.items[0]?.createdAt).toBeInstanceOf(Date);

    await deleteProject('shop.example');
    expect((await fetchProjects()).items.map((p) => p.name)).toEqual(['blog.example']);
    expect((await fetchReports({ project: 'shop.example' })).items).toEqual([]);
    expect(await failureOf(deleteProject('shop.example'))).toMatchObject({ kind: 'not-found' });
  });

  it('puts the server’s validation and analysis errors on their fields', async () => {
    const invalid = await failureOf(createReport({ url: 'not a url' }));
    expect(invalid).toMatchObject({ status: 422, kind: 'validation' });
    expect(invalid.fieldErrors.url?.length).toBeGreaterThan(0);

    const noPassword = await failureOf(
      createReport({ url: `http://shop.example:${port}/pricing`, privacy: 2 }),
    );
    expect(Object.keys(noPassword.fieldErrors)).toEqual(['password']);

    const missing = await failureOf(createReport({ url: `http://shop.example:${port}/missing` }));
    expect(missing.fieldErrors).toEqual({ url: ['The page answered 404.'] });
    expect(missing.message).toBe('The page answered 404.');
    expect((await fetchReports()).meta.total).toBe(0);
  });

  it('by default analyses loopback pages, fetched past MSW', async () => {
    useRealApi();
    const created = await createReport({ url: `${pages.origin}/about` });
    expect(created.project).toBe('127.0.0.1');
    expect(pages.requests).toContain('/about');
  });

  it('says when the key is wrong, without showing it', async () => {
    saveConnection({ baseUrl: '', apiKey: 'wrong-key-123', remember: false });
    const error = await failureOf(fetchReports());
    expect(error).toMatchObject({
      status: 401,
      kind: 'unauthenticated',
      message: 'The API key is missing or invalid.',
    });
  });
});
