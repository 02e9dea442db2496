import { describe, expect, it } from 'vitest';
import { hashPassword, PasswordBusyError, passwordTooLong, VERIFY_QUEUE, verifyPassword } from './passwords';
import { passwordLength } from '../../../src/contract/values';

describe('passwords', () => {
  it('are counted in code points after NFC', () => {
    expect(passwordLength('🔑🔑')).toBe(2);
    expect(passwordLength('e\u0301')).toBe(1);
    expect(passwordTooLong('🔑'.repeat(128))).toBe(false);
    expect(passwordTooLong('🔑'.repeat(129))).toBe(true);
  });

  it('are hashed one at a time, and a visitor’s check beyond the waiting line is refused at once', async () => {
    const stored = await hashPassword('right');
    const started = performance.now();
    const one = await verifyPassword('right', stored).then(() => performance.now() - started);
    const checks = Array.from({ length: VERIFY_QUEUE + 3 }, () => verifyPassword('wrong', stored).then(
      (right) => right,
      (error: unknown) => error,
    ));
    const outcomes = await Promise.all(checks);
    // One running, VERIFY_QUEUE waiting: the two after them are refused.
    expect(outcomes.filter((o) => o instanceof PasswordBusyError)).toHaveLength(2);
    expect(outcomes.filter((o) => o === false)).toHaveLength(VERIFY_QUEUE + 1);
    expect(one).toBeGreaterThan(0);
    // The API's hashing waits its turn rather than being refused.
    expect(await Promise.all([hashPassword('a'), hashPassword('b'), verifyPassword('right', stored)])).toHaveLength(3);
  }, 60_000);
});
