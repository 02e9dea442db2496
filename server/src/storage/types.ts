import type { IdRange } from '../../../src/contract/id-list';
import type {
  Privacy,
  Result,
  ServerProjectSortKey,
  ServerReportSortKey,
  SortOrder,
} from '../../../src/contract/values';
import type { StrictCheck } from '../../../src/contract/strict-schemas';
import type { WatchStorage } from './watch-storage';
import type { RunLogStorage } from './run-log-storage';
import type { WebhookStorage } from './webhook-storage';
import type { ProblemStorage } from './problem-storage';
import type { ClientStorage } from './client-storage';
import type { HealthStorage } from './health-storage';
import type { DigestStorage } from './digest-storage';
import type { ShareLinkStorage } from './share-link-storage';
import type { BrandingStorage } from './branding-storage';
import type { AccountStorage } from './account-storage';

/** A report as the storage layer returns it; timestamps are already in the contract's format. */
export interface ReportRecord {
  id: number;
  url: string;
  project: string;
  privacy: Privacy;
  hasPassword: boolean;
  result: Result;
  score: number;
  /**
   * The results map as JSON text, exactly as stored. Responses splice it in as it is: parsing
   * and re-serialising kilobytes per report was most of a list request's time. Any valid JSON
   * text of the map will do (a PostgreSQL adapter may hand over `results::text` of a jsonb).
   */
  resultsJson: string;
  generatedAt: string;
  createdAt: string;
  updatedAt: string;
  /** How many of its analyses are kept as runs. */
  runs: number;
  /** The scores of the newest kept runs, at most RECENT_SCORES, oldest first. */
  recentScores: number[];
  /** Since when its page is gone (it left the followed sitemap, or answered 404 or 410); null: it is not. */
  goneSince: string | null;
}

/** One kept analysis of a report. */
export interface RunRecord {
  generatedAt: string;
  score: number;
  result: Result;
  /** The results map as stored JSON text, as in ReportRecord. */
  resultsJson: string;
}

export interface RunListQuery {
  limit: number;
  offset: number;
}

export interface AnalysisFields {
  score: number;
  result: Result;
  results: Record<string, StrictCheck>;
}

export interface NewReport extends AnalysisFields {
  url: string;
  project: string;
  privacy: Privacy;
  /** An scrypt hash from auth/passwords.ts, never the password itself. */
  passwordHash: string | null;
  now: Date;
}

export interface ReportChanges {
  privacy?: Privacy;
  /** `null` discards the stored password; `undefined` keeps it. */
  passwordHash?: string | null;
  /** New analysis: also moves `generated_at` to `now`. */
  analysis?: AnalysisFields;
  now: Date;
}

export interface ReportListQuery {
  search?: string;
  project?: string;
  /** Only the reports of this client's projects (wave 4); an unknown client has none. */
  client?: number;
  result?: Result;
  /**
   * Only the reports whose url_key is one of these: urlKey() of each asked URL (the exact-URL
   * filter, repeatable up to URL_FILTER_MAX values). An empty list matches no report.
   */
  urlKeys?: readonly string[];
  /** Only the reports whose newest results fail this check key (the Problems extension). */
  failing?: string;
  /** Only the reports whose page is gone (true) or is not (false) (sitemap_follow). */
  gone?: boolean;
  /** Only the reports of these ids (ids_filter): parseIdList() of `ids=`. */
  idRanges?: readonly IdRange[];
  sortBy: ServerReportSortKey;
  sort: SortOrder;
  limit: number;
  offset: number;
}

export interface ProjectRecord {
  project: string;
  reports: number;
  createdAt: string;
}

export interface ProjectListQuery {
  search?: string;
  /** Only the projects of this client (wave 4); an unknown client has none. */
  client?: number;
  sortBy: ServerProjectSortKey;
  sort: SortOrder;
  limit: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Everything the API needs from a database. Methods are async so that an adapter for a
 * networked database (PostgreSQL) can implement the same interface.
 */
export interface Storage {
  /** Schedules and alerts (the watch extensions). */
  watch: WatchStorage;
  /** Webhooks and their deliveries (the Webhooks extension). */
  webhooks: WebhookStorage;
  /** Problems across reports and each project's check settings (the Problems extension). */
  problems: ProblemStorage;
  /** The clients, and each project's label and client (wave 4). */
  clients: ClientStorage;
  /** Each project's health by day, and the overview's totals and drops (wave 4). */
  health: HealthStorage;
  /** Each project's runs with their progress and summary, and its deploys (wave 4). */
  runLog: RunLogStorage;
  /** The digests' settings, each digest made and what changed in a window (issue 48). */
  digests: DigestStorage;
  /** Share links of reports, comparisons and projects (share_links). */
  shareLinks: ShareLinkStorage;
  /** The agency's name, accent colour and logo on what its clients see (issue 48). */
  branding: BrandingStorage;
  /** Workspaces, members, keys and the audit log (issue 47). */
  accounts: AccountStorage;
  /** The storage of that workspace: every table and query of it scoped to it (issue 47). */
  forWorkspace(workspaceId: number): Storage;
  /**
   * Report `id` and its workspace, whichever it is; null when there is no such report. A lookup
   * across workspaces for the public pages (/r/{id}), whose address names no workspace: everything
   * else they read is of `forWorkspace(workspaceId)`. One query, as a workspace's getReport(). No
   * API route may use it (the API's routers have a workspace's storage, whose copy of it is the root's).
   */
  reportAnywhere(id: number): Promise<{ workspaceId: number; report: ReportRecord } | null>;
  listReports(query: ReportListQuery): Promise<Page<ReportRecord>>;
  getReport(id: number): Promise<ReportRecord | null>;
  /** The stored scrypt hash of the report's password, for checking one; null without a password or report. */
  getPasswordHash(id: number): Promise<string | null>;
  /** Stores the report with its analysis as its first run. */
  createReport(report: NewReport): Promise<ReportRecord>;
  /** Applies every change or none; `null` when the report does not exist. A new analysis is kept as a run. */
  updateReport(id: number, changes: ReportChanges): Promise<ReportRecord | null>;
  /** A page of the report's kept runs, newest first (ties: newest written first); `null` when the report does not exist. */
  listRuns(reportId: number, query: RunListQuery): Promise<Page<RunRecord> | null>;
  deleteReport(id: number): Promise<boolean>;
  countReports(): Promise<number>;
  listProjects(query: ProjectListQuery): Promise<Page<ProjectRecord>>;
  /** Deletes the project and all its reports (and their runs) atomically; returns how many reports went. */
  deleteProject(project: string): Promise<number>;
  close(): Promise<void>;
}

/** How many of the newest runs' scores a report carries (`recentScores`). */
export const RECENT_SCORES = 10;
