import { PRIVACY } from '../../../src/contract/values';
import type { Privacy } from '../../../src/contract/values';
import { AnalysisError } from '../net/analysis-error';
import type { Analyser } from '../analysis/analyse';
import { hashPassword } from '../auth/passwords';
import { projectFromUrl } from '../net/host-name';
import type { AnalysisFields, ReportRecord, Storage } from '../storage/types';
import { demoVariantOf, type FixtureServer } from './fixture-server';

/** The password of the demo's one password-protected report, so people can try unlocking it. */
export const DEMO_PASSWORD = 'demo';

/**
 * The privacy each demo report gets, by position: mostly public, every fourth from the third
 * on private, and the fifth protected with DEMO_PASSWORD, so the dashboard shows all three.
 */
export function demoPrivacy(index: number, count: number): Privacy {
  const passwordIndex = Math.min(4, count - 1);
  if (index === passwordIndex) return PRIVACY.password;
  if (index % 4 === 2) return PRIVACY.private;
  return PRIVACY.public;
}

/** The demo's reports are dated over this many days up to now, so that a project's health has a history. */
export const DEMO_HISTORY_DAYS = 14;
const DAY_MS = 86_400_000;

/**
 * How many days before now the demo report at `index` (of `count`) was first analysed: the first
 * DEMO_HISTORY_DAYS - 1 days ago, the last today, the others spread between in the list's order (so
 * ids still follow it).
 */
export function demoDaysAgo(index: number, count: number): number {
  return count <= 1 ? 0 : Math.round(((count - 1 - index) * (DEMO_HISTORY_DAYS - 1)) / (count - 1));
}

export interface SeedOutcome {
  created: ReportRecord[];
  /** Pages that could not be analysed, with the reason the API would have given. */
  failed: { url: string; reason: string }[];
}

/** The page's analysis, or the reason it has none (an AnalysisError's message); anything else is thrown. */
async function analyse(analyser: Analyser, url: string): Promise<AnalysisFields | string> {
  try {
    const { score, result, results } = await analyser(url);
    return { score, result, results };
  } catch (error) {
    if (error instanceof AnalysisError) return error.message;
    throw error;
  }
}

/**
 * Analyses every URL for real and stores a report for each, one after another (so load times
 * are not skewed by parallel fetches, and ids follow the list's order). A page that cannot be
 * analysed is skipped and reported back; anything unexpected is thrown.
 *
 * Given `setVariant` (the fixture server's), a page that has a variant (DEMO_VARIANTS) is analysed
 * and stored as its variant first, then analysed as itself and refreshed with that: its report has
 * a history of two real runs, as if the page had been fixed in between.
 *
 * Each report is stored as analysed some days ago (demoDaysAgo), through the storage like any
 * analysis, so that the projects' health (GET /projects/{project}/health) shows reports added over
 * two weeks, and the page with a variant in its variant's band until its fix, analysed now.
 */
export async function seedDemo(
  storage: Storage,
  analyser: Analyser,
  urls: string[],
  options: { now?: () => Date; setVariant?: FixtureServer['setVariant'] } = {},
): Promise<SeedOutcome> {
  const now = options.now ?? (() => new Date());
  const outcome: SeedOutcome = { created: [], failed: [] };
  const { setVariant } = options;
  for (const [index, url] of urls.entries()) {
    const variant = setVariant ? demoVariantOf(url) : undefined;
    const showVariant = (on: boolean) => setVariant && variant && setVariant(variant, on);
    showVariant(true);
    let analysis;
    try {
      analysis = await analyse(analyser, url);
    } finally {
      showVariant(false);
    }
    if (typeof analysis === 'string') {
      outcome.failed.push({ url, reason: analysis });
      continue;
    }
    const privacy = demoPrivacy(index, urls.length);
    const current = now();
    let report = await storage.createReport({
      url,
      project: projectFromUrl(url),
      privacy,
      passwordHash: privacy === PRIVACY.password ? await hashPassword(DEMO_PASSWORD) : null,
      ...analysis,
      now: new Date(current.getTime() - demoDaysAgo(index, urls.length) * DAY_MS),
    });
    if (variant) {
      // The page as itself again: the report's second run.
      const fixed = await analyse(analyser, url);
      if (typeof fixed === 'string') outcome.failed.push({ url, reason: fixed });
      else report = (await storage.updateReport(report.id, { analysis: fixed, now: now() })) ?? report;
    }
    outcome.created.push(report);
  }
  return outcome;
}
