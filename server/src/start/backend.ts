import type { Hono } from 'hono';
import { API_PREFIX } from '../../../src/contract/values';
import { createAnalyser } from '../analysis/analyse';
import { startJobQueue } from '../use-cases/job-queue';
import { limitAnalyses } from '../analysis/limit';
import { doReportWork } from '../use-cases/report-work';
import { createPageCheckPool } from '../analysis/worker-pool';
import { ensureInitialKey } from '../auth/keys';
import { createResolver } from '../net/resolve';
import { startScheduleRunner } from '../use-cases/schedule-runner';
import { startWebhookWorker } from '../use-cases/webhook-worker';
import { startDigestRunner } from '../use-cases/digest-runner';
import { startAuditPruner } from '../use-cases/audit-pruner';
import { createMailer } from '../net/mailer';
import { createApp } from '../app';
import { createDiscoverer } from '../use-cases/discover';
import type { AppDeps } from '../routes/app-deps';
import type { ServerConfig } from '../config';
import { DEMO_HOSTS, startFixtureServer, type FixtureServer } from '../demo/fixture-server';
import { seedDemo } from '../demo/seed';
import { PASSWORD_ATTEMPTS, PASSWORD_REPORT_ATTEMPTS, PASSWORD_WINDOW_S, passwordAttempts } from '../http/password-attempts';
import { createPgRateLimiter } from '../http/pg-rate-limit';
import { normaliseUpstreamUrl } from '../proxy';
import { openStorage } from '../storage/open-storage';
import { signInMessage } from './key-banner';
import { consoleLogger } from './logger';
import type { Logger } from './logger';

export interface Backend {
  /** The API app; null in proxy mode, where the web app forwards to `config.upstreamUrl`. */
  api: Hono | null;
  /** Prints how to sign in, once the server listens at `origin`. */
  announce(origin: string): void;
  close(): Promise<void>;
}

export interface BackendOptions {
  log?: Logger;
  /** Test aid (a test launcher's option, never configuration): the demo pages' variants switchable over HTTP. */
  demoVariantHook?: boolean;
}

/**
 * Opens the database, starts the demo pages when asked, and builds the API app; in proxy mode
 * none of that: the deployment behind UPSTREAM_URL has its own.
 */
