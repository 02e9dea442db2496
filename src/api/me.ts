// Who the key belongs to (GET /me, where the server has `accounts`) and what its role may do. Small on
// purpose: every page asks it, to show or leave out the controls that change data.
import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ROLES } from '@/contract/accounts';
import type { Role } from '@/contract/accounts';
import { useCapabilities } from './capabilities';
import { apiRequest } from './http/http';
import { accountKeys } from './query-keys';

export { ROLES };
export type { Role };

const meSchema = z.pipe(
  z.object({ data: z.object({ member: z.object({ id: z.number(), name: z.string() }), role: z.enum(ROLES) }) }),
  z.transform(({ data }: { data: { member: { id: number; name: string }; role: Role } }) => ({ ...data.member, role: data.role })),
);
export type Me = z.output<typeof meSchema>;

export const meQuery = () =>
  queryOptions({
    queryKey: accountKeys.me(),
    queryFn: ({ signal }) => apiRequest({ path: ['me'], signal }, meSchema),
    // A role changes seldom; a refused write (403) says so anyway.
    staleTime: 5 * 60_000,
  });

/** The member the key belongs to, where the server has accounts (null elsewhere, and until known). */
export function useMe(): { me: Me | null; accounts: boolean; pending: boolean } {
  const accounts = useCapabilities().capabilities?.accounts === true;
  const query = useQuery({ ...meQuery(), enabled: accounts });
  return { me: accounts ? (query.data ?? null) : null, accounts, pending: accounts && query.isPending };
}

/** What a control needs: changing data (editor, owner) or managing the workspace (owner). */
export type Permission = 'change-data' | 'manage';

/**
 * Whether the key's role may do `need`: always where the server has no accounts. Until GET /me has
 * answered, changing data is allowed, so that an owner's or editor's page never waits for it nor loses
 * a form it would take away and give back (the server refuses what the role may not anyway); managing
 * is not, because the owner's sections start with owner-only reads, whose refusals the audit log keeps.
 * `role` names a role that may not, for the note in its place.
 */
export function usePermission(need: Permission): { allowed: boolean; role: Role | null } {
  const { capabilities } = useCapabilities();
  const { me } = useMe();
  if (!me) return { allowed: need === 'change-data' || capabilities?.accounts === false, role: null };
  const allowed = me.role === 'owner' || (need === 'change-data' && me.role === 'editor');
  return { allowed, role: allowed ? null : me.role };
}
