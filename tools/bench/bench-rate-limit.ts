// Two members of one workspace on a real server process (the start code, SQLite on a temporary
// DATA_DIR, or PostgreSQL with DATABASE_URL): B lists reports at a steady pace, first alone, then
// while A, a client in a process of its own, hammers from several connections far past its
// RATE_LIMIT (answered 429 once its limit is reached). On 2 cores, any hammer beside B slows B
// somewhat, so B is also measured beside the same hammer aimed at a process that only answers 429:
// the control. Fails when B got a 429, or when its p50 or p95 with A at its limit is more than 10% +
// 1 ms above the control's, i.e. when the server's handling of A's refusals costs B anything.
//   npm run bench:rate-limit   (BENCH_B_REQUESTS, BENCH_A_CONNECTIONS, BENCH_PORT)
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { newKey } from '../../server/src/auth/keys';
import { loadConfig } from '../../server/src/config';
import { openStorage } from '../../server/src/storage/open-storage';
import { positive } from './env';
import { startApiChild } from './harness';
import { percentile } from './process-stats';

// B's own requests, warm-up and all three runs, stay within its RATE_LIMIT.
const B_REQUESTS = positive('BENCH_B_REQUESTS', 250);
const A_CONNECTIONS = positive('BENCH_A_CONNECTIONS', 8);
const RATE_LIMIT = 1000;
const REPORTS = 200;
const B_PACE_MS = 20;
const HAMMER = fileURLToPath(new URL('./rate-limit-hammer.ts', import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), 'bench-rate-limit-'));
const databaseUrl = process.env.DATABASE_URL ?? '';
const env = { DATA_DIR: dataDir, DB_FILE: '', DEMO: 'false', DATABASE_URL: databaseUrl };

// The two members and some reports, written beside the server before it starts.
const { storage } = await openStorage(loadConfig(env));
const keys: Record<'a' | 'b', string> = { a: '', b: '' };
for (const name of ['a', 'b'] as const) {
  const { key, stored } = newKey(name);
  await storage.accounts.addMember(1, { name: name.toUpperCase(), role: 'editor', key: stored }, new Date());
  keys[name] = key;
}
for (let i = 0; i < REPORTS; i++) {
  await storage.createReport({
    url: `https://bench.example/${i}`,
    project: 'bench.example',
    privacy: 0,
    passwordHash: null,
    score: i % 100,
    result: i % 100 >= 80 ? 'good' : i % 100 >= 50 ? 'decent' : 'bad',
    results: {},
    now: new Date(),
  });
}
await storage.close();

const child = await startApiChild(dataDir, {
  ...env,
  PORT: process.env.BENCH_PORT ?? '0',
  RATE_LIMIT: String(RATE_LIMIT),
  RATE_LIMIT_WINDOW_S: '3600',
});

async function get(key: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${child.api}/reports?per_page=25&sort_by=score`, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${key}` },
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

interface Counts {
  ok: number;
  limited: number;
  other: number;
}

/**
 * B's paced requests while A, in its own process as another client would be (in this one, its loops
 * would delay B's answers here), sends `url` with `key` back to back from A_CONNECTIONS
 * connections; B starts once A got its first 429.
 */
async function whileHammered(url: string, key: string): Promise<{ b: Awaited<ReturnType<typeof paced>>; counts: Counts; seconds: number }> {
  const a = fork(HAMMER, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, URL: url, KEY: key, CONNECTIONS: String(A_CONNECTIONS) } });
  const message = (type: string) =>
    new Promise<{ counts?: Counts }>((resolve, reject) => {
      a.on('message', (received: { type: string; counts?: Counts }) => received.type === type && resolve(received));
      a.once('exit', () => reject(new Error(`A exited before "${type}"`)));
    });
  await message('limited');
  const started = performance.now();
  const b = await paced();
  const seconds = (performance.now() - started) / 1000;
  const ended = message('counts');
  a.send({ type: 'stop' });
  return { b, counts: (await ended).counts ?? { ok: 0, limited: 0, other: 0 }, seconds };
}

/** A process that answers every request 429 with a small JSON body, as the server refuses A. */
async function startRefuser(): Promise<{ url: string; stop: () => void }> {
  const code = `const s = require('node:http').createServer((q, r) => { q.resume(); r.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '60' }); r.end('{"error":"rate_limited"}'); });
s.listen(0, '127.0.0.1', () => console.log('LISTENING ' + s.address().port));`;
  const refuser = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => {
    let out = '';
    refuser.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /LISTENING (\d+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => refuser.kill() };
}

/** B's requests, one every B_PACE_MS: their times and statuses. */
async function paced(): Promise<{ ms: number[]; refused: number }> {
  const ms: number[] = [];
  let refused = 0;
  for (let i = 0; i < B_REQUESTS; i++) {
    const answer = await get(keys.b);
    if (answer.status !== 200) refused += 1;
    ms.push(answer.ms);
    await new Promise((resolve) => setTimeout(resolve, B_PACE_MS));
  }
  return { ms: ms.sort((x, y) => x - y), refused };
}

const summary = (ms: number[]) => `p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms`;

try {
  for (let i = 0; i < 20; i++) await get(keys.b); // warm-up
  const alone = await paced();

  // The same hammer on a process that only answers 429: what B's times are on this machine with that
  // much work beside it, whatever the server does with A's requests.
  const control = await startRefuser();
  const floor = await whileHammered(control.url, 'control');
  control.stop();
  const limitedA = await whileHammered(`${child.api}/reports?per_page=25&sort_by=score`, keys.a);
  const { counts, seconds } = limitedA;
  const contended = limitedA.b;

  const total = counts.ok + counts.limited + counts.other;
  console.log(`${databaseUrl ? 'PostgreSQL' : 'SQLite'}, RATE_LIMIT ${RATE_LIMIT} (workspace ${4 * RATE_LIMIT}), ${REPORTS} reports; B: GET /reports?per_page=25&sort_by=score every ${B_PACE_MS} ms, ${B_REQUESTS} requests`);
  console.log(`  B alone:             ${summary(alone.ms)}, ${alone.refused} refused`);
  console.log(`  B beside the same hammer on a process that only refuses: ${summary(floor.b.ms)} (${(floor.counts.limited / floor.seconds).toFixed(0)} refusals a second)`);
  console.log(`  B while A is limited: ${summary(contended.ms)}, ${contended.refused} refused`);
  console.log(`  A: ${A_CONNECTIONS} connections back to back, ${total} requests (${counts.ok} answered 200 up to its limit, ${counts.limited} 429, ${counts.other} other), ${(counts.limited / seconds).toFixed(0)} refusals a second while B was measured`);
  // What the server does with A's refusals must cost B nothing beyond what any process answering A
  // would cost on this machine (the control): its p50 and p95 at most 10% + 1 ms above the control's.
  const within = (p: number) => percentile(contended.ms, p) <= 1.1 * percentile(floor.b.ms, p) + 1;
  const ok = contended.refused === 0 && alone.refused === 0 && counts.other === 0 && within(50) && within(95);
  console.log(ok ? 'OK' : "NOT MET: B was refused, or A's refusals cost B more than the control's");
  process.exitCode = ok ? 0 : 1;
} finally {
  await child.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
