// The one error the API layer throws: what went wrong in words a person understands, plus what
// screens need to react (field errors for forms, Retry-After for rate limits).

export type ApiErrorKind =
  | 'network'
  | 'timeout'
  | 'unauthenticated'
  | 'forbidden'
  | 'no-api-access'
  | 'not-found'
  | 'method-not-allowed'
  | 'validation'
  | 'rate-limited'
  | 'server'
  | 'unexpected'
  | 'http';

export interface ApiErrorInit {
  status: number;
  kind: ApiErrorKind;
  message: string;
  fieldErrors?: Record<string, string[]>;
  retryAfter?: number | null;
  /** True when the body had the service's error shape (a JSON object with `message`). */
  fromApi?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status; 0 when no answer came (network failure, timeout). */
  readonly status: number;
  readonly kind: ApiErrorKind;
  readonly fieldErrors: Record<string, string[]>;
  /** Seconds to wait before trying again (429, or 503 "analysis queue full", with Retry-After). */
  readonly retryAfter: number | null;
  readonly fromApi: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.kind = init.kind;
    this.fieldErrors = init.fieldErrors ?? {};
    this.retryAfter = init.retryAfter ?? null;
    this.fromApi = init.fromApi ?? false;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** What to tell a person about a failure: an ApiError's words, or that the dashboard itself failed. */
export function errorMessage(error: unknown, fallback = 'An unexpected error occurred in the dashboard.'): string {
  // Anything but an ApiError is a bug in the dashboard, not a message written for people.
  return isApiError(error) ? error.message : fallback;
}

export const API_ERROR_TEXT = {
  unauthenticated: 'The API key is missing or invalid.',
  forbidden: 'This report does not exist or does not belong to your API key.',
  noApiAccess: 'This account is not allowed to use the API.',
  notFound: 'The requested item was not found. It may have been deleted.',
  methodNotAllowed: 'The server does not allow this operation here (405 Method Not Allowed).',
  unexpected: 'The server answered, but not as the Webpage Report Service API does.',
  validation: 'The server did not accept the input.',
} as const;

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  419: 'Page Expired',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** "The server answered 502 Bad Gateway." from the status, for bodies that say nothing usable. */
export function statusSentence(status: number, statusText = ''): string {
  const reason = REASONS[status] ?? statusText.trim();
  return `The server answered ${status}${reason ? ` ${reason}` : ''}.`;
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date = new Date()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // Only an HTTP date (`Fri, 20 Nov 2026 10:00:30 GMT`); Date.parse would take "-5" for a year.
  const at = /^[a-z]{3}, /i.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toFieldErrors(value: unknown): Record<string, string[]> {
  if (!isRecord(value)) return {};
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    const list = (Array.isArray(messages) ? messages : [messages])
      .filter((m) => m !== null && m !== undefined && m !== '')
      .map((m) => (typeof m === 'string' ? m : JSON.stringify(m)));
    if (list.length > 0) out[field] = list;
  }
  return out;
}

function rateLimitMessage(retryAfter: number | null): string {
  if (retryAfter === null)
    return 'Too many requests: the server’s rate limit was reached. Try again shortly.';
  if (retryAfter <= 1)
    return 'Too many requests: the server’s rate limit was reached. Try again in a second.';
  return `Too many requests: the server’s rate limit was reached. Try again in ${retryAfter} seconds.`;
}

/** Builds the error for a non-2xx answer, whatever its body (contract JSON, Laravel JSON, HTML, nothing). */
export function errorFromResponse(
  response: { status: number; statusText?: string; headers: Headers },
  bodyText: string,
  options: { secret?: string | null; now?: Date } = {},
): ApiError {
  const { status } = response;
  const body = parseJson(bodyText);
  const fromApi = isRecord(body) && 'message' in body;
  const rawMessage = fromApi ? body.message : undefined;
  const serverText = typeof rawMessage === 'string' ? rawMessage.trim() : '';
  const fallback = statusSentence(status, response.statusText);
  const base = { status, fromApi };

  let error: ApiError;
  if (status === 401) {
    error = new ApiError({ ...base, kind: 'unauthenticated', message: API_ERROR_TEXT.unauthenticated });
  } else if (status === 403) {
    if (/don.?t have access/i.test(serverText)) {
      error = new ApiError({ ...base, kind: 'no-api-access', message: API_ERROR_TEXT.noApiAccess });
    } else if (serverText === '' || /unauthori[sz]ed/i.test(serverText)) {
      error = new ApiError({ ...base, kind: 'forbidden', message: API_ERROR_TEXT.forbidden });
    } else {
      error = new ApiError({ ...base, kind: 'forbidden', message: serverText });
    }
  } else if (status === 404) {
    // Laravel's own 404 texts name routes and model classes; they mean nothing to a person.
    error = new ApiError({ ...base, kind: 'not-found', message: API_ERROR_TEXT.notFound });
  } else if (status === 405) {
    error = new ApiError({ ...base, kind: 'method-not-allowed', message: API_ERROR_TEXT.methodNotAllowed });
  } else if (status === 422) {
    // The service puts the field map in `message`; stock Laravel puts it in `errors`.
    const fieldErrors = isRecord(body)
      ? { ...toFieldErrors(body.errors), ...toFieldErrors(body.message) }
      : {};
    const all = Object.values(fieldErrors).flat();
    const message = all.length > 0 ? all.join(' ') : serverText || API_ERROR_TEXT.validation;
    error = new ApiError({ ...base, kind: 'validation', message, fieldErrors });
  } else if (status === 429) {
    const retryAfter = parseRetryAfter(response.headers.get('Retry-After'), options.now);
    error = new ApiError({
      ...base,
      kind: 'rate-limited',
      message: rateLimitMessage(retryAfter),
      retryAfter,
    });
  } else if (status >= 500 && status <= 599) {
    // A full analysis queue (503) says when it expects room again; retrying sooner only adds load.
    const retryAfter =
      status === 503 ? parseRetryAfter(response.headers.get('Retry-After'), options.now) : null;
    error = new ApiError({ ...base, kind: 'server', message: serverText || fallback, retryAfter });
  } else {
    error = new ApiError({ ...base, kind: 'http', message: serverText || fallback });
  }
  return redact(error, options.secret);
}

/** No answer at all: the host is unreachable, refused the connection, or the browser blocked it (CORS). */
export function networkError(target: string, cause?: unknown): ApiError {
  const where = target ? ` at ${target}` : '';
  return new ApiError({
    status: 0,
    kind: 'network',
    message: `Could not reach the server${where}. It may be down or unreachable, or it may not allow requests from this page (CORS).`,
    cause,
  });
}

export function timeoutError(ms: number): ApiError {
  const seconds = Math.round(ms / 1000);
  return new ApiError({
    status: 0,
    kind: 'timeout',
    message: `The server did not answer within ${seconds} second${seconds === 1 ? '' : 's'}.`,
  });
}

/** A 2xx answer that is not what this API sends (another site, a login page, a different API). */
export function unexpectedResponseError(status: number, cause?: unknown): ApiError {
  return new ApiError({ status, kind: 'unexpected', message: API_ERROR_TEXT.unexpected, cause });
}

// A deployment that echoes the Authorization header into an error must not put the key on screen.
// Very short keys are left alone: replacing a one-letter "key" everywhere would garble the text.
function redact(error: ApiError, secret: string | null | undefined): ApiError {
  if (!secret || secret.length < 4) return error;
  const clean = (text: string) => text.split(secret).join('[hidden]');
  if (
    !error.message.includes(secret) &&
    !Object.values(error.fieldErrors)
      .flat()
      .some((m) => m.includes(secret))
  ) {
    return error;
  }
  return new ApiError({
    status: error.status,
    kind: error.kind,
    message: clean(error.message),
    fieldErrors: Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.map(clean)])),
    retryAfter: error.retryAfter,
    fromApi: error.fromApi,
  });
}
