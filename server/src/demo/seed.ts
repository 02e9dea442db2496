import { PRIVACY } from '../../../src/api/contract';
import type { Privacy } from '../../../src/api/contract';
import { AnalysisError } from '../analysis/analysis-error';
import type { Analyser } from '../analysis/analyse';
import { hashPassword } from '../auth/passwords';
import { projectFromUrl } from '../storage/text';
import type { ReportRecord, Storage } from '../storage/types';

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

export interface SeedOutcome {
  created: ReportRecord[];
  /** Pages that could not be analysed, with the reason the API would have given. */
  failed: { url: string; reason: string }[];
}

/**
 * Analyses every URL for real and stores a report for each, one after another (so load times
 * are not skewed by parallel fetches, and ids follow the list's order). A page that cannot be
 * analysed is skipped and reported back; anything unexpected is thrown.
 */
export async function seedDemo(
  storage: Storage,
  analyser: Analyser,
  urls: string[],
  options: { now?: () => Date } = {},
): Promise<SeedOutcome> {
  const now = options.now ?? (() => new Date());
  const outcome: SeedOutcome = { created: [], failed: [] };
  for (const [index, url] of urls.entries()) {
    let analysis;
    try {
      analysis = await analyser(url);
    } catch (error) {
      if (error instanceof AnalysisError) {
        outcome.failed.push({ url, reason: error.message });
        continue;
      }
      throw error;
    }
    const privacy = demoPrivacy(index, urls.length);
    const report = await storage.createReport({
      url,
      project: projectFromUrl(url),
      privacy,
      passwordHash: privacy === PRIVACY.password ? await hashPassword(DEMO_PASSWORD) : null,
      score: analysis.score,
      result: analysis.result,
      results: analysis.results,
      now: now(),
    });
    outcome.created.push(report);
  }
  return outcome;
}
