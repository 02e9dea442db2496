// Accounts (api-contract.md, Accounts, roles, audit; where the server has `accounts` and `audit`): the
// workspace's members and their keys (a new key's text shown once), and the audit log, one page of it
// or every page matching its filters (for Export CSV, through the request scheduler). Apart from the
// other resources, so that only Settings' Members and Audit log sections download it.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { Page } from '@/contract/domain';
import { anySignal, apiRequest } from './http/http';
import { CancelledError, isCancelled } from './http/scheduler';
import type { RequestScheduler } from './http/scheduler';
import { pageSchema, reportFields } from './lenient-schemas';
import { ROLES } from './me';
import type { Role } from './me';
import { accountKeys } from './query-keys';

export interface Member {
  id: number;
  name: string;
  role: Role;
  createdAt: Date | null;
  /** Live keys. */
  keys: number;
  /** The newest use of any of its keys. */
  lastUsedAt: Date | null;
}

export interface ApiKey {
  id: number;
  label: string | null;
  /** The key's first characters (`wrs_ab12cd`): enough to tell keys apart, not to use one. */
  prefix: string;
  createdAt: Date | null;
  lastUsedAt: Date | null;
}

/** A key just made: its text, in this answer only. */
export interface NewKey extends ApiKey {
  key: string;
}

export interface AuditEntry {
  id: number;
  at: Date | null;
  /** The member's id is null once the member is removed (or for a key of the configuration). */
  member: { id: number | null; name: string } | null;
  keyId: number | null;
  role: string;
  action: string;
  outcome: 'done' | 'refused';
  target: { type: string; id: string | null } | null;
  /** Each changed field's value before and after (passwords as "set"/"unset"). */
  changes: Record<string, [unknown, unknown]> | null;
  ip: string | null;
}

const id = reportFields.id;
const at = reportFields.created_at;

const memberObject = z.object({
  id,
  name: z.string(),
  role: z.enum(ROLES),
  created_at: at,
  keys: z.optional(z.number()),
  last_used_at: at,
});
type MemberFields = z.output<typeof memberObject>;
const toMember = (m: MemberFields): Member => ({
  id: m.id,
  name: m.name,
  role: m.role,
  createdAt: m.created_at,
  keys: m.keys ?? 0,
  lastUsedAt: m.last_used_at,
});

const keyObject = z.object({ id, label: z.nullish(z.string()), prefix: z.string(), created_at: at, last_used_at: at });
type KeyFields = z.output<typeof keyObject>;
const toKey = (k: KeyFields): ApiKey => ({
  id: k.id,
  label: k.label || null,
  prefix: k.prefix,
  createdAt: k.created_at,
  lastUsedAt: k.last_used_at,
});
const newKeyObject = z.extend(keyObject, { key: z.string().check(z.minLength(1)) });
type NewKeyFields = z.output<typeof newKeyObject>;

const memberPageSchema = z.pipe(
  pageSchema(memberObject),
  z.transform((page: Page<MemberFields>): Page<Member> => ({ ...page, items: page.items.map(toMember) })),
);
const memberSchema = z.pipe(z.object({ data: memberObject }), z.transform(({ data }: { data: MemberFields }) => toMember(data)));
const newMemberSchema = z.pipe(
  z.object({ data: z.extend(memberObject, { key: newKeyObject }) }),
  z.transform(({ data }: { data: MemberFields & { key: NewKeyFields } }) => ({
    member: toMember(data),
    key: { ...toKey(data.key), key: data.key.key } satisfies NewKey,
  })),
);
const keyPageSchema = z.pipe(pageSchema(keyObject), z.transform((page: Page<KeyFields>): Page<ApiKey> => ({ ...page, items: page.items.map(toKey) })));
const newKeySchema = z.pipe(
  z.object({ data: newKeyObject }),
  z.transform(({ data }: { data: NewKeyFields }): NewKey => ({ ...toKey(data), key: data.key })),
);

// Each change is [before, after]; read as an array (z.tuple would bring zod's tuple into every page's
// first visit: zod's schemas share one module, which the entry chunk holds).
const change = z.array(z.unknown());
const auditObject = z.object({
  id,
  at,
  member: z.nullish(z.object({ id: z.nullish(id), name: z.string() })),
  key_id: z.nullish(z.number()),
  role: z.string(),
  action: z.string(),
  outcome: z.catch(z.enum(['done', 'refused']), 'done'),
  target: z.nullish(
    z.object({ type: z.string(), id: z.nullish(z.pipe(z.union([z.string(), z.number()]), z.transform(String))) }),
  ),
  changes: z.nullish(z.record(z.string(), change)),
  ip: z.nullish(z.string()),
});
type AuditFields = z.output<typeof auditObject>;
const toEntry = (e: AuditFields): AuditEntry => ({
  id: e.id,
  at: e.at,
  member: e.member ? { id: e.member.id ?? null, name: e.member.name } : null,
  keyId: e.key_id ?? null,
  role: e.role,
  action: e.action,
  outcome: e.outcome,
  target: e.target ? { type: e.target.type, id: e.target.id ?? null } : null,
  changes: e.changes
    ? Object.fromEntries(Object.entries(e.changes).map(([field, [before, after]]) => [field, [before, after]]))
    : null,
  ip: e.ip ?? null,
});
const auditPageSchema = z.pipe(
  pageSchema(auditObject),
  z.transform((page: Page<AuditFields>): Page<AuditEntry> => ({ ...page, items: page.items.map(toEntry) })),
);
const anyBody = z.unknown();

/**
 * The audit log's action names, for its Action filter: the writes (api-contract.md, and the reference
 * server's run.cancel and discover), then the reads a role may be refused, logged when they are.
 */
