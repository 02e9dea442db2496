// Who may do what, and what the audit log calls it: one table for every operation of the API
// that a viewer may not do (issue 47). An operation not listed here is a read any member may do.
// The app checks the role before anything else of the request (so a 403 says nothing about
// whether an id exists) and, for a write, hands the audit intent to the storage, which writes the
// entry in the write's own transaction (storage/audit.ts).
import type { Role } from '../storage/database';

export interface OperationRule {
  /** The least role that may do it. */
  role: Role;
  /** The audit log's name for it; null: a read, whose refusal alone is logged, under `refused`. */
  action: string;
  /** What it acts on: the type, and the path's parameter naming it (null: named by the write, or none). */
  target: { type: string; param: number | null };
  /** A write: its success is logged. A read kept from a role is logged only when refused. */
  write: boolean;
}

interface Entry extends OperationRule {
  method: string;
  path: RegExp;
}

const SEGMENT = '([^/]+)';

function rule(
  method: string,
  path: string,
  role: Role,
  action: string,
  target: OperationRule['target'],
  write = true,
): Entry {
  return { method, path: new RegExp(`^${path.replaceAll(':seg', SEGMENT)}/?$`), role, action, target, write };
}

const report = (param: number | null) => ({ type: 'report', param });
const project = { type: 'project', param: 1 };

const RULES: readonly Entry[] = [
  rule('POST', '/reports', 'editor', 'report.create', report(null)),
  rule('PUT', '/reports/:seg', 'editor', 'report.update', report(1)),
  rule('PATCH', '/reports/:seg', 'editor', 'report.update', report(1)),
  rule('DELETE', '/reports/:seg', 'editor', 'report.delete', report(1)),
  rule('PATCH', '/projects/:seg', 'editor', 'project.update', project),
  rule('DELETE', '/projects/:seg', 'editor', 'project.delete', project),
  rule('PUT', '/projects/:seg/client', 'editor', 'project.client', project),
  rule('PUT', '/projects/:seg/schedule', 'editor', 'schedule.update', project),
  rule('POST', '/projects/:seg/schedule/run', 'editor', 'schedule.run', project),
  rule('POST', '/projects/:seg/run-log/:seg/cancel', 'editor', 'run.cancel', { type: 'run', param: 2 }),
  rule('POST', '/projects/:seg/deploys', 'editor', 'deploy.create', { type: 'deploy', param: null }),
  rule('PUT', '/projects/:seg/checks/:seg', 'editor', 'checks.update', project),
  rule('POST', '/clients', 'editor', 'client.create', { type: 'client', param: null }),
  rule('PATCH', '/clients/:seg', 'editor', 'client.update', { type: 'client', param: 1 }),
  rule('DELETE', '/clients/:seg', 'editor', 'client.delete', { type: 'client', param: 1 }),
  rule('POST', '/share-links', 'editor', 'share_link.create', { type: 'share_link', param: null }),
  rule('DELETE', '/share-links/:seg', 'editor', 'share_link.delete', { type: 'share_link', param: 1 }),
  // Reading a sitemap changes nothing, but it is how reports are added: a viewer may not.
  rule('POST', '/discover', 'editor', 'discover', { type: 'sitemap', param: null }, false),
  rule('PATCH', '/alerts/:seg', 'viewer', 'alert.read', { type: 'alert', param: 1 }),
  rule('POST', '/alerts/read', 'viewer', 'alert.read', { type: 'alert', param: null }),

  rule('POST', '/webhooks', 'owner', 'webhook.create', { type: 'webhook', param: null }),
  rule('DELETE', '/webhooks/:seg', 'owner', 'webhook.delete', { type: 'webhook', param: 1 }),
  rule('POST', '/webhooks/:seg/test', 'owner', 'webhook.test', { type: 'webhook', param: 1 }),
  // A webhook's address may carry a token (a chat service's incoming URL); its messages, data.
  rule('GET', '/webhooks', 'owner', 'webhook.list', { type: 'webhook', param: null }, false),
  rule('GET', '/webhooks/:seg/deliveries', 'owner', 'webhook.deliveries', { type: 'webhook', param: 1 }, false),
  rule('PUT', '/branding', 'owner', 'branding.update', { type: 'branding', param: null }),
  rule('DELETE', '/branding/logo', 'owner', 'branding.delete_logo', { type: 'branding', param: null }),
  rule('PUT', '/digests', 'owner', 'digests.update', { type: 'digests', param: null }),
  rule('POST', '/digests/send', 'owner', 'digests.send', { type: 'digests', param: null }),
  // Recipients' addresses are personal data.
  rule('GET', '/digests', 'owner', 'digests.read', { type: 'digests', param: null }, false),
  rule('GET', '/digests/preview', 'owner', 'digests.preview', { type: 'digests', param: null }, false),
  rule('GET', '/members', 'owner', 'member.list', { type: 'member', param: null }, false),
  rule('POST', '/members', 'owner', 'member.create', { type: 'member', param: null }),
  rule('PATCH', '/members/:seg', 'owner', 'member.update', { type: 'member', param: 1 }),
  rule('DELETE', '/members/:seg', 'owner', 'member.delete', { type: 'member', param: 1 }),
  rule('GET', '/members/:seg/keys', 'owner', 'key.list', { type: 'member', param: 1 }, false),
  rule('POST', '/members/:seg/keys', 'owner', 'key.create', { type: 'key', param: null }),
  rule('DELETE', '/keys/:seg', 'owner', 'key.delete', { type: 'key', param: 1 }),
  rule('GET', '/audit', 'owner', 'audit.read', { type: 'audit', param: null }, false),
];

/** The audit log's names of the writes, for its filter. */
export const AUDIT_ACTIONS: readonly string[] = [
  ...new Set(RULES.filter((entry) => entry.write).map((entry) => entry.action)),
].sort();

/** The action a write this table does not name is logged as (operationOf's fallback). */
const UNNAMED_WRITE = 'write';

/**
 * Every name an entry of the audit log can have: the writes (AUDIT_ACTIONS), and the reads kept
 * from a role, which are logged when refused (`audit.read`, `member.list`, ...). GET /audit's
 * `action` filter takes these.
 */
export const LOGGED_ACTIONS: readonly string[] = [...new Set([...RULES.map((entry) => entry.action), UNNAMED_WRITE])].sort();

const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

/** Whether `role` may do what needs `needed`. */
export function mayDo(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

export interface MatchedOperation extends OperationRule {
  targetId: string | null;
}

/** The rule of a request (`path` below the API prefix); null for a read any member may do. */
export function operationOf(method: string, path: string): MatchedOperation | null {
  const upper = method === 'HEAD' ? 'GET' : method.toUpperCase();
  for (const entry of RULES) {
    if (entry.method !== upper) continue;
    const match = entry.path.exec(path);
    if (!match) continue;
    const raw = entry.target.param === null ? undefined : match[entry.target.param];
    let targetId: string | null = null;
    if (raw !== undefined) {
      try {
        targetId = decodeURIComponent(raw);
      } catch {
        targetId = raw;
      }
    }
    return { role: entry.role, action: entry.action, target: entry.target, write: entry.write, targetId };
  }
  // A write this table does not name (none should exist: app.test.ts checks every operation of
  // the OpenAPI document) is still kept from viewers, and logged.
  if (upper !== 'GET' && upper !== 'OPTIONS') {
    return { role: 'editor', action: UNNAMED_WRITE, target: { type: 'path', param: null }, write: true, targetId: path };
  }
  return null;
}
