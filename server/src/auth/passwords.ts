import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { PASSWORD_MAX_LENGTH } from '../../../src/contract/values';
import { passwordLength } from '../../../src/contract/values';

// OWASP's minimum for scrypt; N = 2^15 with r = 8 needs 32 MiB, hence the raised maxmem. One hash
// took 60-100 ms on one core of the 2-core test machine: with HASH_CONCURRENCY that is 10-16
// checks a second per process, which the public page's attempt limits stay far below.
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

/**
 * scrypt runs on libuv's thread pool (4 threads), which file reads, compression and DNS share: a
 * flood of wrong passwords held all four and made one static file take 110 s. At most this many
 * hashes run at once, whatever the callers; the rest wait in line.
 */
export const HASH_CONCURRENCY = 1;
/** Checks of a visitor's password that may wait for their turn; one more is refused at once (PasswordBusyError). */
export const VERIFY_QUEUE = 16;

/** Too many passwords are being checked already: the visitor is asked to try again shortly. */
export class PasswordBusyError extends Error {
  override name = 'PasswordBusyError';
  readonly retryAfterS = 5;
  constructor() {
    super('Too many passwords are being checked at once.');
  }
}

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when a hashing slot is free; `maxWaiting`: refuse rather than wait behind that many. */
async function inTurn<T>(work: () => Promise<T>, maxWaiting = Infinity): Promise<T> {
  if (running >= HASH_CONCURRENCY) {
    if (waiting.length >= maxWaiting) throw new PasswordBusyError();
    // The finishing hash hands its slot over: `running` stays as it is.
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** A password as it is hashed and counted: Unicode NFC, so "é" typed either way is the same password. */
export function normalisePassword(password: string): string {
  return password.normalize('NFC');
}

/** Whether a password is over the contract's PASSWORD_MAX_LENGTH characters. */
export function passwordTooLong(password: string): boolean {
  return passwordLength(password) > PASSWORD_MAX_LENGTH;
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(normalisePassword(password), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEMORY }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

/** A salted scrypt hash of a report password, self-describing: `scrypt$N$r$p$salt$hash`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await inTurn(() => derive(password, salt, N, R, P));
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Checks a password against a stored hash in constant time. Throws PasswordBusyError when
 * VERIFY_QUEUE checks wait already, so a flood is answered at once instead of queueing.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await inTurn(() => derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p)), VERIFY_QUEUE);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
