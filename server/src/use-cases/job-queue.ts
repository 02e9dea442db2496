import { randomUUID } from 'node:crypto';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { PgPool } from '../storage/database';
import { BUSY_RETRY_AFTER_S } from '../analysis/limit';
import type { ReportWork, RunReportWork, WorkOutcome } from './report-work';

const QUEUE = 'report-analysis';
// A job sent: idle workers of every process look for it at once instead of at their next poll.
const SENT_CHANNEL = 'report_analysis_sent';
// A job done, with its outcome: the process whose request waits for it answers at once.
const DONE_CHANNEL = 'report_analysis_done';
// Idle workers look for jobs this often anyway: jobs given back after a process died, and any
// whose notification was missed.
const POLL_S = 2;
// A waiting request reads its job's state this often, in case the notification was missed.
const CHECK_MS = 1000;
// How soon the listening connection is opened again after it was lost.
const RELISTEN_MS = 1000;

export interface JobQueueOptions {
  /** The PostgreSQL database (DATABASE_URL); pg-boss keeps its tables in `schema` there. */
  url: string;
  /** For the notifications; the storage's pool will do. */
  pool: PgPool;
  /** Does one piece of work; throws only on unexpected errors. */
  work: (work: ReportWork) => Promise<WorkOutcome>;
  /** Workers in this process (ANALYSIS_CONCURRENCY). */
  concurrency: number;
  /** Requests of this process that may wait beyond those; the next is answered busy (ANALYSIS_QUEUE). */
  queue: number;
  /** How long a request waits for its job before it is answered with a timeout (ANALYSIS_WAIT_S). */
  waitS: number;
  /** A job active this long is taken to be lost with its process and done again by another (ANALYSIS_JOB_EXPIRE_S). */
  expireS: number;
  schema?: string;
  logError?: (message: string) => void;
}

export interface JobQueue {
  run: RunReportWork;
  close(): Promise<void>;
}

/**
 * Creates and refreshes as jobs in a pg-boss queue in PostgreSQL, shared by every server process
 * on the database: whichever process has a free worker takes the next job, and the process whose
 * request sent it answers once the job's outcome is notified. A job whose process dies mid-way is
 * expired by pg-boss's maintenance (run by any live process) and retried elsewhere.
 */
export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const logError = options.logError ?? ((message) => console.error(message));
  const boss = new PgBoss({
    connectionString: options.url,
    schema: options.schema ?? 'pgboss',
    max: options.concurrency + 2,
    schedule: false,
    // Expiry is found by maintenance: run it often enough that a lost job waits little past it.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(options.expireS / 2))),
    // Jobs carry a password's hash when one was set: keep them no longer than useful.
    archiveCompletedAfterSeconds: 600,
    deleteAfterSeconds: 3600,
  });
  boss.on('error', (error) => logError(`Job queue: ${error.message}`));
  await boss.start();
  const queueOptions = { retryLimit: 2, retryDelay: 0, expireInSeconds: options.expireS };
  await boss.createQueue(QUEUE, { name: QUEUE, ...queueOptions });
  await boss.updateQueue(QUEUE, { name: QUEUE, ...queueOptions });

  const waiting = new Map<string, (outcome: WorkOutcome) => void>();
  const workerIds: string[] = [];
  let closed = false;

  // One connection of its own that LISTENs; opened again when lost (a request still waiting
  // meanwhile learns its outcome by reading the job's state).
  let listener: pg.Client | null = null;
  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: options.url });
    client.on('notification', ({ channel, payload }) => {
      if (channel === SENT_CHANNEL) {
        for (const id of workerIds) boss.notifyWorker(id);
      } else if (channel === DONE_CHANNEL && payload) {
        const { job, outcome } = JSON.parse(payload) as { job: string; outcome: WorkOutcome };
        waiting.get(job)?.(outcome);
      }
    });
    client.on('error', () => {
      listener = null;
      void client.end().catch(() => {});
      if (!closed) setTimeout(() => void listen().catch(() => {}), RELISTEN_MS).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${SENT_CHANNEL}`);
    await client.query(`LISTEN ${DONE_CHANNEL}`);
    listener = client;
  }
  await listen();

  for (let i = 0; i < options.concurrency; i++) {
    workerIds.push(
      await boss.work<ReportWork>(QUEUE, { batchSize: 1, pollingIntervalSeconds: POLL_S }, async ([job]) => {
        if (!job) return null;
        let outcome: WorkOutcome;
        try {
          outcome = await options.work(job.data);
        } catch (error) {
          logError(`Job ${job.id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          outcome = { ok: false, reason: 'error' };
        }
        await options.pool.query('SELECT pg_notify($1, $2)', [DONE_CHANNEL, JSON.stringify({ job: job.id, outcome })]);
        // Kept as the job's output, for a waiting request that missed the notification.
        return outcome;
      }),
    );
  }

  /** The outcome of a finished job, from its stored state; null while it is not finished. */
  async function storedOutcome(id: string): Promise<WorkOutcome | null> {
    const job = await boss.getJobById<ReportWork>(QUEUE, id, { includeArchive: true });
    if (job?.state === 'completed') return job.output as WorkOutcome;
    if (job?.state === 'failed' || job?.state === 'cancelled') return { ok: false, reason: 'error' };
    return null;
  }

  let inFlight = 0;
  async function run(work: ReportWork): Promise<WorkOutcome> {
    if (inFlight >= options.concurrency + options.queue) return { ok: false, reason: 'busy', retryAfterS: BUSY_RETRY_AFTER_S };
    inFlight++;
    const id = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    let checker: NodeJS.Timeout | undefined;
    try {
      // Waiting before sending: a worker elsewhere may finish the job before send() returns.
      const outcome = new Promise<WorkOutcome>((resolve) => {
        waiting.set(id, resolve);
        timer = setTimeout(() => resolve({ ok: false, reason: 'timeout' }), options.waitS * 1000);
        checker = setInterval(() => {
          storedOutcome(id).then(
            (stored) => stored && resolve(stored),
            () => {},
          );
        }, CHECK_MS);
      });
      await boss.send(QUEUE, work, { id, ...queueOptions });
      await options.pool.query('SELECT pg_notify($1, $2)', [SENT_CHANNEL, '']);
      return await outcome;
    } finally {
      clearTimeout(timer);
      clearInterval(checker);
      waiting.delete(id);
      inFlight--;
    }
  }

  return {
    run,
    close: async () => {
      closed = true;
      // Jobs under way get a little time to finish; those that do not are failed by pg-boss.
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
      await listener?.end().catch(() => {});
    },
  };
}
