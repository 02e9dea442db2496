// Which extensions (api-contract.md) the connected deployment has: asked once per connection (the
// cache is dropped when the base URL or key changes), and remembered on the device per base URL for
// an hour, so that a page opened again asks nothing (a deployment without GET /capabilities answers
// 404, which the browser's console shows each time it is asked: issue 50). None of them: 404.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Capabilities } from '@/contract/strict-schemas';
import { isApiError } from './http/errors';
import { readConnection } from './http/connection';
import { apiRequest } from './http/http';
import { NO_CAPABILITIES, capabilitiesSchema } from './lenient-schemas';

export type { Capabilities } from '@/contract/strict-schemas';
export { NO_CAPABILITIES } from './lenient-schemas';

/**
 * GET /capabilities; a 404 (or 405: a deployment that routes the path elsewhere) is "none".
 * `connection`: values to ask with instead of the saved ones (signing in).
 */
export async function fetchCapabilities(signal?: AbortSignal, connection?: { baseUrl: string; apiKey: string }): Promise<Capabilities> {
  try {
    return await apiRequest({ path: ['capabilities'], signal, ...(connection ? { connection } : {}) }, capabilitiesSchema);
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 405)) return NO_CAPABILITIES;
    throw error;
  }
}

/** How long a deployment's answer is used without asking again: its extensions change with its version. */
export const CAPABILITIES_REMEMBERED_MS = 60 * 60 * 1000;
const STORAGE_KEY = 'webpage-report.capabilities';

type Remembered = Record<string, { at: number; data: Capabilities }>;

function readRemembered(): Remembered {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Remembered) : {};
  } catch {
    return {};
  }
}

/** The answer remembered for this base URL, if it is recent and well-formed. */
export function rememberedCapabilities(baseUrl: string): { at: number; data: Capabilities } | undefined {
  const entry = readRemembered()[baseUrl];
  if (typeof entry?.at !== 'number' || Date.now() - entry.at > CAPABILITIES_REMEMBERED_MS) return undefined;
  const flags = { ...NO_CAPABILITIES };
  for (const key of Object.keys(flags) as (keyof Capabilities)[]) flags[key] = entry.data?.[key] === true;
  return { at: entry.at, data: flags };
}

/** Remembers an answer for this base URL (one entry per base URL; nothing when storage is refused). */
export function rememberCapabilities(baseUrl: string, data: Capabilities): void {
  try {
    const all = readRemembered();
    all[baseUrl] = { at: Date.now(), data };
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // Asked again next time.
  }
}

export const capabilitiesQuery = () =>
  queryOptions({
    queryKey: ['capabilities'] as const,
    queryFn: async ({ signal }) => {
      const { baseUrl } = readConnection();
      const data = await fetchCapabilities(signal);
      rememberCapabilities(baseUrl, data);
      return data;
    },
    initialData: () => rememberedCapabilities(readConnection().baseUrl)?.data,
    initialDataUpdatedAt: () => rememberedCapabilities(readConnection().baseUrl)?.at,
    staleTime: CAPABILITIES_REMEMBERED_MS,
    gcTime: Infinity,
  });

/** The deployment's extensions; `capabilities` is null until known (or when asking failed). */
export function useCapabilities() {
  const query = useQuery(capabilitiesQuery());
  return { capabilities: query.data ?? null, isPending: query.isPending, error: query.error };
}
