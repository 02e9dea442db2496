import { describe, expect, it } from 'vitest';
import { rememberSignInTarget, takeSignInTarget } from './sign-in-target';

describe('sign-in target', () => {
  it('hands back the kept path once', () => {
    rememberSignInTarget('/projects/a%20b?page=2');
    expect(takeSignInTarget()).toBe('/projects/a%20b?page=2');
    expect(takeSignInTarget()).toBeNull();
  });

  it('hands back nothing that would lead off this site', () => {
    for (const path of [
      '//evil.example/x',
      '/\\evil.example/x',
      'https://evil.example/',
      'javascript:alert(1)',
    ]) {
      window.sessionStorage.setItem('webpage-report.sign-in-target', path);
      expect(takeSignInTarget()).toBeNull();
    }
  });
});
