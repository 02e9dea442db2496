// `npm run test:fault`: writes under way through the real HTTP server, the server killed with
// SIGKILL mid-way, restarted on the same data: the database must pass `PRAGMA integrity_check`,
// every report's runs must be in step with it (their count on the report, none left of a deleted
// report), and every write the client saw acknowledged (a 2xx) must be there (each report's
// existence, URL and privacy compared; a write in flight at the kill may go either way). The audit
// log must be in step with what was committed (issue 47: a write and its entry are one transaction):
// every report kept has its report.create entry and a report.update entry for each change of its
// privacy, chained from 0 to the privacy it has; every report gone has its report.delete entry; no
// entry names a change that did not commit. Exits 1 on any violation.
//
// Options (environment): FAULT_ROUNDS (3 kills), FAULT_CLIENTS (4 writers), FAULT_SEED (random).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { apiCall, startApiChild, startPageServer } from '../bench/harness';
import type { ApiChild } from '../bench/harness';
import { rng } from '../bench/synthetic-reports';

const ROUNDS = Number(process.env.FAULT_ROUNDS ?? 3);
const CLIENTS = Number(process.env.FAULT_CLIENTS ?? 4);
const SEED = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));

// Seeded operations and kill delays; the writers' interleaving still varies from run to run.
const rand = rng(SEED);

/** What the client knows of one report: its state after the last acknowledged write. */
interface Known {
  url: string;
  exists: boolean;
  privacy: number;
  /** A write sent and not answered when the server died: it may or may not have happened. */
  pending: { exists: boolean; privacy: number } | null;
}
const known = new Map<number, Known>();
/** Creates sent and never answered: such a report may exist, under an id the client never saw. */
const unansweredCreates = new Set<string>();
let acknowledged = 0;
let createCounter = 0;

const page = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fault test page - Example</title>' +
    '<meta name="description" content="A small page."></head><body><h1>Fault test</h1><p>Some words.</p></body></html>',
);

/** One writer: creates, updates and deletes its own reports, one request at a time, until stopped. */
async function writer(server: ApiChild, pagesOrigin: string, client: number, running: () => boolean) {
  const mine: number[] = [...known.entries()]
    .filter(([, k]) => k.exists && k.url.includes(`client=${client}&`))
    .map(([id]) => id);
  while (running()) {
    const roll = rand();
    try {
      if (mine.length < 3 || roll < 0.5) {
        const url = `${pagesOrigin}/page?client=${client}&n=${createCounter++}`;
        unansweredCreates.add(url);
        const res = await apiCall(server.api, 'POST', '/reports', { url }, 10_000);
        if (res.status === 201) {
          const id = (res.body as { data: { id: number } }).data.id;
          known.set(id, { url, exists: true, privacy: 0, pending: null });
          mine.push(id);
          acknowledged++;
        } else throw new Error(`create answered ${res.status}`);
        unansweredCreates.delete(url);
      } else {
        const at = Math.floor(rand() * mine.length);
        const id = mine[at] as number;
        const report = known.get(id) as Known;
        if (roll < 0.8) {
          const privacy = report.privacy === 0 ? 1 : 0;
          const form: Record<string, string> = { privacy: String(privacy) };
          if (rand() < 0.3) form.results = '1';
          report.pending = { exists: true, privacy };
          const res = await apiCall(server.api, 'PATCH', `/reports/${id}`, form, 10_000);
          if (res.status !== 200) throw new Error(`update answered ${res.status}`);
          report.privacy = privacy;
        } else {
          report.pending = { exists: false, privacy: report.privacy };
          const res = await apiCall(server.api, 'DELETE', `/reports/${id}`, undefined, 10_000);
          if (res.status !== 200) throw new Error(`delete answered ${res.status}`);
          report.exists = false;
          mine.splice(at, 1);
        }
        report.pending = null;
        acknowledged++;
      }
    } catch (error) {
      // The server was killed under this request: what it was doing stays pending.
      if (running()) throw error;
      return;
    }
  }
}

async function allReports(server: ApiChild): Promise<Map<number, { url: string; privacy: number }>> {
  const found = new Map<number, { url: string; privacy: number }>();
  for (let page = 1; ; page++) {
    const res = await apiCall(server.api, 'GET', `/reports?per_page=100&page=${page}`);
    const body = res.body as {
      data: { id: number; url: string; privacy: number }[];
      meta: { last_page: number };
    };
    for (const r of body.data) found.set(r.id, { url: r.url, privacy: r.privacy });
    if (page >= body.meta.last_page) return found;
  }
}

/** Compares what the restarted server holds with what the client was told; returns the violations. */
function verify(stored: Map<number, { url: string; privacy: number }>): string[] {
  const problems: string[] = [];
  for (const [id, k] of known) {
    const row = stored.get(id);
    const allowed = [{ exists: k.exists, privacy: k.privacy }, ...(k.pending ? [k.pending] : [])];
    const ok = allowed.some((state) =>
      state.exists ? row?.privacy === state.privacy && row.url === k.url : !row,
    );
    if (!ok) {
      problems.push(
        `report ${id}: expected ${JSON.stringify(allowed)}, found ${row ? JSON.stringify(row) : 'nothing'}`,
      );
    }
  }
  for (const [id, row] of stored) {
    if (known.has(id)) continue;
    // A report the client never heard of is fine only if it came from an unanswered create.
    if (unansweredCreates.has(row.url)) {
      known.set(id, { url: row.url, exists: true, privacy: row.privacy, pending: null });
      unansweredCreates.delete(row.url);
    } else problems.push(`report ${id} (${row.url}) was never created by the client`);
  }
  // Pending writes are settled now, one way or the other (and any problem is reported): go on
  // from what the server kept.
  for (const [id, k] of known) {
    const row = stored.get(id);
    k.exists = Boolean(row);
    k.privacy = row?.privacy ?? k.privacy;
    k.pending = null;
  }
  unansweredCreates.clear();
  return problems;
}

