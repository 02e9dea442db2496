// A project's scheduled run across two real server processes on one PostgreSQL database, one of
// them killed (SIGKILL) in the middle of the run: the other finishes the run, and every report is
// analysed exactly once for it (issue 30: "each report analysed once per due run across
// processes"). Skipped without a PostgreSQL server for the tests (and failed in CI).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictReportEnvelope, strictScheduleRunEnvelope } from '../../src/contract/strict-schemas';
import { testPostgresUrl } from '../../test/server/postgres';
import { until, useServerProcesses } from '../../test/server/server-processes';
import { apiCall, startHttpServer, type PageServer } from '../../tools/bench/harness';

const baseUrl = await testPostgresUrl();
const REPORTS = 8;

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page - Example</title>' +
  '<meta name="description" content="A small page that stays the same."></head><body><h1>A page</h1><p>Some words.</p></body></html>';

describe.skipIf(!baseUrl)('a scheduled run across two server processes on one PostgreSQL database', () => {
  let pages: PageServer;
  // The next request for this path is held open (and `arrived` called) until its asker dies.
  let hold: { path: string; arrived: () => void } | null = null;
  const fetched = new Map<string, number>();
  const processes = useServerProcesses(baseUrl, 'watch-processes', {
    ANALYSIS_CONCURRENCY: '2',
    // A job left active this long by a dead process goes to the other, and its schedule item
    // twice as long (the runner's stale time follows the lease).
    ANALYSIS_DEADLINE_S: '5',
    ANALYSIS_JOB_EXPIRE_S: '10',
  });
  const { start } = processes;

  beforeAll(async () => {
    pages = await startHttpServer((req, res) => {
      const path = req.url ?? '/';
      fetched.set(path, (fetched.get(path) ?? 0) + 1);
      if (hold?.path === path) {
        const { arrived } = hold;
        hold = null;
        arrived();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    });
  }, 30_000);
  afterAll(async () => {
    await pages?.close();
  }, 30_000);

  it('finishes a run whose process was killed mid-run on the other process, each report analysed once', async () => {
    const a = await start();
    const ids: number[] = [];
    for (let i = 1; i <= REPORTS; i++) {
      const res = await apiCall(a.api, 'POST', '/reports', { url: `${pages.origin}/page/${i}` });
      ids.push(strictReportEnvelope(201).parse(res.body).data.id);
    }
    const project = '127.0.0.1';
    // Only a is up when the run starts, so a takes its first items; the third is held until a dies.
    const held = new Promise<void>((arrived) => (hold = { path: '/page/3', arrived }));
    const run = await apiCall(a.api, 'POST', `/projects/${project}/schedule/run`);
    expect(run.status).toBe(202);
    const started = strictScheduleRunEnvelope.parse(run.body).data;
    expect([started.kind, started.state, started.total]).toEqual(['run_now', 'running', REPORTS]);
    await held;
    const b = await start();
    await a.stop('SIGKILL');

    const storage = await processes.storage();
    // b takes what is left at once, the held report's job when its lease ends, and the dead
    // process's item when it is stale (at b's next look, within 30 s).
    await until('the run to be worked through', async () => ((await storage.watch.pendingItems()).size === 0 ? true : undefined), 90);
    // The run log counted each report once, whichever process analysed it, and the run is done.
    await until('the run to be done', async () => ((await storage.runLog.getRun(project, started.id))?.state === 'done' ? true : undefined), 30);
    expect(await storage.runLog.getRun(project, started.id)).toMatchObject({ analysed: REPORTS, failed: 0 });
    for (const id of ids) {
      const runs = await storage.listRuns(id, { limit: 10, offset: 0 });
      expect({ id, runs: runs?.total }).toEqual({ id, runs: 2 });
    }
    // The held page was asked for by a (held) and then by b; every other page once for the run.
    for (let i = 1; i <= REPORTS; i++) expect({ i, fetched: fetched.get(`/page/${i}`) }).toEqual({ i, fetched: i === 3 ? 3 : 2 });
    expect(await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).toMatchObject({ total: 0 });
    // The run is over for the survivor too: its schedule answers with the run done.
    const schedule = await apiCall(b.api, 'GET', `/projects/${project}/schedule`);
    expect(schedule.status).toBe(200);
  }, 150_000);
});
