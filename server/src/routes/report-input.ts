import { PASSWORD_MAX_LENGTH, URL_MAX_LENGTH, type Privacy } from '../../../src/api/contract';
import type { FieldErrors } from '../http/errors';
import type { Input } from '../http/body';
import { passwordTooLong } from '../auth/passwords';

// Laravel's wording, which is what clients of the real service already show.
export const MESSAGES = {
  urlRequired: 'The url field is required.',
  urlString: 'The url must be a string.',
  urlMax: `The url must not be greater than ${URL_MAX_LENGTH} characters.`,
  urlFormat: 'The url format is invalid.',
  privacy: 'The selected privacy is invalid.',
  passwordRequired: 'The password field is required when privacy is 2.',
  passwordString: 'The password must be a string.',
  passwordMax: `The password must not be greater than ${PASSWORD_MAX_LENGTH} characters.`,
  results: 'The selected results is invalid.',
} as const;

/** Absent, null and the empty string all mean "not given", as for an empty form field. */
function given(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function codePoints(text: string): number {
  return [...text].length;
}

function readPrivacy(value: unknown, errors: FieldErrors): Privacy | undefined {
  if (!given(value)) return undefined;
  const text = typeof value === 'number' || typeof value === 'string' ? String(value).trim() : '';
  if (text === '0' || text === '1' || text === '2') return Number(text) as Privacy;
  errors.privacy = [MESSAGES.privacy];
  return undefined;
}

function readPassword(value: unknown, errors: FieldErrors): string | undefined {
  if (!given(value)) return undefined;
  if (typeof value !== 'string') {
    errors.password = [MESSAGES.passwordString];
    return undefined;
  }
  // Counted as the public page counts it (auth/passwords.ts), so every password accepted here can open its page.
  if (passwordTooLong(value)) {
    errors.password = [MESSAGES.passwordMax];
    return undefined;
  }
  return value;
}

function readUrl(value: unknown, errors: FieldErrors): string | undefined {
  if (typeof value === 'string' ? value.trim() === '' : !given(value)) {
    errors.url = [MESSAGES.urlRequired];
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.url = [MESSAGES.urlString];
    return undefined;
  }
  const url = value.trim();
  if (codePoints(url) > URL_MAX_LENGTH) {
    errors.url = [MESSAGES.urlMax];
    return undefined;
  }
  // The URL parser would quietly drop tabs and newlines and encode the rest; stored as given, they
  // would be a different address from the one fetched.
  if (/[\p{Cc}\p{Cf}\p{Z}\s]/u.test(url)) {
    errors.url = [MESSAGES.urlFormat];
    return undefined;
  }
  // The scheme must be typed out in full: the URL parser would also accept `http:example.com`.
  let parsed: URL | null = null;
  try {
    parsed = /^https?:\/\//i.test(url) ? new URL(url) : null;
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    errors.url = [MESSAGES.urlFormat];
    return undefined;
  }
  return url;
}

export interface StoreInput {
  url: string;
  privacy: Privacy;
  /** Only when privacy is 2. */
  password: string | null;
}

export function parseStoreInput(input: Input): { ok: true; value: StoreInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const url = readUrl(input.url, errors);
  const privacy = readPrivacy(input.privacy, errors) ?? 0;
  let password: string | null = null;
  if (privacy === 2 && !errors.privacy) {
    if (!given(input.password)) errors.password = [MESSAGES.passwordRequired];
    else password = readPassword(input.password, errors) ?? null;
  }
  if (url === undefined || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { url, privacy, password } };
}

export interface UpdateInput {
  privacy: Privacy | undefined;
  /** A new password to store (only when the resulting privacy is 2). */
  password: string | undefined;
  /** Whether to discard the stored password (the resulting privacy is not 2). */
  discardPassword: boolean;
  reanalyse: boolean;
}

export function parseUpdateInput(
  input: Input,
  current: { privacy: Privacy; hasPassword: boolean },
): { ok: true; value: UpdateInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const privacy = readPrivacy(input.privacy, errors);
  const effective = privacy ?? current.privacy;
  let password: string | undefined;
  if (effective === 2 && !errors.privacy) {
    password = readPassword(input.password, errors);
    if (!given(input.password) && !current.hasPassword) errors.password = [MESSAGES.passwordRequired];
  }
  let reanalyse = false;
  const results = input.results;
  if (given(results)) {
    const text = typeof results === 'number' || typeof results === 'string' || typeof results === 'boolean' ? String(results).trim() : '';
    if (text === '1' || text === 'true') reanalyse = true;
    else if (text !== '0' && text !== 'false') errors.results = [MESSAGES.results];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: { privacy, password, discardPassword: effective !== 2 && current.hasPassword, reanalyse },
  };
}
