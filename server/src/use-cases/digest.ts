// A digest's content: what changed across the projects in its window (issue 48, digests), as
// `GET /digests/preview` answers it, the e-mail shows it and `digest.sent` carries it.
import type { ScheduleEvery } from '../../../src/contract/values';
import { checkName } from '../../../src/checks/check-info';
import { DIGEST_LIST_MAX, type ProblemChange } from '../storage/digest-storage';
import type { Storage } from '../storage/types';
import { toTimestamp } from '../storage/text';

const DAY_MS = 86_400_000;

export interface DigestProblemJson {
  project: string;
  check: string;
  /** The check's name, as the dashboard says it. */
  name: string;
  pages: number;
}

export interface DigestProjectJson {
  project: string;
  new_problems: number;
  fixed_problems: number;
  drops: number;
  alerts: number;
  new_pages: number;
  gone_pages: number;
}

export interface DigestJson {
  since: string;
  until: string;
  /** Each project something happened to, by name, with how much of each. */
  projects: DigestProjectJson[];
  new_problems: DigestProblemJson[];
  fixed_problems: DigestProblemJson[];
  drops: { report_id: number; url: string; project: string; before: number; after: number }[];
  alerts: { id: number; report_id: number; url: string; project: string; kind: string; before_score: number; after_score: number; created_at: string }[];
  new_pages: { report_id: number; url: string; project: string; at: string }[];
  gone_pages: { report_id: number; url: string; project: string; at: string }[];
}

/** Where the next digest's window begins: where the last one ended, or one period before `until` for the first. */
export async function digestSince(storage: Storage, every: ScheduleEvery, until: Date): Promise<string> {
  const since = await storage.digests.nextSince();
  if (since !== null && since < toTimestamp(until)) return since;
  return toTimestamp(new Date(until.getTime() - (every === 'daily' ? DAY_MS : 7 * DAY_MS)));
}

const problemJson = (change: ProblemChange): DigestProblemJson => ({ project: change.project, check: change.check, name: checkName(change.check), pages: change.pages });

/** What changed after `since` up to `until`. */
export async function buildDigest(storage: Storage, since: string, until: Date): Promise<DigestJson> {
  const untilText = toTimestamp(until);
  const changes = await storage.digests.changes(since, untilText);
  const drops = await storage.health.drops(new Date(since), DIGEST_LIST_MAX);
  const projects = new Map<string, DigestProjectJson>();
  const of = (project: string) => {
    let entry = projects.get(project);
    if (!entry) projects.set(project, (entry = { project, new_problems: 0, fixed_problems: 0, drops: 0, alerts: 0, new_pages: 0, gone_pages: 0 }));
    return entry;
  };
  for (const change of changes.newProblems) of(change.project).new_problems += change.pages;
  for (const change of changes.fixedProblems) of(change.project).fixed_problems += change.pages;
  for (const drop of drops) of(drop.project).drops += 1;
  for (const [project, counts] of changes.counts) {
    const entry = of(project);
    entry.alerts = counts.alerts;
    entry.new_pages = counts.newPages;
    entry.gone_pages = counts.gonePages;
  }
  return {
    since,
    until: untilText,
    projects: [...projects.values()].sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0)),
    new_problems: changes.newProblems.map(problemJson),
    fixed_problems: changes.fixedProblems.map(problemJson),
    drops: drops.map((drop) => ({ report_id: drop.reportId, url: drop.url, project: drop.project, before: drop.before, after: drop.after })),
    alerts: changes.alerts.map((alert) => ({
      id: alert.id,
      report_id: alert.reportId,
      url: alert.url,
      project: alert.project,
      kind: alert.kind,
      before_score: alert.beforeScore,
      after_score: alert.afterScore,
      created_at: alert.createdAt,
    })),
    new_pages: changes.newPages.map((page) => ({ report_id: page.reportId, url: page.url, project: page.project, at: page.at })),
    gone_pages: changes.gonePages.map((page) => ({ report_id: page.reportId, url: page.url, project: page.project, at: page.at })),
  };
}

/** Whether nothing at all happened in the window. */
export function isQuiet(digest: DigestJson): boolean {
  return digest.projects.length === 0;
}
