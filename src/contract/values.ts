// One definition of every value the API contract fixes; the dashboard and the reference server import it.

export const PER_PAGE_VALUES = [10, 25, 50, 100] as const;
export type PerPage = (typeof PER_PAGE_VALUES)[number];
export const DEFAULT_PER_PAGE: PerPage = 10;

export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const SORT_ORDER_LABELS: Record<SortOrder, string> = { desc: 'Descending', asc: 'Ascending' };

export const REPORT_SORT_KEYS = ['id', 'generated_at', 'url', 'result'] as const;
export type ReportSortKey = (typeof REPORT_SORT_KEYS)[number];
/**
 * The report sort keys the reference server takes: the contract's and the wave-3 extension `score`
 * (announced as `sort_by_score` by GET /capabilities). The dashboard offers `score` only where announced.
 */
export const SERVER_REPORT_SORT_KEYS = [...REPORT_SORT_KEYS, 'score'] as const;
export type ServerReportSortKey = (typeof SERVER_REPORT_SORT_KEYS)[number];
export const REPORT_SORT_LABELS: Record<ServerReportSortKey, string> = {
  id: 'Date created',
  generated_at: 'Date generated',
  url: 'URL',
  result: 'Result',
  score: 'Score',
};
export const REPORT_SEARCH_BY = ['url'] as const;

export const PROJECT_SORT_KEYS = ['created_at', 'project'] as const;
export type ProjectSortKey = (typeof PROJECT_SORT_KEYS)[number];
export const PROJECT_SORT_LABELS: Record<ProjectSortKey, string> = {
  created_at: 'Date created',
  project: 'Name',
};
export const PROJECT_SEARCH_BY = ['project'] as const;
/**
 * The project sort keys the reference server takes: the contract's and wave 4's (Overview): `health`
 * (the share of bad reports), `average_score`, `alerts` (unread) and `reports`. The dashboard offers
 * them only where the deployment announces `overview`.
 */
export const SERVER_PROJECT_SORT_KEYS = [
  ...PROJECT_SORT_KEYS,
  'health',
  'average_score',
  'alerts',
  'reports',
] as const;
export type ServerProjectSortKey = (typeof SERVER_PROJECT_SORT_KEYS)[number];
export const SERVER_PROJECT_SORT_LABELS: Record<ServerProjectSortKey, string> = {
  ...PROJECT_SORT_LABELS,
  health: 'Health',
  average_score: 'Average score',
  alerts: 'Unread alerts',
  reports: 'Reports',
};

/**
 * The order a list starts in when sorted by `key`, by its header or its Sort by choice alike (the ui
 * contract): names and URLs A-Z, dates newest and results and scores best first.
 */
export function firstSortOrder(key: ServerReportSortKey | ServerProjectSortKey): SortOrder {
  return key === 'url' || key === 'project' ? 'asc' : 'desc';
}

export const RESULTS = ['good', 'decent', 'bad'] as const;
export type Result = (typeof RESULTS)[number];
export const RESULT_LABELS: Record<Result, string> = { good: 'Good', decent: 'Decent', bad: 'Bad' };

export const PRIVACY = { public: 0, private: 1, password: 2 } as const;
export const PRIVACY_VALUES = [0, 1, 2] as const;
export type Privacy = (typeof PRIVACY_VALUES)[number];
export const PRIVACY_LABELS: Record<Privacy, string> = { 0: 'Public', 1: 'Private', 2: 'Password' };

export const IMPORTANCE = ['high', 'medium', 'low'] as const;
export type Importance = (typeof IMPORTANCE)[number];
/** Points a check is worth in the score, by importance. */
export const IMPORTANCE_WEIGHTS: Record<Importance, number> = { high: 10, medium: 5, low: 2 };

/** The contract's thresholds: the lowest score of each band (good from 80, decent from 49, bad below 49). */
export const RESULT_FLOORS = { good: 80, decent: 49 } as const;

export function resultForScore(score: number): Result {
  if (score >= RESULT_FLOORS.good) return 'good';
  if (score >= RESULT_FLOORS.decent) return 'decent';
  return 'bad';
}

export const URL_MAX_LENGTH = 2048;
/** How many `url=` values one list request may repeat (the exact-URL filter's many-URL form). */
export const URL_FILTER_MAX = 100;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * How long a password is, as its length rule counts it, the one place that rule lives: code points
 * after NFC normalisation, so the API, the public page and the dashboard's forms count alike.
 */
export function passwordLength(password: string): number {
  return [...password.normalize('NFC')].length;
}

export const CATEGORIES = ['seo', 'performance', 'security', 'miscellaneous'] as const;
export type Category = (typeof CATEGORIES)[number] | 'other';
export const CATEGORY_LABELS: Record<Category, string> = {
  seo: 'SEO',
  performance: 'Performance',
  security: 'Security',
  miscellaneous: 'Miscellaneous',
  other: 'Other',
};

