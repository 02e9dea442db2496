// Two real server processes (tools/bench/api-child.ts, wired by the start code) on one PostgreSQL
// database: what one writes the other lists, a project delete is never seen half done, a key revoked
// on one is refused by the other at its next request, the rate limit is counted across both, and the job of a process killed mid-analysis is finished by the
// other. Skipped without a PostgreSQL server for the tests (and failed in CI).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictReportEnvelope, strictReportListSchema } from '../../src/contract/strict-schemas';
import { testPostgresUrl } from '../../test/server/postgres';
import { until, useServerProcesses } from '../../test/server/server-processes';
import { createKey, newKey } from '../src/auth/keys';
import { apiCall, HARNESS_KEY, type ApiChild } from '../../tools/bench/harness';

const baseUrl = await testPostgresUrl();
const RATE_LIMIT = 30;

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page - Example</title>' +
  '<meta name="description" content="A small page."></head><body><h1>A page</h1><p>Some words.</p></body></html>';

/**
 * Pages for the servers to analyse on 127.0.0.1: /page… answers at once; the first request for
 * /hold… is held open (the test is told it arrived) until the server asking for it dies.
 */
async function startPages() {
  let arrived: () => void = () => {};
  const held = new Promise<void>((resolve) => (arrived = resolve));
  let holding = true;
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/hold') && holding) {
      holding = false;
      arrived();
      return;
    }
    const found = req.url?.startsWith('/page') || req.url?.startsWith('/hold');
    res.writeHead(found ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(found ? PAGE : '<!doctype html><title>Not found</title><p>Not found.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const list = async (server: ApiChild, query: string, key = HARNESS_KEY) => {
  const res = await fetch(`${server.api}/reports?${query}`, { headers: { Accept: 'application/json', Authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, body: res.status === 200 ? strictReportListSchema.parse(await res.json()) : null };
};

describe.skipIf(!baseUrl)('two server processes on one PostgreSQL database', () => {
  let pages: Awaited<ReturnType<typeof startPages>>;
  const processes = useServerProcesses(baseUrl, 'multi-process', {
    RATE_LIMIT: String(RATE_LIMIT),
    // An hour: the test does not straddle a window boundary but once in a long while.
    RATE_LIMIT_WINDOW_S: '3600',
    ANALYSIS_CONCURRENCY: '2',
    // A job left active this long by a dead process goes to the other (analyses here take ms, but
    // the held one must outlast the second process's start); the lease must outlast the deadline.
    ANALYSIS_DEADLINE_S: '8',
    ANALYSIS_JOB_EXPIRE_S: '13',
  });
  const { start, children } = processes;

  beforeAll(async () => {
    pages = await startPages();
  }, 30_000);
  afterAll(async () => {
    await pages?.close();
  }, 30_000);

  it('finishes the job of a process killed mid-analysis on the other one', async () => {
    const a = await start();
    const url = `${pages.origin}/hold/1`;
    // Only a is up, so a's worker takes the job; its page is held until a dies.
    const create = apiCall(a.api, 'POST', '/reports', { url }).catch((error: unknown) => error);
    await pages.held;
    const b = await start();
    await a.stop('SIGKILL');
    expect(await create).toBeInstanceOf(Error);
    const storage = await processes.storage();
    // Watched in the database: requests would count against the rate limit.
    await until('the report in the database', async () => ((await storage.countReports()) > 0 ? true : undefined));
    const shown = (await list(b, 'per_page=100')).body;
    expect(shown?.data.map((report) => report.url)).toEqual([url]);
  }, 60_000);

  it('lists through one process what was created through the other, and shares API keys', async () => {
    const [a, b] = [await start(), children.at(-2) as ApiChild];
    const { key } = await createKey(await processes.storage(), { label: 'made beside the servers' });
    const createdOnA = await apiCall(a.api, 'POST', '/reports', { url: `${pages.origin}/page/from-a` });
    const createdOnB = await apiCall(b.api, 'POST', '/reports', { url: `${pages.origin}/page/from-b` });
    const ids = [createdOnA, createdOnB].map((res) => strictReportEnvelope(201).parse(res.body).data.id);
    for (const server of [a, b]) {
      const shown = (await list(server, 'per_page=100&search=page/from', key)).body;
      expect(shown?.data.map((report) => report.id).sort()).toEqual([...ids].sort());
    }
  }, 60_000);

  it('never lists half a project while the other process deletes it', async () => {
    const [a, b] = children.slice(-2) as [ApiChild, ApiChild];
    const project = 'gone.example';
    const storage = await processes.storage();
    for (let i = 0; i < 40; i++) {
      await storage.createReport({ url: `https://${project}/${i}`, project, privacy: 0, passwordHash: null, score: 90, result: 'good', results: {}, now: new Date() });
    }
    const { key } = await createKey(storage, { label: 'lists while deleting' });
    const deleting = apiCall(a.api, 'DELETE', `/projects/${project}`);
    let done = false;
    void deleting.finally(() => (done = true));
    const seen: number[] = [];
    while (!done && seen.length < RATE_LIMIT - 2) {
      const shown = (await list(b, `project=${project}&per_page=100`, key)).body;
      expect(shown?.data.length).toBe(shown?.meta.total);
      seen.push(shown?.meta.total ?? -1);
    }
    expect((await deleting).status).toBe(200);
    expect(seen.every((total) => total === 0 || total === 40)).toBe(true);
    expect((await list(b, `project=${project}`, key)).body?.meta.total).toBe(0);
  }, 60_000);

  it('refuses a key revoked, or a member removed, on one process at its very next request on the other', async () => {
    const [a, b] = children.slice(-2) as [ApiChild, ApiChild];
    // A workspace of its own: its requests count against neither the harness's key nor Default.
    const owner = newKey('owner');
    const made = await (await processes.storage()).accounts.createWorkspace('Revocations', { name: 'Owner', key: owner.stored }, new Date());
    if (made === 'taken') throw new Error('workspace taken');
    const call = async (server: ApiChild, method: string, path: string, key: string, form?: Record<string, string>) => {
      const res = await fetch(`${server.api}${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${key}`,
          ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
      return { status: res.status, body: (await res.json()) as { data: { id: number; key: string | { id: number; key: string } } } };
    };
    const member = await call(a, 'POST', '/members', owner.key, { name: 'Bo', role: 'editor' });
    expect(member.status).toBe(201);
    const memberId = member.body.data.id;
    /** Milliseconds from A's answer to the revocation until B's answer to the key's next request. */
    const gaps: number[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await call(a, 'POST', `/members/${memberId}/keys`, owner.key, { label: `key ${i}` });
      const { id, key } = created.body.data as { id: number; key: string };
      expect((await call(b, 'GET', '/me', key)).status).toBe(200);
      expect((await call(a, 'DELETE', `/keys/${id}`, owner.key)).status).toBe(200);
      const revoked = performance.now();
      expect((await call(b, 'GET', '/me', key)).status).toBe(401);
      gaps.push(performance.now() - revoked);
    }
    const { key: first } = member.body.data.key as { key: string };
    expect((await call(b, 'GET', '/me', first)).status).toBe(200);
    expect((await call(a, 'DELETE', `/members/${memberId}`, owner.key)).status).toBe(200);
    const removed = performance.now();
    expect((await call(b, 'GET', '/me', first)).status).toBe(401);
    gaps.push(performance.now() - removed);
    const sorted = [...gaps].sort((x, y) => x - y);
    console.log(
      `Revoked on process A, refused by process B at its very next request: ${gaps.length} of ${gaps.length} ` +
        `(8 keys, 1 member); that request answered in ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms (median), ${sorted.at(-1)!.toFixed(1)} ms at most.`,
    );
  }, 60_000);

  it('counts the rate limit across both processes', async () => {
    const [a, b] = children.slice(-2) as [ApiChild, ApiChild];
    const { key } = await createKey(await processes.storage(), { label: 'rate limit' });
    const remaining: string[] = [];
    for (let i = 0; i < RATE_LIMIT; i++) {
      const res = await list(i % 2 ? a : b, 'per_page=10', key);
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('X-RateLimit-Remaining') ?? '');
    }
    expect(remaining).toEqual(Array.from({ length: RATE_LIMIT }, (_, i) => String(RATE_LIMIT - 1 - i)));
    for (const server of [a, b]) {
      const res = await list(server, 'per_page=10', key);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    }
  }, 60_000);
});
