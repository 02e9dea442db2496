// Runs the projects' schedules: what is due is read from storage at every tick (the schedules and
// their last runs), a due run is claimed by one process and its reports queued in storage, and
// each queued report is analysed once, one at a time per process, through the same work as a
// refresh (on PostgreSQL a job of the queue every process shares). Nothing lives only in memory:
// a restart, or a kill mid-run, resumes with the reports still queued. Every run (scheduled, Run now,
// a deploy's) has its row in the run log, whose counts follow each analysis, and which is done
// once it has no item left. The runner works for every workspace: each due schedule, item, sitemap
// step and settled run names its workspace, and is done with that workspace's storage alone.
import type { RunReportWork } from './report-work';
import type { Storage } from '../storage/types';
import { dueRun } from './schedule-time';
import { followSitemap } from './follow-sitemap';
import { queueRunAlerts } from './alerting';
import type { Discoverer } from './discover';
import { toTimestamp } from '../storage/text';
import type { RunItemOutcome, RunPageDetail } from '../storage/run-log-storage';
import type { ScheduleItem } from '../storage/watch-storage';

export interface ScheduleRunnerOptions {
  /** The root storage: the runner asks it for every workspace's due work, and works in each one's `forWorkspace()`. */
  storage: Storage;
  runWork: RunReportWork;
  now?: () => Date;
  /** How often due schedules are looked for (a due run starts at most this late). */
  tickMs?: number;
  /** An item taken this long ago by a process that has not finished it is taken again. */
  staleMs?: number;
  /** A pause between two analyses of a run, so that people's own requests keep the server. */
  paceMs?: number;
  /** Reads a followed sitemap (a run's first step); without it such a step fails, saying so. */
  discover?: Discoverer;
  logError?: (message: string) => void;
}

export interface ScheduleRunner {
  /** Looks for due runs and works through the queue until it is empty (what the timer does). */
  tick(): Promise<void>;
  close(): Promise<void>;
}

const parse = (time: string | null) => (time === null ? null : new Date(time));

