import { expect, it } from 'vitest';
import { fingerprint } from './fingerprint.js';

it('is stable, 16 hex digits, and does not contain its input', () => {
  const hash = fingerprint('store', 'owner-login', 'auth-token-value');
  expect(hash).toMatch(/^[0-9a-f]{16}$/);
  expect(fingerprint('store', 'owner-login', 'auth-token-value')).toBe(hash);
  expect(hash).not.toContain('auth-token-value');
});

it('tells different inputs and different splits apart', () => {
  expect(fingerprint('token-a')).not.toBe(fingerprint('token-b'));
  expect(fingerprint('ab', 'c')).not.toBe(fingerprint('a', 'bc'));
});
