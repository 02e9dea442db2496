// Webhooks under a stranger's receivers, on two real server processes sharing one PostgreSQL
// database (issue 44, item 5): the cap on webhooks, the Send test rate, a receiver that never
// answers, and an alert raised by a refresh on one process with 50 webhooks to tell. The refresh
// must answer at once (the fan-out is the workers' work, not the request's: it took 16.1 s with
// 3,000 webhooks), and every webhook must get the alert exactly once between the two processes.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiCall, startApiChild, startHttpServer, type ApiAnswer, type ApiChild } from '../bench/harness';
import { createTestDatabase } from '../../test/server/postgres';

const GOOD_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>A shop page - Example</title><meta name="description" content="A page about the shop, with a description of the right length for results.">' +
  '<link rel="canonical" href="/flip"></head><body><h1>The shop</h1><p>Words enough to read.</p></body></html>';
// The same page after a bad release: no language, title, description, heading or viewport.
const BAD_PAGE = '<!doctype html><html><head></head><body><p>x</p></body></html>';

export const MAX_WEBHOOKS = 50;
const TESTS_PER_MINUTE = 5;
/** The refresh that raises the alert: its analysis, and one outbox row, whatever the webhooks. */
const REFRESH_LIMIT_MS = 3000;
/** Every webhook told: a worker's tick (5 s) and the deliveries, 49 to a receiver that answers at once. */
const FAN_OUT_LIMIT_MS = 20_000;
/** The good receiver's test behind 5 to a receiver that never answers: one attempt's deadline. */
const FAIR_LIMIT_MS = 10_000;

