// A run's first step where its project's schedule follows a sitemap (api-contract.md, following the
// sitemap): read it as discover does, create reports for its new pages of the project (at most
// max_new, through the same work as any create: the job queue on PostgreSQL), mark the project's
// pages that left it gone and those back in it not gone. A sitemap that cannot be read (or only in
// part) fails the step with the reason and marks nothing gone: the run goes on with the known pages.
import { urlKey } from '../../../src/contract/url-key';
import { projectFromUrl } from '../net/host-name';
import type { SitemapStep } from '../storage/run-log-storage';
import { toTimestamp } from '../storage/text';
import type { Storage } from '../storage/types';
import type { Discoverer } from './discover';
import type { RunReportWork } from './report-work';

export interface FollowSitemapDeps {
  /** The storage of the step's workspace. */
  storage: Storage;
  discover: Discoverer;
  runWork: RunReportWork;
  now: () => Date;
  /** Waits (a busy analysis queue asks for it); resolves early when the runner closes. */
  pause: (ms: number) => Promise<void>;
  closed: () => boolean;
}

/** How often a create refused as busy is tried again before the page waits for the next run. */
const BUSY_TRIES = 20;

export async function followSitemap(step: SitemapStep, deps: FollowSitemapDeps): Promise<void> {
  const { storage, discover, runWork, now } = deps;
  const found = await discover(step.sitemap);
  if (!found.ok) {
    await storage.runLog.finishSitemapStep(step.runId, { newPages: 0, gonePages: 0, error: `The sitemap could not be read: ${found.message}` });
    return;
  }
  const unread = found.data.sources.filter((source) => source.error !== null);
  const whole = !found.data.truncated && unread.length === 0;

  // The sitemap's pages of this project, each once, in its order.
  const listed = new Map<string, string>();
  for (const url of found.data.urls) {
    const key = urlKey(url);
    if (key !== null && !listed.has(key) && projectFromUrl(url) === step.project) listed.set(key, url);
  }
  const pages = await storage.runLog.projectPages(step.project);
  const known = new Set(pages.map((page) => page.urlKey));

  // Gone only from a sitemap read whole: a part of it is no proof that a page left it.
  let gone = 0;
  if (whole) {
    const left = pages.filter((page) => page.goneSince === null && !listed.has(page.urlKey)).map((page) => page.id);
    gone = await storage.runLog.setGone(left, toTimestamp(now()));
  }
  // Back in the sitemap: analysed with the run again (a gone page is left out of runs).
  await storage.runLog.setGone(
    pages.filter((page) => page.goneSince !== null && listed.has(page.urlKey)).map((page) => page.id),
    null,
  );

  let added = 0;
  const fresh = [...listed.entries()].filter(([key]) => !known.has(key)).map(([, url]) => url);
  for (const url of fresh.slice(0, step.maxNew)) {
    for (let tries = 0; tries < BUSY_TRIES && !deps.closed(); tries++) {
      const outcome = await runWork({ kind: 'create', url, privacy: 0, passwordHash: null, workspaceId: step.workspaceId });
      if (outcome.ok) added++;
      if (outcome.ok || outcome.reason !== 'busy') break;
      await deps.pause(outcome.retryAfterS * 1000);
    }
    if (deps.closed()) break;
  }

  const error = whole
    ? null
    : found.data.urls.length === 0
      ? `The sitemap could not be read (${unread[0]!.url}: ${unread[0]!.error}).`
      : found.data.truncated
      ? 'The sitemap was read only in part (it lists more than a run reads); no page was marked gone.'
      : `Part of the sitemap could not be read (${unread[0]!.url}: ${unread[0]!.error}); no page was marked gone.`;
  await storage.runLog.finishSitemapStep(step.runId, { newPages: added, gonePages: gone, error });
}
