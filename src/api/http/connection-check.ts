// Settings' "Test connection": one real list request with the values typed in the form, and an
// answer that tells apart the cases a person can act on.
import { blockedCause, blockedMessage, watchConnectSrc } from './blocked-request';
import type { BlockedCause } from './blocked-request';
import { normaliseBaseUrl } from './connection';
import { API_ERROR_TEXT, isApiError, statusSentence } from './errors';
import { apiRequest, apiUrl } from './http';
import { reportPageSchema } from '@/api/lenient-schemas';

export type ConnectionCheckResult =
  | { ok: true }
  | {
      ok: false;
      /** 'csp', 'cors', 'insecure' and 'unreachable': no answer came, for that reason (see blocked-request.ts). */
      reason: 'unauthenticated' | 'no-api-access' | BlockedCause | 'not-this-api' | 'error';
      message: string;
    };

const PATH = ['reports'] as const;
const QUERY = { per_page: 10 } as const;

function describe(baseUrl: string): string {
  return baseUrl === '' ? 'this dashboard’s own server' : baseUrl;
}

/** Lists one page of reports with the given base URL and key (saved or not) and says what happened. */
export async function checkConnection(
  c: { baseUrl: string; apiKey: string },
  signal?: AbortSignal,
): Promise<ConnectionCheckResult> {
  const baseUrl = normaliseBaseUrl(c.baseUrl);
  let watch: ReturnType<typeof watchConnectSrc> | null = null;
  try {
    const url = apiUrl(baseUrl, PATH, QUERY);
    watch = watchConnectSrc(url);
    await apiRequest(
      { path: PATH, query: QUERY, signal, connection: { baseUrl, apiKey: c.apiKey } },
      reportPageSchema,
    );
    return { ok: true };
  } catch (error) {
    if (signal?.aborted) throw error;
    if (!isApiError(error)) throw error;
    switch (error.kind) {
      case 'unauthenticated':
        return {
          ok: false,
          reason: 'unauthenticated',
          message: error.status === 0 ? error.message : API_ERROR_TEXT.unauthenticated,
        };
      case 'no-api-access':
        return { ok: false, reason: 'no-api-access', message: API_ERROR_TEXT.noApiAccess };
      case 'network': {
        // Without a watch the base URL itself was unusable: no request went out.
        if (!watch) return { ok: false, reason: 'unreachable', message: error.message };
        const url = apiUrl(baseUrl, PATH);
        const cause = await blockedCause(url, { cspBlocked: watch.blocked, signal });
        return { ok: false, reason: cause, message: blockedMessage(cause, url.origin) };
      }
      case 'timeout':
        return { ok: false, reason: 'unreachable', message: error.message };
      case 'unexpected':
        return notThisApi(baseUrl);
      case 'not-found':
      case 'method-not-allowed':
        // The list of reports exists on every deployment: without it, the base URL leads elsewhere.
        return notThisApi(baseUrl);
      case 'forbidden':
        // The "not your report" wording of a 403 makes no sense for a list; the status does.
        return { ok: false, reason: 'error', message: statusSentence(403) };
      case 'server':
      case 'rate-limited':
        return { ok: false, reason: 'error', message: error.message };
      default:
        // A 4xx that is not the service's JSON (a web server's HTML page) comes from something else.
        return error.fromApi ? { ok: false, reason: 'error', message: error.message } : notThisApi(baseUrl);
    }
  } finally {
    watch?.stop();
  }
}

function notThisApi(baseUrl: string): ConnectionCheckResult {
  return {
    ok: false,
    reason: 'not-this-api',
    message: `The server at ${describe(baseUrl)} answered, but not as the Webpage Report Service API does. Check the base URL.`,
  };
}
