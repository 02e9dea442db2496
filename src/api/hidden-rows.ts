// The rows every list hides while their deletes are held (src/workflows/pending-deletes.ts holds them): a
// module of its own, so that the lists' first visit carries this small store and not the code that
// sends the deletes.
import { useSyncExternalStore } from 'react';
import type { Page, Project, Report } from '@/contract/domain';
import type { Result } from '@/contract/values';

export type DeleteTarget =
  /** `result`: when known (undefined: not known), so that a project's health leaves the report out. */
  | { kind: 'report'; id: number; url: string; project: string | null; result?: Result | null }
  | { kind: 'project'; name: string; reports: number | null };

export interface HiddenRows {
  reports: ReadonlySet<number>;
  projects: ReadonlySet<string>;
  /** How many of a project's reports are held for deletion one by one (its count shows fewer). */
  fewerReports: ReadonlyMap<string, number>;
  /** The results of a project's reports held one by one (undefined: not known), for its health. */
  heldResults: ReadonlyMap<string, readonly (Result | null | undefined)[]>;
  /** For `select` of a reports list query: undefined while nothing is held. */
  selectReports: ((page: Page<Report>) => Page<Report>) | undefined;
  /** For `select` of a query of reports that is not a page (a project's newest): undefined while nothing is held. */
  selectReportItems: ((reports: Report[]) => Report[]) | undefined;
  /** For `select` of a projects list query: undefined while nothing is held. */
  selectProjects: ((page: Page<Project>) => Page<Project>) | undefined;
}

/** The page without the items `keep` turns down, its range and total counted again. */
export function withoutItems<T>(page: Page<T>, keep: (item: T) => boolean): Page<T> {
  const items = page.items.filter(keep);
  const gone = page.items.length - items.length;
  if (gone === 0) return page;
  const total = Math.max(0, page.meta.total - gone);
  const from = items.length === 0 ? null : page.meta.from;
  const to = items.length === 0 || page.meta.to === null ? null : page.meta.to - gone;
  const lastPage = Math.max(1, Math.ceil(total / page.meta.perPage));
  return { items, meta: { ...page.meta, total, from, to, lastPage } };
}

function hiddenRowsOf(groups: Iterable<{ targets: readonly DeleteTarget[] }>): HiddenRows {
  const reports = new Set<number>();
  const projects = new Set<string>();
  const fewerReports = new Map<string, number>();
  const heldResults = new Map<string, (Result | null | undefined)[]>();
  for (const group of groups)
    for (const target of group.targets) {
      if (target.kind === 'project') projects.add(target.name);
      else if (!reports.has(target.id)) {
        reports.add(target.id);
        if (target.project !== null) {
          fewerReports.set(target.project, (fewerReports.get(target.project) ?? 0) + 1);
          heldResults.set(target.project, [...(heldResults.get(target.project) ?? []), target.result]);
        }
      }
    }
  const none = reports.size === 0 && projects.size === 0;
  const selectReports = none
    ? undefined
    : (page: Page<Report>) =>
        withoutItems(page, keepReport);
  const keepReport = (report: Report) => !reports.has(report.id) && !projects.has(report.project ?? '');
  const selectReportItems = none ? undefined : (items: Report[]) => items.filter(keepReport);
  const selectProjects = none
    ? undefined
    : (page: Page<Project>) => {
        // A project is its reports: one whose every report is held goes with them.
        const left = (project: Project) =>
          project.reports === null ? null : project.reports - (fewerReports.get(project.name) ?? 0);
        const shown = withoutItems(page, (project) => !projects.has(project.name) && (left(project) ?? 1) > 0);
        if (fewerReports.size === 0) return shown;
        return {
          ...shown,
          items: shown.items.map((project) => {
            const reports = left(project);
            return reports === null || reports === project.reports ? project : { ...project, reports };
          }),
        };
      };
  return { reports, projects, fewerReports, heldResults, selectReports, selectReportItems, selectProjects };
}

const listeners = new Set<() => void>();
let hidden: HiddenRows = hiddenRowsOf([]);

/** Called by the held deletes whenever they change: the lists hide what they hold now. */
export function publishHeld(groups: Iterable<{ targets: readonly DeleteTarget[] }>): void {
  hidden = hiddenRowsOf(groups);
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What the lists hide now; the same object until a delete is held, undone or answered. */
export function hiddenRows(): HiddenRows {
  return hidden;
}

/** The rows to hide, for list queries' `select`: `useQuery({ ...reportQueries.list(p), select: useHiddenRows().selectReports })`. */
export function useHiddenRows(): HiddenRows {
  return useSyncExternalStore(subscribe, hiddenRows, hiddenRows);
}
