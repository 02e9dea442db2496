import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, passwordLength } from './values';

describe('passwordLength (the API, the public page and the forms count alike)', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(passwordLength('🔑🔑')).toBe(2);
    expect(passwordLength('🔑'.repeat(PASSWORD_MAX_LENGTH))).toBe(PASSWORD_MAX_LENGTH);
  });

  it('counts a composed and a decomposed letter alike (NFC)', () => {
    expect(passwordLength('e\u0301')).toBe(1);
    expect(passwordLength('é')).toBe(1);
  });
});