export const CHECK_CATEGORIES = {
  title: 'seo',
  meta_description: 'seo',
  headings: 'seo',
  content_keywords: 'seo',
  image_keywords: 'seo',
  seo_friendly_url: 'seo',
  '404_page': 'seo',
  robots: 'seo',
  noindex: 'seo',
  in_page_links: 'seo',
  language: 'seo',
  favicon: 'seo',
  text_compression: 'performance',
  load_time: 'performance',
  page_size: 'performance',
  http_requests: 'performance',
  image_format: 'performance',
  defer_javascript: 'performance',
  dom_size: 'performance',
  https_encryption: 'security',
  gsb: 'security',
  plaintext_email: 'security',
  structured_data: 'miscellaneous',
  meta_viewport: 'miscellaneous',
  charset: 'miscellaneous',
  sitemap: 'miscellaneous',
  social: 'miscellaneous',
  content_length: 'miscellaneous',
  text_html_ratio: 'miscellaneous',
  inline_css: 'miscellaneous',
  deprecated_html_tags: 'miscellaneous',
} as const satisfies Record<string, (typeof CATEGORIES)[number]>;
export type CheckKey = keyof typeof CHECK_CATEGORIES;
export const CHECK_KEYS = Object.keys(CHECK_CATEGORIES) as CheckKey[];

/** GET /problems `state`: open problems (the default), those a project ignores, or both. */
export const PROBLEM_STATES = ['open', 'ignored', 'all'] as const;
export type ProblemState = (typeof PROBLEM_STATES)[number];
/** GET /problems `sort_by`: impact (importance weight x pages failing, the default), pages failing, check key. */
export const PROBLEM_SORT_KEYS = ['impact', 'pages', 'check'] as const;
export type ProblemSortKey = (typeof PROBLEM_SORT_KEYS)[number];
/** A project's setting of one check: ignored, or open (its importance re-weighted, or only noted). */
export const CHECK_SETTING_STATES = ['open', 'ignored'] as const;
export type CheckSettingState = (typeof CHECK_SETTING_STATES)[number];
/** A check setting's note, in characters. */
export const CHECK_NOTE_MAX = 500;
/**
 * A problem is site-wide (one server setting, fixed once) when it fails on at least this share of
 * the analysed pages of every project it fails in, and on SITE_WIDE_MIN_PAGES pages or more.
 */
export const SITE_WIDE_SHARE = 0.9;
export const SITE_WIDE_MIN_PAGES = 5;

/** GET /projects/{project}/health: how many daily points at most, and when `days` is not given. */
export const HEALTH_DAYS_MAX = 365;
export const HEALTH_DAYS_DEFAULT = 30;
/** `GET /projects?with=health`: the days of each project's `trend`. */
export const TREND_DAYS = 30;
/** GET /overview: how many items each of its week's lists has at most. */
export const OVERVIEW_WEEK_ITEMS = 5;

/** A project's label (PATCH /projects/{project}), in characters (code points) after trimming. */
export const PROJECT_LABEL_MAX = 80;
/** A client's name, in characters (code points) after trimming; unique whatever its case. */
export const CLIENT_NAME_MAX = 80;

export function isCheckKey(key: string): key is CheckKey {
  return Object.hasOwn(CHECK_CATEGORIES, key);
}

export function categoryOf(key: string): Category {
  return (CHECK_CATEGORIES as Record<string, Category>)[key] ?? 'other';
}

export const API_PREFIX = '/api/v1';

export const ERROR_MESSAGES = {
  401: 'Unauthenticated.',
  404: 'Resource not found.',
  405: 'Method not allowed.',
  429: 'Too Many Attempts.',
  500: 'Server error.',
  503: 'Too many analyses at once, try again shortly.',
} as const;

/** A project's schedule (the Schedules extension): how often its reports are analysed again. */
export const SCHEDULE_EVERY = ['off', 'daily', 'weekly'] as const;
export type ScheduleEvery = (typeof SCHEDULE_EVERY)[number];
/** What an alert says got worse (the Alerts extension), or that the report is back. */
export const ALERT_KINDS = ['result_worse', 'score_drop', 'check_failing', 'recovered'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
/** What started a project's run (wave 4, run log). */
export const RUN_KINDS = ['scheduled', 'run_now', 'deploy'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const RUN_STATES = ['running', 'done', 'cancelled'] as const;
export type RunState = (typeof RUN_STATES)[number];
/** What a run's analysis did to a page. */
export const RUN_PAGE_OUTCOMES = ['worse', 'improved', 'unchanged', 'failed'] as const;
export type RunPageOutcome = (typeof RUN_PAGE_OUTCOMES)[number];
/** New pages a run following a sitemap may add (api-contract.md, max_new): at most, and by default. */
export const MAX_NEW_PAGES = 1000;
export const DEFAULT_MAX_NEW = 100;
/** A deploy's label, at most (api-contract.md, deploys). */
export const DEPLOY_LABEL_MAX = 100;
