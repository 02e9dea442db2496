// The domain types: a report, a project, a run and a check as the dashboard works with them, whatever
// shape the deployment sent (the lenient schemas in api/ turn answers into these).
import type { Importance, Privacy, Result, ScheduleEvery } from './values';

export interface Check {
  passed: boolean;
  importance: Importance | null;
  value: unknown;
  errors: Record<string, unknown> | null;
}

export interface Report {
  id: number;
  /** As the service stored it; may lack a scheme (`example.com/pricing`). */
  url: string;
  project: string;
  privacy: Privacy;
  /** Whether a password is stored; null when the deployment does not say. */
  hasPassword: boolean | null;
  /** null when the deployment sends neither a result nor a score. */
  result: Result | null;
  score: number | null;
  /** Flat: check key -> check, whatever nesting the deployment used; unknown keys kept. */
  results: Record<string, Check>;
  generatedAt: Date | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  /** The report's public page, when the service says where it is (the reference server does). */
  pageUrl: string | null;
  /** How many analyses the service keeps of this report; null when it keeps no history. */
  runs: number | null;
  /** The newest kept runs' scores, oldest first; null without history. */
  recentScores: number[] | null;
  /** Since when its page is gone (the reference server following a sitemap); null or absent: it is not. */
  goneSince?: Date | null;
}

/** One kept analysis of a report (the reference server's history). */
export interface Run {
  generatedAt: Date | null;
  score: number | null;
  result: Result | null;
  results: Record<string, Check>;
}

/** What a projects list says of a watched project's schedule (the reference server's extension). */
export interface ProjectSchedule {
  every: Exclude<ScheduleEvery, 'off'>;
  /** 0-23, UTC. */
  hour: number;
  weekday: number | null;
  nextRunAt: Date | null;
}

export interface Project {
  name: string;
  /** Number of reports, when the deployment sends it. */
  reports: number | null;
  createdAt: Date | null;
  /** Its schedule when the project is watched and the list says so (undefined: not watched, or not said). */
  schedule?: ProjectSchedule;
  /** Its label (an extension: project_labels); undefined: none, or a deployment without labels. */
  label?: string;
  /** The client it is for (an extension: clients); undefined: none, or a deployment without clients. */
  client?: ClientRef;
}

/** A client as a project names it (an extension: clients). */
export interface ClientRef {
  id: number;
  name: string;
}

export interface PageMeta {
  currentPage: number;
  lastPage: number;
  perPage: number;
  total: number;
  /** 1-based position of the first item on this page; null when the page is empty. */
  from: number | null;
  to: number | null;
}

export interface Page<T> {
  items: T[];
  meta: PageMeta;
}
