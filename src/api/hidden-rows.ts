// The rows the lists leave out while their deletes are held for Undo (src/workflows/pending-deletes.ts
// holds them and publishes them here). The one place they are hidden: the list queries' own `select`
// (every list of reports and of projects, a project's health and its newest reports) reads them from
// here, so a component that reads a list through its query never sees a held row.
//
// Why `select` over the cached answers, and not the cache edited: the cache keeps what the service
// answered (the mutations edit it, the lists refetch into it), so Undo brings a row back at once
// without a request, from an answer nobody had to keep aside. React Query runs a query's `select` again
// only when its data or the function changes, and a hold changes neither: so each change hands every
// cached query of those lists its own data again as a new object (same rows, same state otherwise),
// and the components showing them render what is held now. A QueryClient follows the changes once
// `followHeldRows` is called for it (the app's providers do).
//
// A module of its own, so that the lists' first visit carries this small store and not the code that
// sends the deletes.
import { replaceEqualDeep } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { Page, Project, Report } from '@/contract/domain';
import type { Result } from '@/contract/values';
import { projectKeys, reportKeys } from './query-keys';

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
  return { reports, projects, fewerReports, heldResults };
}

// Module-level: the held deletes are the page's (they outlive the screen that made them, and a
// closing tab sends them), so what they hide is the page's too, whichever query reads it.
let hidden: HiddenRows = hiddenRowsOf([]);
const followers = new Set<() => void>();

const nothingHidden = () => hidden.reports.size === 0 && hidden.projects.size === 0;

/** What the lists hide now; the same object until a delete is held, undone or answered. */
export function hiddenRows(): HiddenRows {
  return hidden;
}

// The answers React Query has already shared with the answer before them (its structural sharing, as
// they came in). A `select` that leaves nothing out hands one of them back, and React Query would
// compare it again with what was shown before, another sort's or another page's rows, row by row with
// their results: 18 ms more to the DOM on each sort or page of 100 reports (bench:ui in CI on 11-28:
// sort 47.0 against 29.2 ms, next page 45.5 against 29.1). Module-level: an answer is the same
// object in every query and observer that holds it; a WeakSet forgets it with them.
const shared = new WeakSet<object>();

/**
 * `structuralSharing` of the queries whose `select` hides held rows: React Query's own sharing, done
 * once per answer, not again on an answer the `select` handed back as it was.
 */
export function shareOnce(previous: unknown, next: unknown): unknown {
  if (typeof next === 'object' && next !== null && shared.has(next)) return next;
  const result = replaceEqualDeep(previous, next);
  if (typeof result === 'object' && result !== null) shared.add(result);
  return result;
}

/** Whether a report is held for deletion (itself, or with its project). */
function isHeldReport(report: Pick<Report, 'id' | 'project'>): boolean {
  return hidden.reports.has(report.id) || (report.project !== null && hidden.projects.has(report.project));
}

/** `select` of a reports list query: the page without the reports held for deletion. */
export function withoutHeldReports(page: Page<Report>): Page<Report> {
  return nothingHidden() ? page : withoutItems(page, (report) => !isHeldReport(report));
}

/** `select` of a query of reports that is not a page (a project's newest). */
export function withoutHeldReportItems(reports: Report[]): Report[] {
  return nothingHidden() ? reports : reports.filter((report) => !isHeldReport(report));
}

/**
 * `select` of a projects list query: a held project is not listed, a project counts fewer reports by
 * those held one by one, and one whose every report is held goes with them (a project is its reports).
 */
export function withoutHeldProjects<P extends Project>(page: Page<P>): Page<P> {
  if (nothingHidden()) return page;
  const { projects, fewerReports } = hidden;
  const left = (project: P) =>
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
}

/** The queries whose `select` reads what is held: every list of reports and of projects, each project's site. */
const HIDING_QUERIES = [reportKeys.lists(), projectKeys.lists(), projectKeys.sites()];

/** Called by the held deletes whenever they change: the lists followed hide what is held now. */
export function publishHeld(groups: Iterable<{ targets: readonly DeleteTarget[] }>): void {
  hidden = hiddenRowsOf(groups);
  for (const follower of [...followers]) follower();
}

/**
 * From now on, every cached list of `queryClient` runs its `select` again whenever what is held
 * changes (see the top of this file), and once now. Returns the function that stops it.
 */
export function followHeldRows(queryClient: QueryClient): () => void {
  const reselect = () => {
    for (const queryKey of HIDING_QUERIES)
      for (const query of queryClient.getQueryCache().findAll({ queryKey })) {
        const { data } = query.state;
        if (typeof data !== 'object' || data === null) continue;
        query.setState({ ...query.state, data: Array.isArray(data) ? [...data] : { ...data } });
      }
  };
  reselect();
  followers.add(reselect);
  return () => {
    followers.delete(reselect);
  };
}
