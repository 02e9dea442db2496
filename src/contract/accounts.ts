// The accounts extension's values (issue 47): roles, the limits of a member's name and a key's
// label, and how the audit log's `target` filter is written. Imports nothing but itself.

/** From the most to the least a member may do. */
export const ROLES = ['owner', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const MEMBER_NAME_MAX = 80;
export const KEY_LABEL_MAX = 80;

export const ACCOUNT_MESSAGES = {
  nameRequired: 'The name field is required.',
  nameString: 'The name must be a string.',
  nameMax: `The name must not be greater than ${MEMBER_NAME_MAX} characters.`,
  nameControl: 'The name must not contain control characters.',
  roleRequired: 'The role field is required.',
  role: 'The selected role is invalid.',
  labelString: 'The label must be a string.',
  labelMax: `The label must not be greater than ${KEY_LABEL_MAX} characters.`,
  labelControl: 'The label must not contain control characters.',
  lastOwner: 'The workspace\u2019s last owner cannot be removed or demoted.',
  member: 'The member must be a member\u2019s id, a whole number from 1 up.',
  action: 'The selected action is invalid.',
  target: 'The target must be written type:id, such as report:42.',
  since: 'The since must be a date or a date and time (ISO 8601), such as 2026-11-20T10:00:00Z.',
  until: 'The until must be a date or a date and time (ISO 8601), such as 2026-11-20T10:00:00Z.',
} as const;

/** `type:id` of the audit log's target filter (`report:42`, `project:shop.example`); null when it is not so written. */
export function parseAuditTarget(value: string): { type: string; id: string } | null {
  const match = /^([a-z][a-z_]{0,39}):(.{1,2000})$/su.exec(value);
  return match ? { type: match[1]!, id: match[2]! } : null;
}

const ISO_DATE = /^\d{4}-\d\d-\d\d$/;
const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:\d\d)$/;

/**
 * A `since` or `until` of the audit log: an ISO 8601 date and time with its zone, or a date (UTC),
 * which as `since` starts at its midnight and as `until` takes in the whole day; null otherwise.
 */
export function parseAuditTime(value: string, edge: 'start' | 'end' = 'start'): Date | null {
  const dateOnly = ISO_DATE.test(value);
  if (!dateOnly && !ISO_DATE_TIME.test(value)) return null;
  const time = Date.parse(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time)) return null;
  return new Date(dateOnly && edge === 'end' ? time + 86_400_000 - 1 : time);
}