interface Received {
  id: string;
  type: string;
  path: string;
  at: number;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs the case; pushes what missed its bound onto `failures`; one line of figures per step. */
export async function webhooksOnTwoProcesses(baseUrl: string, check: (ok: boolean, what: string) => void): Promise<void> {
  const database = await createTestDatabase(baseUrl);
  const dataDir = mkdtempSync(join(tmpdir(), 'hostile-webhooks-'));
  const children: ApiChild[] = [];
  let bad = false;
  const pages = await startHttpServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(bad ? BAD_PAGE : GOOD_PAGE);
  });
  const held: http.ServerResponse[] = [];
  const hanging = http.createServer((_req, res) => void held.push(res));
  const received: Received[] = [];
  const good = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const type = (JSON.parse(body) as { type?: string }).type ?? '';
      received.push({ id: String(req.headers['webhook-id']), type, path: req.url ?? '', at: performance.now() });
      res.end('ok');
    });
  });
  try {
    const env = { DATABASE_URL: database.url, ANALYSIS_CONCURRENCY: '2' };
    const a = await startApiChild(dataDir, env);
    children.push(a);
    const b = await startApiChild(dataDir, env);
    children.push(b);
    const call = (child: ApiChild, method: string, path: string, form?: Record<string, string>): Promise<ApiAnswer> =>
      apiCall(child.api, method, path, form, 60_000);
    const hangingUrl = `${await listen(hanging)}/hook`;
    const goodOrigin = await listen(good);

    const report = await call(a, 'POST', '/reports', { url: `${pages.origin}/flip` });
    check(report.status === 201, `two processes: the report was not created (${report.status})`);
    const reportId = (report.body as { data?: { id?: number } }).data?.id ?? 0;

    // The cap: 50 webhooks, added through both processes; the 51st refused on url.
    const ids: number[] = [];
    const added = await call(a, 'POST', '/webhooks', { url: hangingUrl });
    const hangingId = (added.body as { data?: { id?: number } }).data?.id ?? 0;
    for (let n = 1; n < MAX_WEBHOOKS; n++) {
      const answer = await call(n % 2 ? b : a, 'POST', '/webhooks', { url: `${goodOrigin}/hook?n=${n}` });
      ids.push((answer.body as { data?: { id?: number } }).data?.id ?? 0);
    }
    const over = await call(b, 'POST', '/webhooks', { url: `${goodOrigin}/hook?n=over` });
    const overMessage = (over.body as { message?: { url?: string[] } }).message?.url?.[0] ?? '';
    const listed = await call(a, 'GET', '/webhooks?per_page=25&page=2');
    const total = (listed.body as { meta?: { total?: number } }).meta?.total;
    console.log(`\nWebhooks on two PostgreSQL processes: ${ids.filter(Boolean).length + (hangingId ? 1 : 0)} added, the next answered ${over.status} "${overMessage}"; the list's page 2 of 25 says total ${total}`);
    check(hangingId > 0 && ids.every((id) => id > 0), 'two processes: not every one of the 50 webhooks was added');
    check(over.status === 422 && /50 webhooks/.test(overMessage), `two processes: the 51st webhook answered ${over.status} "${overMessage}"`);
    check(total === MAX_WEBHOOKS, `two processes: GET /webhooks said total ${total}`);

    // Send test: 5 a minute to the receiver that never answers, the 6th refused; then the good one's.
    const tests = [];
    for (let n = 0; n < TESTS_PER_MINUTE + 1; n++) tests.push((await call(n % 2 ? b : a, 'POST', `/webhooks/${hangingId}/test`)).status);
    const refused = tests.at(-1) === 429 && tests.slice(0, -1).every((status) => status === 202);
    const t0 = performance.now();
    const goodTest = await call(b, 'POST', `/webhooks/${ids[0]}/test`);
    while (!received.some((r) => r.type === 'webhook.test') && performance.now() - t0 < FAIR_LIMIT_MS + 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const testAt = received.find((r) => r.type === 'webhook.test')?.at;
    const waited = testAt === undefined ? Infinity : testAt - t0;
    console.log(
      `Send test to the receiver that never answers: ${tests.join(', ')}; the good receiver's test (${goodTest.status}) arrived after ${Number.isFinite(waited) ? s(waited) : 'more than 30 s'}`,
    );
    check(refused, `two processes: 6 Send tests in a minute answered ${tests.join(',')}, not 5 x 202 then 429`);
    check(waited <= FAIR_LIMIT_MS, `two processes: the good receiver's test waited ${Number.isFinite(waited) ? s(waited) : 'over 30 s'}`);

    // A bad release: a refresh on b raises an alert for the 50 webhooks.
    bad = true;
    const t1 = performance.now();
    const refresh = await call(b, 'PATCH', `/reports/${reportId}`, { results: '1' });
    const refreshMs = performance.now() - t1;
    const alerts = await call(a, 'GET', '/alerts');
    const alertTotal = (alerts.body as { meta?: { total?: number } }).meta?.total;
    const alertsIn = () => received.filter((r) => r.type === 'alert.raised');
    while (alertsIn().length < MAX_WEBHOOKS - 1 && performance.now() - t1 < FAN_OUT_LIMIT_MS + 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const allIn = alertsIn().length >= MAX_WEBHOOKS - 1 ? Math.max(...alertsIn().map((r) => r.at)) - t1 : Infinity;
    // Any duplicate would come from the other process's worker: given a moment to show.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const delivered = alertsIn();
    const messages = new Set(delivered.map((r) => r.id));
    const paths = new Set(delivered.map((r) => r.path));
    console.log(
      `A refresh on one process that raises an alert for 50 webhooks (${alertTotal} alert): answered ${refresh.status} in ${refreshMs.toFixed(0)} ms; ` +
        `${delivered.length} deliveries to the 49 that answer (${messages.size} messages, ${paths.size} webhooks), the last after ${Number.isFinite(allIn) ? s(allIn) : 'more than the limit'}; ` +
        `the one that never answers got ${held.length} request(s)`,
    );
    check(refresh.status === 200 && alertTotal === 1, `two processes: the refresh answered ${refresh.status}, alerts ${alertTotal}`);
    check(refreshMs <= REFRESH_LIMIT_MS, `two processes: the alert-raising refresh took ${refreshMs.toFixed(0)} ms`);
    check(allIn <= FAN_OUT_LIMIT_MS, `two processes: the 49 answering webhooks were not all told within ${s(FAN_OUT_LIMIT_MS)}`);
    check(delivered.length === MAX_WEBHOOKS - 1 && messages.size === delivered.length && paths.size === delivered.length, `two processes: ${delivered.length} deliveries of the alert, ${messages.size} messages, ${paths.size} webhooks (each exactly once expected)`);
  } finally {
    for (const child of children) await child.stop('SIGKILL');
    for (const res of held) res.destroy();
    hanging.closeAllConnections();
    good.closeAllConnections();
    await Promise.all([new Promise((resolve) => hanging.close(resolve)), new Promise((resolve) => good.close(resolve)), pages.close()]);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