function integrity(dbFile: string): string {
  const db = new Database(dbFile);
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    const found = rows.map((r) => r.integrity_check);
    const count = (sql: string) => db.prepare<[], number>(sql).pluck().get() ?? 0;
    const outOfStep = count('SELECT count(*) FROM reports r WHERE r.runs <> (SELECT count(*) FROM report_runs WHERE report_id = r.id)');
    const orphans = count('SELECT count(*) FROM report_runs WHERE report_id NOT IN (SELECT id FROM reports)');
    if (outOfStep > 0) found.push(`${outOfStep} reports whose runs count is out of step`);
    if (orphans > 0) found.push(`${orphans} runs of deleted reports`);
    return found.join('; ');
  } finally {
    db.close();
  }
}

/**
 * The audit log against the reports as they are, read from the database while no server runs:
 * the writers write as the harness key, an owner, so each of their writes has its entry.
 */
function auditProblems(dbFile: string): { entries: number; problems: string[] } {
  const db = new Database(dbFile, { readonly: true });
  try {
    const reports = new Map(
      (db.prepare('SELECT id, privacy FROM reports').all() as { id: number; privacy: number }[]).map((r) => [String(r.id), r.privacy]),
    );
    const entries = db
      .prepare("SELECT action, outcome, target_id, changes FROM audit WHERE target_type = 'report' ORDER BY id")
      .all() as { action: string; outcome: string; target_id: string; changes: string | null }[];
    const byReport = new Map<string, typeof entries>();
    for (const entry of entries) byReport.set(entry.target_id, [...(byReport.get(entry.target_id) ?? []), entry]);
    const problems: string[] = [];
    for (const entry of entries) if (entry.outcome !== 'done') problems.push(`report ${entry.target_id}: an entry ${entry.outcome} (${entry.action})`);
    for (const id of new Set([...reports.keys(), ...byReport.keys()])) {
      const own = byReport.get(id) ?? [];
      const count = (action: string) => own.filter((entry) => entry.action === action).length;
      const privacy = reports.get(id);
      if (count('report.create') !== 1) problems.push(`report ${id}: ${count('report.create')} report.create entries`);
      if (privacy === undefined) {
        if (count('report.delete') !== 1) problems.push(`report ${id} is gone with ${count('report.delete')} report.delete entries`);
        continue;
      }
      if (count('report.delete') > 0) problems.push(`report ${id} is there, yet has a report.delete entry`);
      // The privacy each update entry says it changed, chained from the create's 0 to the report's.
      let now = 0;
      for (const entry of own.filter((e) => e.action === 'report.update')) {
        const change = (JSON.parse(entry.changes ?? '{}') as { privacy?: [number, number] }).privacy;
        if (!change) continue;
        if (change[0] !== now) problems.push(`report ${id}: an entry changes privacy from ${change[0]}, but it was ${now}`);
        now = change[1];
      }
      if (now !== privacy) problems.push(`report ${id}: its entries bring privacy to ${now}, it is ${privacy}`);
    }
    return { entries: entries.length, problems };
  } finally {
    db.close();
  }
}

const started = performance.now();
const dataDir = mkdtempSync(join(tmpdir(), 'fault-test-'));
const dbFile = join(dataDir, 'reports.db');
const pages = await startPageServer(page);
let failures = 0;
let child: ApiChild | null = null;
console.log(`fault test: ${ROUNDS} rounds, ${CLIENTS} writers, FAULT_SEED=${SEED}`);
try {
  let server = await startApiChild(dataDir);
  child = server;
  for (let round = 1; round <= ROUNDS; round++) {
    let running = true;
    const before = acknowledged;
    let writerError: unknown = null;
    const writers = Array.from({ length: CLIENTS }, (_, client) =>
      writer(server, pages.origin, client, () => running).catch((error: unknown) => {
        writerError ??= error;
      }),
    );
    // Kill once some writes went through, at a moment the writers do not know of.
    const deadline = Date.now() + 30_000;
    while (acknowledged - before < 20) {
      if (writerError) throw writerError;
      if (Date.now() > deadline) throw new Error('The writers acknowledged under 20 writes in 30 s.');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 200 + rand() * 800));
    running = false;
    await server.stop('SIGKILL');
    if (writerError) throw writerError;
    await Promise.all(writers);
    const pending = [...known.values()].filter((k) => k.pending).length + unansweredCreates.size;

    const check = integrity(dbFile);
    const audit = auditProblems(dbFile);
    server = await startApiChild(dataDir);
    child = server;
    const problems = [...verify(await allReports(server)), ...audit.problems];
    const live = [...known.values()].filter((k) => k.exists).length;
    console.log(
      `round ${round}: ${acknowledged - before} writes acknowledged, killed with ${pending} in flight; ` +
        `integrity_check: ${check}; ${live} reports kept, ${audit.entries} audit entries of reports; ${problems.length} problems`,
    );
    for (const problem of problems) console.log(`  ${problem}`);
    if (check !== 'ok' || problems.length > 0) failures++;
  }
} finally {
  await child?.stop();
  await pages.close();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  `${failures === 0 ? 'passed' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
process.exitCode = failures === 0 ? 0 : 1;
