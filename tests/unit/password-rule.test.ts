/**
 * The one password rule (schema/passwordRule.mjs): what it accepts and refuses, that the seeded and
 * test accounts follow it, and that the local stack refuses to seed an admin that breaks it.
 */
import { describe, expect, it } from 'vitest';
import { LocalStackError } from '../../lib/local/errors';
import { DEFAULT_ADMIN, startLocalStack } from '../../lib/local/stack';
import { meetsPasswordRule, PASSWORD_RULE, PASSWORD_RULE_MESSAGE } from '../../schema/passwordRule.mjs';
import { TEST_PASSWORD } from '../support/accounts';
import { PASSWORD as E2E_PASSWORD } from '../e2e/helpers';

describe('the password rule', () => {
  it('says what it asks for', () => {
    expect(PASSWORD_RULE_MESSAGE).toBe('Use at least 10 characters, with an uppercase letter, a lowercase letter, a number and a symbol.');
    expect(PASSWORD_RULE.minLength).toBe(10);
  });

  it.each(['short', 'password', 'abc', 'Abcdefghij1', 'abcdefgh-12', 'ABCDEFGH-12', 'Abcdefghij-', 'Abc-12345', '', ' Abcdefgh-1', 'Abcdefgh-1 '])(
    'refuses %j',
    (password) => {
      expect(meetsPasswordRule(password)).toBe(false);
    },
  );

  it.each(['Abcdefgh-1', 'Pitch-test-1234', 'Zz9^zzzzzz', 'Über-Passwort-1', 'aB3~aaaaaa', 'Abcdefgh 12'])('accepts %j', (password) => {
    expect(meetsPasswordRule(password)).toBe(true);
  });

  it('refuses what is not a string', () => {
    expect(meetsPasswordRule(undefined)).toBe(false);
    expect(meetsPasswordRule(1234567890)).toBe(false);
  });

  it('is followed by the seeded admin and the test accounts', () => {
    for (const password of [DEFAULT_ADMIN.password, TEST_PASSWORD, E2E_PASSWORD]) expect(meetsPasswordRule(password), password).toBe(true);
  });

  it('is required of LOCAL_ADMIN_PASSWORD before the local stack starts anything', async () => {
    const start = startLocalStack({ admin: { email: 'admin@example.com', password: 'password', name: 'Local Admin' } });
    await expect(start).rejects.toBeInstanceOf(LocalStackError);
    await expect(start).rejects.toThrow(PASSWORD_RULE_MESSAGE);
  });
});