export const AUDIT_ACTIONS = [
  'report.create', 'report.update', 'report.delete', 'project.update', 'project.delete', 'project.client',
  'schedule.update', 'schedule.run', 'run.cancel', 'deploy.create', 'checks.update', 'client.create',
  'client.update', 'client.delete', 'share_link.create', 'share_link.delete', 'discover', 'alert.read',
  'webhook.create', 'webhook.delete', 'webhook.test', 'branding.update', 'branding.delete_logo',
  'digests.update', 'digests.send', 'member.create', 'member.update', 'member.delete', 'key.create',
  'key.delete', 'webhook.list', 'webhook.deliveries', 'digests.read', 'digests.preview', 'member.list',
  'key.list', 'audit.read',
] as const;

/** Members per page of Settings' list; a workspace has few. */
export const MEMBERS_PER_PAGE = 100;
export const AUDIT_PER_PAGE = 25;
const AUDIT_EXPORT_PER_PAGE = 100;

/** The audit log's filters as GET /audit takes them (ISO timestamps for since and until). */
export interface AuditFilters {
  member?: number;
  action?: string;
  since?: string;
  until?: string;
}

function fetchAuditPage(filters: AuditFilters, page: number, perPage: number, signal?: AbortSignal) {
  return apiRequest({ path: ['audit'], query: { ...filters, page, per_page: perPage }, signal }, auditPageSchema);
}

export const accountQueries = {
  members: () =>
    queryOptions({
      queryKey: accountKeys.members(),
      queryFn: ({ signal }) => apiRequest({ path: ['members'], query: { per_page: MEMBERS_PER_PAGE }, signal }, memberPageSchema),
    }),
  keys: (memberId: number) =>
    queryOptions({
      queryKey: accountKeys.keys(memberId),
      queryFn: ({ signal }) => apiRequest({ path: ['members', memberId, 'keys'], query: { per_page: MEMBERS_PER_PAGE }, signal }, keyPageSchema),
    }),
  audit: (filters: AuditFilters, page: number) =>
    queryOptions({
      queryKey: [...accountKeys.audit(), filters, page] as const,
      queryFn: ({ signal }) => fetchAuditPage(filters, page, AUDIT_PER_PAGE, signal),
      placeholderData: keepPreviousData,
    }),
};

/**
 * Every entry of the audit log matching `filters`, newest first, each once: the pages through
 * `scheduler` (a few at a time, paced to the rate limit). Rejects with the first error, or CancelledError.
 */
export async function collectAudit(
  filters: AuditFilters,
  scheduler: RequestScheduler,
  onProgress?: (done: number, total: number) => void,
): Promise<AuditEntry[]> {
  const controller = new AbortController();
  const fetchPage = (page: number) =>
    scheduler.run((signal) => {
      if (controller.signal.aborted) return Promise.reject(new CancelledError());
      return fetchAuditPage(filters, page, AUDIT_EXPORT_PER_PAGE, anySignal([signal, controller.signal]));
    });
  try {
    const first = await fetchPage(1);
    const pages: AuditEntry[][] = [first.items];
    let done = first.items.length;
    onProgress?.(done, first.meta.total);
    await Promise.all(
      Array.from({ length: first.meta.lastPage - 1 }, async (_, i) => {
        const page = await fetchPage(i + 2);
        pages[i + 1] = page.items;
        done += page.items.length;
        onProgress?.(done, first.meta.total);
      }),
    );
    // An entry written meanwhile shifts the pages by one: what came twice is kept once, where first seen.
    const seen = new Set<number>();
    return pages.flat().filter((entry) => !seen.has(entry.id) && seen.add(entry.id));
  } catch (error) {
    controller.abort(new CancelledError());
    throw isCancelled(error) ? new CancelledError(undefined, { cause: error }) : error;
  }
}

/** POST /members: the member and its first key, whose text is shown once and kept nowhere. */
export function useAddMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; role: Role }) =>
      apiRequest({ method: 'POST', path: ['members'], form: { name: input.name, role: input.role } }, newMemberSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.members() }),
  });
}

/** PATCH /members/{id}: its role (the last owner's is refused with a 422 on `role`). */
export function useSetRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { memberId: number; role: Role }) =>
      apiRequest({ method: 'PATCH', path: ['members', input.memberId], form: { role: input.role } }, memberSchema),
    // The owner may have changed their own role: what the pages show follows.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.members() }),
        queryClient.invalidateQueries({ queryKey: accountKeys.me() }),
      ]),
  });
}

/** DELETE /members/{id}: its keys stop working at once. */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memberId: number) => apiRequest({ method: 'DELETE', path: ['members', memberId] }, anyBody),
    onSuccess: (_data, memberId) => {
      queryClient.removeQueries({ queryKey: accountKeys.keys(memberId) });
      return queryClient.invalidateQueries({ queryKey: accountKeys.members() });
    },
  });
}

/** POST /members/{id}/keys: the key's text is in this answer only. */
export function useNewKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { memberId: number; label: string }) =>
      apiRequest({ method: 'POST', path: ['members', input.memberId, 'keys'], form: { label: input.label.trim() || null } }, newKeySchema),
    onSuccess: (_data, { memberId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.keys(memberId) }),
        queryClient.invalidateQueries({ queryKey: accountKeys.members() }),
      ]),
  });
}

/** DELETE /keys/{id}: its next request is refused (401). */
export function useRevokeKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { memberId: number; keyId: number }) => apiRequest({ method: 'DELETE', path: ['keys', input.keyId] }, anyBody),
    onSuccess: (_data, { memberId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.keys(memberId) }),
        queryClient.invalidateQueries({ queryKey: accountKeys.members() }),
      ]),
  });
}
