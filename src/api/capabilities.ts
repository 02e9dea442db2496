// Which of the wave-3 extensions (api-contract.md) the connected deployment has: asked once per
// connection (the cache is dropped when the base URL or key changes) and kept for the session.
// A deployment without GET /capabilities answers 404: it has none of them.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Capabilities } from '@/contract/strict-schemas';
import { isApiError } from './http/errors';
import { apiRequest } from './http/http';
import { NO_CAPABILITIES, capabilitiesSchema } from './lenient-schemas';

export type { Capabilities } from '@/contract/strict-schemas';
export { NO_CAPABILITIES } from './lenient-schemas';

/** GET /capabilities; a 404 (or 405: a deployment that routes the path elsewhere) is "none". */
export async function fetchCapabilities(signal?: AbortSignal): Promise<Capabilities> {
  try {
    return await apiRequest({ path: ['capabilities'], signal }, capabilitiesSchema);
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 405)) return NO_CAPABILITIES;
    throw error;
  }
}

export const capabilitiesQuery = () =>
  queryOptions({
    queryKey: ['capabilities'] as const,
    queryFn: ({ signal }) => fetchCapabilities(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });

/** The deployment's extensions; `capabilities` is null until known (or when asking failed). */
export function useCapabilities() {
  const query = useQuery(capabilitiesQuery());
  return { capabilities: query.data ?? null, isPending: query.isPending, error: query.error };
}
