// Who the key belongs to (GET /me, where the server has `accounts`) and what its role may do. Small on
// purpose: every page asks it, to show or leave out the controls that change data.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ROLES } from '@/contract/accounts';
import type { Role } from '@/contract/accounts';
import { capabilitiesQuery, fetchCapabilities, rememberCapabilities, rememberedCapabilities, useCapabilities } from './capabilities';
import { ME_STORAGE_KEY, normaliseBaseUrl, readConnection } from './http/connection';
import { apiRequest } from './http/http';
import { accountKeys } from './query-keys';

export { ROLES };
export type { Role };

const meSchema = z.pipe(
  z.object({ data: z.object({ member: z.object({ id: z.number(), name: z.string() }), role: z.enum(ROLES) }) }),
  z.transform(({ data }: { data: { member: { id: number; name: string }; role: Role } }) => ({ ...data.member, role: data.role })),
);
export type Me = z.output<typeof meSchema>;

/** How long a page opened again uses the member it was told without asking (a refused write asks at once). */
export const ME_REMEMBERED_MS = 5 * 60_000;

// The member of the connection in use, remembered on the device, so that a page opened again shows
// the role's controls from its first paint, and asks nothing within ME_REMEMBERED_MS (issue 50: a
// list's first load asks at most two things besides its list); after that it still paints with it,
// and asks. One entry, for one connection: its base URL and a 32-bit FNV-1a digest of its key (the
// key is in this storage already; the digest cannot give it back). Signing in fills it (learnMember).
type Remembered = { connection: string; at: number; data: Me };

function connectionId({ baseUrl, apiKey }: { baseUrl: string; apiKey: string | null } = readConnection()): string | null {
  if (apiKey === null) return null;
  let hash = 0x811c9dc5;
  for (let i = 0; i < apiKey.length; i++) hash = Math.imul(hash ^ apiKey.charCodeAt(i), 0x01000193);
  return `${baseUrl} ${(hash >>> 0).toString(16)}`;
}

function remembered(): { at: number; data: Me } | undefined {
  try {
    const entry = JSON.parse(window.localStorage.getItem(ME_STORAGE_KEY) ?? 'null') as Partial<Remembered> | null;
    const data = entry?.data;
    if (!entry || entry.connection !== connectionId() || typeof entry.at !== 'number') return undefined;
    if (!data || typeof data.id !== 'number' || typeof data.name !== 'string') return undefined;
    return ROLES.includes(data.role) ? { at: entry.at, data: { id: data.id, name: data.name, role: data.role } } : undefined;
  } catch {
    return undefined;
  }
}

function remember(data: Me, of?: { baseUrl: string; apiKey: string }): void {
  const connection = connectionId(of);
  try {
    if (connection !== null)
      window.localStorage.setItem(ME_STORAGE_KEY, JSON.stringify({ connection, at: Date.now(), data } satisfies Remembered));
  } catch {
    // Asked again next time.
  }
}

export const meQuery = () =>
  queryOptions({
    queryKey: accountKeys.me(),
    queryFn: async ({ signal }) => {
      const me = await apiRequest({ path: ['me'], signal }, meSchema);
      remember(me);
      return me;
    },
    initialData: () => remembered()?.data,
    initialDataUpdatedAt: () => remembered()?.at,
    // A role changes seldom; a refused write (403) says so anyway.
    staleTime: ME_REMEMBERED_MS,
  });

/**
 * Signing in, before the key is saved: asks who it belongs to (where the deployment has accounts)
 * and remembers it on the device for that connection, so the first page after signing in paints the
 * role's controls from its first frame: a viewer never sees, even briefly, a control to change data.
 * The deployment's extensions come from the device when known for the base URL, else are asked and
 * remembered too (the page would ask them next). Failing, it leaves both to the page.
 */
export async function learnMember(typed: { baseUrl: string; apiKey: string }, signal?: AbortSignal): Promise<void> {
  const connection = { baseUrl: normaliseBaseUrl(typed.baseUrl), apiKey: typed.apiKey.trim() };
  try {
    let capabilities = rememberedCapabilities(connection.baseUrl)?.data;
    if (!capabilities) {
      capabilities = await fetchCapabilities(signal, connection);
      rememberCapabilities(connection.baseUrl, capabilities);
    }
    if (!capabilities.accounts) return;
    remember(await apiRequest({ path: ['me'], signal, connection }, meSchema), connection);
  } catch {
    // The page asks.
  }
}

/**
 * Opened with a sign-in link (its key just saved): who the key is, into the cache, before the first
 * render, for the same reason as learnMember. The deployment's extensions are the ones the page's
 * data asks anyway (page-data.ts), so nothing is asked twice. Failing, the page asks and says why.
 */
export async function knowMember(queryClient: QueryClient): Promise<void> {
  try {
    const capabilities = await queryClient.ensureQueryData(capabilitiesQuery());
    if (capabilities.accounts) await queryClient.fetchQuery(meQuery());
  } catch {
    // The page asks again, and shows what went wrong.
  }
}

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