export function startScheduleRunner(options: ScheduleRunnerOptions): ScheduleRunner {
  const { storage, runWork } = options;
  const now = options.now ?? (() => new Date());
  const tickMs = options.tickMs ?? 30_000;
  const staleMs = options.staleMs ?? 15 * 60_000;
  const paceMs = options.paceMs ?? 250;
  const logError = options.logError ?? ((message: string) => console.error(message));
  let closed = false;
  let running: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** Ends every run with nothing left to do, and sends each one's alerts to the batched webhooks. */
  async function settleRuns(): Promise<void> {
    const at = now();
    for (const run of await storage.runLog.settle(at)) await queueRunAlerts(storage.forWorkspace(run.workspaceId), run, at);
  }

  async function claimDueRuns(): Promise<void> {
    for (const schedule of await storage.watch.activeSchedulesOfEveryWorkspace()) {
      const workspace = storage.forWorkspace(schedule.workspaceId);
      const setAt = parse(schedule.setAt);
      if (!setAt) continue;
      const due = dueRun(schedule, parse(schedule.lastRunAt), setAt, now());
      if (!due) continue;
      // Queued before it is claimed: a process that dies in between leaves the run due, and the
      // queueing again adds nothing (the same run is answered).
      await workspace.runLog.startRun({ project: schedule.project, kind: 'scheduled', runAt: due, now: now() });
      await workspace.watch.claimRun(schedule.project, schedule.lastRunAt, due);
    }
  }

  /** The first step of each run whose project follows a sitemap, before any of its analyses. */
  async function followSitemaps(): Promise<void> {
    for (let step = await storage.runLog.claimSitemapStep(); step && !closed; step = await storage.runLog.claimSitemapStep()) {
      const workspace = storage.forWorkspace(step.workspaceId);
      if (!options.discover) {
        await workspace.runLog.finishSitemapStep(step.runId, { newPages: 0, gonePages: 0, error: 'This server process does not read sitemaps.' });
        continue;
      }
      try {
        await followSitemap(step, { storage: workspace, discover: options.discover, runWork, now, pause, closed: () => closed });
      } catch (error) {
        logError(`Sitemap of ${step.project}: ${error instanceof Error ? error.message : String(error)}`);
        await workspace.runLog.finishSitemapStep(step.runId, { newPages: 0, gonePages: 0, error: 'The sitemap could not be followed (a server error).' });
      }
    }
  }

  async function workThroughQueue(): Promise<void> {
    while (!closed) {
      // A run started meanwhile reads its sitemap before any analysis.
      await followSitemaps();
      const at = now();
      const item = await storage.watch.takeItem(at, new Date(at.getTime() - staleMs));
      if (!item) return;
      const workspace = storage.forWorkspace(item.workspaceId);
      const report = await workspace.getReport(item.reportId);
      // Analysed since the run was due (by an earlier taker that died before finishing the item,
      // or by a person's refresh), or its page is gone: not again, and counted as done.
      if (!report || report.generatedAt >= item.runAt || report.goneSince !== null) {
        await finish(item, null, { reportId: item.reportId, scoreBefore: null, scoreAfter: null, message: null });
        continue;
      }
      const run = await workspace.runLog.runAt(item.project, item.runAt);
      const outcome = await runWork({
        kind: 'refresh',
        id: item.reportId,
        scheduled: true,
        workspaceId: item.workspaceId,
        ...(run ? { runId: run } : {}),
      });
      if (!outcome.ok && outcome.reason === 'busy') {
        await workspace.watch.releaseItem(item.id);
        await pause(outcome.retryAfterS * 1000);
        continue;
      }
      // Still running elsewhere (a job past the wait): left taken, and found analysed when stale.
      if (!outcome.ok && outcome.reason === 'timeout') continue;
      if (!outcome.ok && outcome.reason === 'error') logError(`Scheduled analysis of report ${item.reportId} failed.`);
      const detail: RunPageDetail = { reportId: item.reportId, scoreBefore: report.score, scoreAfter: null, message: null };
      let counted: RunItemOutcome | null = null;
      if (outcome.ok) {
        const after = await workspace.getReport(item.reportId);
        if (after) {
          detail.scoreAfter = after.score;
          counted = after.score < report.score ? 'worse' : after.score > report.score ? 'improved' : 'unchanged';
        }
      } else if (outcome.reason !== 'gone') {
        counted = 'failed';
        detail.message = outcome.reason === 'page' ? outcome.message : 'The analysis failed unexpectedly.';
        // A page that answers 404 or 410 is gone: left out of the next runs until it is back.
        if (outcome.reason === 'page' && (outcome.status === 404 || outcome.status === 410)) {
          if ((await workspace.runLog.setGone([item.reportId], toTimestamp(now()))) > 0)
            await workspace.runLog.countGonePage(item.project, item.runAt);
        }
      }
      await finish(item, counted, detail);
      if (paceMs > 0) await pause(paceMs);
    }
  }

  /** The item is done: counted in its run's summary, gone, and the run done if it was its last. */
  async function finish(item: ScheduleItem, outcome: RunItemOutcome | null, detail: RunPageDetail): Promise<void> {
    const workspace = storage.forWorkspace(item.workspaceId);
    await workspace.runLog.countItem(item.project, item.runAt, outcome, detail);
    await workspace.watch.finishItem(item.id);
    await settleRuns();
  }

  function tick(): Promise<void> {
    running ??= (async () => {
      try {
        await claimDueRuns();
        await followSitemaps();
        // Runs whose reports were all deleted meanwhile have nothing left to do.
        await settleRuns();
        await workThroughQueue();
      } catch (error) {
        logError(`Schedules: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  const timer = setInterval(() => void tick(), tickMs);
  timer.unref();
  void tick();

  return {
    tick,
    close: async () => {
      closed = true;
      clearInterval(timer);
      wake?.();
      await running;
    },
  };
}