export async function createBackend(config: ServerConfig, options: BackendOptions = {}): Promise<Backend> {
  const log = options.log ?? consoleLogger;

  if (config.upstreamUrl) {
    const upstream = normaliseUpstreamUrl(config.upstreamUrl);
    return {
      api: null,
      announce: (origin) => {
        log.info(`Proxy mode: ${origin}${API_PREFIX} forwards to ${upstream}${API_PREFIX}; no local database.`);
        log.info(`Sign in with your deployment's API key at ${origin}/settings`);
      },
      close: async () => {},
    };
  }

  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((error: unknown) => log.error(`Shutdown: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  try {
    const opened = await openStorage(config);
    const { storage } = opened;
    closers.push(() => storage.close());

    let hostMap: Record<string, string> | undefined;
    let demoUrls: string[] = [];
    let setVariant: FixtureServer['setVariant'] | undefined;
    if (config.demo) {
      const port = config.demoPort;
      try {
        const fixtures = await startFixtureServer({ port, variantHook: options.demoVariantHook ?? false });
        closers.push(() => fixtures.close());
        hostMap = fixtures.hostMap;
        demoUrls = fixtures.urls;
        setVariant = fixtures.setVariant;
        log.info(`Demo pages: ${Object.keys(DEMO_HOSTS).join(', ')} on 127.0.0.1:${fixtures.port}`);
      } catch (error) {
        // Everything else works without the demo pages; say what is missing and how to fix it.
        const code = (error as NodeJS.ErrnoException).code;
        log.error(
          code === 'EADDRINUSE'
            ? `Demo pages not served: port ${port} is in use. Set DEMO_PORT to a free port, or DEMO=false.`
            : `Demo pages not served: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }

    // Fetching stays on this thread, behind the address guard (the demo names, on the demo port only
    // and while it serves, are trusted; nothing else is); parsing and checking a page, the CPU- and memory-heavy part, runs
    // on ANALYSIS_CONCURRENCY worker threads.
    const pool = createPageCheckPool(config.analysisConcurrency, { logError: log.error });
    closers.push(() => pool.close());
    // Discover fetches sitemaps by the very same rules (use-cases/discover.ts).
    const guard = { allowPrivate: config.allowPrivateUrls, ...(hostMap ? { hostMap } : {}) };
    const unlimited = createAnalyser({
      ...guard,
      checkPage: pool.checkPage,
      deadlineMs: config.analysisDeadlineS * 1000,
    });
    const analyser = limitAnalyses(unlimited, { concurrency: config.analysisConcurrency, queue: config.analysisQueue });

    // On PostgreSQL, several server processes may share the database: analyses become jobs that
    // any of them takes (its ANALYSIS_CONCURRENCY workers being the limit), and the rate limit is
    // counted in the database. On SQLite both stay in this process.
    let shared: Pick<AppDeps, 'runReportWork' | 'rateLimiter' | 'workspaceRateLimiter' | 'passwordAttempts'> = {};
    if (opened.engine === 'postgres' && config.databaseUrl) {
      const jobs = await startJobQueue({
        url: config.databaseUrl,
        pool: opened.storage.pool,
        work: (work) => doReportWork(work, { analyser: unlimited, storage, now: () => new Date() }),
        concurrency: config.analysisConcurrency,
        queue: config.analysisQueue,
        waitS: config.analysisWaitS,
        expireS: config.analysisJobExpireS,
        logError: log.error,
      });
      closers.push(() => jobs.close());
      shared = {
        runReportWork: jobs.run,
        rateLimiter: createPgRateLimiter(opened.storage.pool, config.rateLimit, config.rateLimitWindowS),
        workspaceRateLimiter: createPgRateLimiter(opened.storage.pool, config.rateLimitWorkspace, config.rateLimitWindowS, Date.now, 'api-workspace:'),
        passwordAttempts: passwordAttempts(
          createPgRateLimiter(opened.storage.pool, PASSWORD_ATTEMPTS, PASSWORD_WINDOW_S, Date.now, 'password-address:'),
          createPgRateLimiter(opened.storage.pool, PASSWORD_REPORT_ATTEMPTS, PASSWORD_WINDOW_S, Date.now, 'password-report:'),
        ),
      };
    }

    if (demoUrls.length > 0 && (await storage.countReports()) === 0) {
      const started = Date.now();
      log.info(`Demo data: analysing ${demoUrls.length} demo pages…`);
      const outcome = await seedDemo(storage, analyser, demoUrls, { setVariant });
      const projects = new Set(outcome.created.map((report) => report.project)).size;
      log.info(
        `Demo data: ${outcome.created.length} reports in ${projects} projects, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
      for (const { url, reason } of outcome.failed) log.error(`Demo page ${url} not analysed: ${reason}`);
    }

    const initialKey = await ensureInitialKey(storage, config);
    // The projects' schedules: analyses of a due run go the way a refresh goes (the job queue on
    // PostgreSQL), one at a time per process, so that people's own requests keep the server.
    const discover = createDiscoverer(guard);
    const watchRunner = startScheduleRunner({
      storage,
      discover,
      runWork: shared.runReportWork ?? ((work) => doReportWork(work, { analyser, storage, now: () => new Date() })),
      // No analysis outlasts its job's lease (after which another process takes the job): an item
      // taken twice as long ago was left by a process that died.
      staleMs: config.analysisJobExpireS * 2000,
      logError: log.error,
    });
    closers.push(() => watchRunner.close());
    // Webhook messages leave from here, never from a request: the API only queues them in storage,
    // where every process's worker takes each due attempt once. Receivers follow the analyses'
    // address rules (the demo names are no receivers), checked again at every attempt.
    let origin: string | null = config.publicUrl;
    const resolveWebhookHost = createResolver({ allowPrivate: config.allowPrivateUrls });
    const webhookWorker = startWebhookWorker({
      storage,
      resolve: resolveWebhookHost,
      publicUrl: config.publicUrl,
      pageOrigin: () => origin,
      logError: log.error,
    });
    closers.push(() => webhookWorker.close());
    // Digests are made and sent from here too, each once across processes (digest-runner.ts).
    const digestRunner = startDigestRunner({
      storage,
      mailer: config.smtpUrl && config.mailFrom ? createMailer(config.smtpUrl, config.mailFrom) : null,
      origin: () => origin,
      webhookWorker,
      logError: log.error,
    });
    closers.push(() => digestRunner.close());
    // The audit log keeps AUDIT_DAYS of entries: older ones go at start and every hour.
    const auditPruner = startAuditPruner({ accounts: storage.accounts, days: config.auditDays, logError: log.error });
    closers.push(() => auditPruner.close());
    const api = createApp({ storage, config, analyser, discover, watchRunner, webhookWorker, digestRunner, resolveWebhookHost, ...shared });

    return {
      api,
      announce: (listening) => {
        origin ??= listening;
        log.info(signInMessage(listening, initialKey, config.apiKeys.length > 0));
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
