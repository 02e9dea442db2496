// Key-only parts of the query factories, general to specific, so that one call can invalidate
// everything of a resource, all its lists, or one item. Kept apart so that reports.ts and
// projects.ts can reach each other's keys without importing each other.

export const reportKeys = {
  all: () => ['reports'] as const,
  lists: () => [...reportKeys.all(), 'list'] as const,
  details: () => [...reportKeys.all(), 'detail'] as const,
  /** One report's kept analyses (the reference server's history). */
  runs: (id: number) => [...reportKeys.all(), 'runs', id] as const,
};

export const projectKeys = {
  all: () => ['projects'] as const,
  lists: () => [...projectKeys.all(), 'list'] as const,
  /** What is known of one project's site: its health and the checks failing across it. */
  sites: () => [...projectKeys.all(), 'site'] as const,
  site: (name: string) => [...projectKeys.sites(), name] as const,
};

/**
 * Schedules and alerts. Here rather than in watch.ts so that a report's mutations (an analysis may raise
 * an alert) reach the unread count without bringing the alerts' schemas into the report page's first visit.
 */
export const watchKeys = {
  all: () => ['watch'] as const,
  schedules: () => [...watchKeys.all(), 'schedule'] as const,
  alerts: () => [...watchKeys.all(), 'alerts'] as const,
  alertLists: () => [...watchKeys.alerts(), 'list'] as const,
  unread: () => [...watchKeys.alerts(), 'unread'] as const,
};

/**
 * Accounts (issue 47): who the key belongs to (GET /me), the workspace's members and their keys, and the
 * audit log. Here so that a role change (accounts.ts) reaches `me` without the entry importing accounts.ts.
 */
export const accountKeys = {
  all: () => ['accounts'] as const,
  me: () => [...accountKeys.all(), 'me'] as const,
  members: () => [...accountKeys.all(), 'members'] as const,
  keys: (memberId: number) => [...accountKeys.members(), 'keys', memberId] as const,
  audit: () => [...accountKeys.all(), 'audit'] as const,
};
