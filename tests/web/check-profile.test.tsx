import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { profileSchema } from '../../schema/api/profile';
import { checkProfile } from '../../web/src/auth/checkProfile';
import { makeProfile } from './helpers';

const base = makeProfile() as unknown as Record<string, unknown>;

type Case = [name: string, candidate: unknown];

const valid: Case[] = [
  ['a free profile', base],
  ['a pro profile with Gmail', makeProfile({ tier: 'pro', gmail_connected: true, gmail_account_type: 'workspace', gmail_email: 'me@gmail.com' })],
  [
    'a label profile with texts',
    makeProfile({ tier: 'label', artist_name: 'DJ Test', bio: '', website_url: 'https://example.com', emails_used: 0, email_limit: 1000 }),
  ],
  ['a profile with unknown fields', { ...base, extra: 'dropped', refresh_token: 'never kept' }],
];

/** How a value reads in a test name (JSON has no undefined or NaN). */
const shown = (value: unknown) => (value === undefined || (typeof value === 'number' && Number.isNaN(value)) ? String(value) : JSON.stringify(value));

/** Each field missing, then given each kind of wrong value, and the values near the edges of the rules. */
function mutations(): Case[] {
  const out: Case[] = [null, [], 'profile', 42, {}].map((candidate) => [`the value ${shown(candidate)}`, candidate]);
  for (const key of Object.keys(base)) {
    out.push([`no ${key}`, Object.fromEntries(Object.entries(base).filter(([name]) => name !== key))]);
    for (const value of [null, undefined, 7, 1.5, -1, 2 ** 60, Number.NaN, 'text', '', true, {}, []])
      out.push([`${key}: ${shown(value)}`, { ...base, [key]: value }]);
  }
  out.push(
    ['tier: enterprise', { ...base, tier: 'enterprise' }],
    ['tier: Free', { ...base, tier: 'Free' }],
    ['gmail_account_type: personal', { ...base, gmail_account_type: 'personal' }],
  );
  return out;
}

describe('profile check', () => {
  it.each([...valid, ...mutations()])('agrees with the zod contract on %s', (_name, candidate) => {
    const zodResult = profileSchema.safeParse(candidate);
    const ours = checkProfile(candidate);
    expect(ours !== null).toBe(zodResult.success);
    if (ours && zodResult.success) expect(ours).toEqual(zodResult.data);
  });

  it('checks every field the contract declares, with its allowed values (fails when schema/api/profile.ts changes one)', () => {
    const schema = z.toJSONSchema(profileSchema) as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(base).sort());
    expect(schema.required.sort()).toEqual(Object.keys(base).sort());
    expect(schema.properties.tier!.enum).toEqual(['free', 'pro', 'label']);
    expect(schema.properties.gmail_account_type!.enum).toEqual(['free', 'workspace']);
  });
});
