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
  const { capabilities, isPending } = useCapabilities();
  const accounts = capabilities?.accounts === true;
  const query = useQuery({ ...meQuery(), enabled: accounts });
  // Pending too while the capabilities are asked: a control shown then would go while the role is asked.
  return { me: query.data ?? null, accounts, pending: isPending || (accounts && query.isPending) };
}

/** What a control needs: changing data (editor, owner) or managing the workspace (owner). */
export type Permission = 'change-data' | 'manage';

/**
 * Whether the key's role may do `need`: always where the server has no accounts; while that or the role is
 * being asked, not yet (no control shows that a viewer would then lose); if asking failed, yes (the server
 * still refuses what the role may not). `role` names a role that may not, for the note in its place.
 */
export function usePermission(need: Permission): { allowed: boolean; role: Role | null } {
  const { me, accounts, pending } = useMe();
  if (!accounts) return { allowed: !pending, role: null };
  if (!me) return { allowed: !pending, role: null };
  const allowed = me.role === 'owner' || (need === 'change-data' && me.role === 'editor');
  return { allowed, role: allowed ? null : me.role };
}
