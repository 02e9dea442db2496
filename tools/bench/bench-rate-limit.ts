// Two members of one workspace on a real server process (the start code, SQLite on a temporary
// DATA_DIR, or PostgreSQL with DATABASE_URL): B lists reports at a steady pace, first alone, then
// while A hammers the API from several connections far past its RATE_LIMIT (its requests answered
// 429 once its limit is reached). Prints B's p50/p95 both ways and A's answers; fails when B got a
// 429 or its p95 with A at the limit is above twice its p95 alone plus 5 ms.
//   npm run bench:rate-limit   (BENCH_B_REQUESTS, BENCH_A_CONNECTIONS, BENCH_PORT)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { newKey } from '../../server/src/auth/keys';
import { loadConfig } from '../../server/src/config';
import { openStorage } from '../../server/src/storage/open-storage';
import { positive } from './env';
import { startApiChild } from './harness';
import { percentile } from './process-stats';

// B's own requests, warm-up and both runs, stay within its RATE_LIMIT.
const B_REQUESTS = positive('BENCH_B_REQUESTS', 250);
const A_CONNECTIONS = positive('BENCH_A_CONNECTIONS', 8);
const RATE_LIMIT = 600;
const REPORTS = 200;
const B_PACE_MS = 20;

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

  const counts = { ok: 0, limited: 0, other: 0 };
  let hammering = true;
  let firstLimited: () => void = () => {};
  const limited = new Promise<void>((resolve) => (firstLimited = resolve));
  const hammer = async () => {
    while (hammering) {
      const { status } = await get(keys.a);
      if (status === 200) counts.ok += 1;
      else if (status === 429) {
        counts.limited += 1;
        firstLimited();
      } else counts.other += 1;
    }
  };
  const hammers = Array.from({ length: A_CONNECTIONS }, hammer);
  await limited;
  const started = performance.now();
  const contended = await paced();
  const seconds = (performance.now() - started) / 1000;
  hammering = false;
  await Promise.all(hammers);

  const total = counts.ok + counts.limited + counts.other;
  console.log(`${databaseUrl ? 'PostgreSQL' : 'SQLite'}, RATE_LIMIT ${RATE_LIMIT} (workspace ${4 * RATE_LIMIT}), ${REPORTS} reports; B: GET /reports?per_page=25&sort_by=score every ${B_PACE_MS} ms, ${B_REQUESTS} requests`);
  console.log(`  B alone:             ${summary(alone.ms)}, ${alone.refused} refused`);
  console.log(`  B while A is limited: ${summary(contended.ms)}, ${contended.refused} refused`);
  console.log(`  A: ${A_CONNECTIONS} connections back to back, ${total} requests (${counts.ok} answered 200 up to its limit, ${counts.limited} 429, ${counts.other} other), ${(counts.limited / seconds).toFixed(0)} refusals a second while B was measured`);
  const ok = contended.refused === 0 && alone.refused === 0 && counts.other === 0 && percentile(contended.ms, 95) <= 2 * percentile(alone.ms, 95) + 5;
  console.log(ok ? 'OK' : 'NOT MET: B was refused, or its p95 more than doubled');
  process.exitCode = ok ? 0 : 1;
} finally {
  await child.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
