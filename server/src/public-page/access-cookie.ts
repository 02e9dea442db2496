// The cookie that opens one password-protected report page: an HMAC of the report id keyed by the
// report's stored password hash. It needs no storage of its own, cannot open another report, and is
// worthless once the password changes or is discarded (the hash it was made with is gone).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { publicPagePath } from './page-url';

function cookieName(id: number): string {
  return `report-${id}`;
}

function accessToken(id: number, passwordHash: string): Buffer {
  return createHmac('sha256', passwordHash).update(`report-page:${id}`).digest();
}

/** Whether the request carries a valid cookie for report `id` with its current password hash. */
export function hasAccess(c: Context, id: number, passwordHash: string): boolean {
  const sent = getCookie(c, cookieName(id));
  if (!sent) return false;
  const expected = accessToken(id, passwordHash);
  const actual = Buffer.from(sent, 'base64url');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Sets the cookie for report `id`: sent back to that report's page only, never to scripts or other sites. */
export function grantAccess(c: Context, id: number, passwordHash: string, secure: boolean): void {
  setCookie(c, cookieName(id), accessToken(id, passwordHash).toString('base64url'), {
    path: publicPagePath(id),
    httpOnly: true,
    sameSite: 'Strict',
    secure,
  });
}

// A share link's password opens it the same way: `share-<id>`, an HMAC of the link's id keyed by its
// password hash, sent back only to the link's own address.
function shareToken(id: number, passwordHash: string): Buffer {
  return createHmac('sha256', passwordHash).update(`share-page:${id}`).digest();
}

/** Whether the request carries a valid cookie for share link `id` with its password hash. */
export function hasShareAccess(c: Context, id: number, passwordHash: string): boolean {
  const sent = getCookie(c, `share-${id}`);
  if (!sent) return false;
  const expected = shareToken(id, passwordHash);
  const actual = Buffer.from(sent, 'base64url');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Sets the cookie for share link `id`, for its page at `path` only. */
export function grantShareAccess(c: Context, id: number, passwordHash: string, path: string, secure: boolean): void {
  setCookie(c, `share-${id}`, shareToken(id, passwordHash).toString('base64url'), {
    path,
    httpOnly: true,
    sameSite: 'Strict',
    secure,
  });
}
