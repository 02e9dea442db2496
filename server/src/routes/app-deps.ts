import type { Analyser } from '../analysis/analyse';
import type { RunReportWork } from '../use-cases/report-work';
import type { ServerConfig } from '../config';
import type { Discoverer } from '../use-cases/discover';
import type { ResolveHost } from '../net/resolve';
import type { PasswordAttempts } from '../http/password-attempts';
import type { RateLimiter } from '../http/rate-limit';
import type { Storage } from '../storage/types';
import type { DigestRunner } from '../use-cases/digest-runner';

/** What `createApp` and its routers are given; a module of its own so the routers need not import the app. */
export interface AppDeps {
  storage: Storage;
  config: ServerConfig;
  analyser: Analyser;
  /**
   * POST /discover's fetching: by default with ALLOW_PRIVATE_URLS and no pinned names; the start
   * code passes one built with the analyser's options (the demo names included).
   */
  discover?: Discoverer;
  /** The clock for timestamps and the rate-limit window; tests pin it. */
  now?: () => Date;
  /**
   * How creates and refreshes get their analysis done: by default here and now, with `analyser`;
   * on PostgreSQL, through the job queue shared by every server process (job-queue.ts).
   */
  runReportWork?: RunReportWork;
  /** Counts requests per key or address (RATE_LIMIT); by default in this process's memory. */
  rateLimiter?: RateLimiter;
  /** Counts the requests of all the keys of a workspace together (RATE_LIMIT_WORKSPACE); by default in this process's memory. */
  workspaceRateLimiter?: RateLimiter;
  /** Counts the public pages' password attempts (per address and report, per report); by default in this process's memory. */
  passwordAttempts?: PasswordAttempts;
  /** Runs the projects' schedules (use-cases/schedule-runner.ts); told when a run is queued or a schedule set. Absent: nothing runs them. */
  watchRunner?: { tick(): Promise<void> } | null;
  /** Sends the queued webhook messages (use-cases/webhook-worker.ts); told when a test is queued. Absent: nothing sends them. */
  webhookWorker?: { tick(): Promise<void> } | null;
  /** Makes and sends the digests (use-cases/digest-runner.ts); Send now goes through it. Absent: Send now only makes the digest, for a runner elsewhere. */
  digestRunner?: Pick<DigestRunner, 'tick' | 'sendNow'> | null;
  /** The address guard a webhook URL must pass when added: by default the analyses' rules (ALLOW_PRIVATE_URLS). */
  resolveWebhookHost?: ResolveHost;
  /** Where unexpected errors are reported; never given request headers, so never a key. */
  logError?: (error: unknown, request: { method: string; path: string }) => void;
}
