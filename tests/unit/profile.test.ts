import { describe, expect, it } from 'vitest';
import { profileSchema, profileUpdateSchema } from '../../schema/api/profile';
import { newProfile } from '../../lambdas/core/profile';

const now = new Date('2026-11-21T10:00:00.000Z');

describe('newProfile', () => {
  it('starts on the free tier with the spec defaults', () => {
    const profile = newProfile({ userId: 'u1', email: 'ada@example.com', name: 'Ada Lovelace', groups: [] }, now);
    expect(profileSchema.parse(profile)).toEqual(profile);
    expect(profile).toMatchObject({
      id: 'u1',
      email: 'ada@example.com',
      full_name: 'Ada Lovelace',
      tier: 'free',
      email_limit: 50,
      gmail_daily_limit: 500,
      emails_used: 0,
      gmail_connected: false,
      labelfinder_additions_count: 0,
      created_at: '2026-11-21T10:00:00.000Z',
    });
  });

  it('falls back to the email name when the token has no name', () => {
    expect(newProfile({ userId: 'u1', email: 'dj.nova@example.com', name: '  ', groups: [] }, now).full_name).toBe('dj.nova');
  });
});

describe('profileUpdateSchema', () => {
  it('refuses a blank full name with the spec text', () => {
    const result = profileUpdateSchema.safeParse({ full_name: '   ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Please enter your full name');
  });

  it('turns empty optional fields into null and refuses non-http links', () => {
    expect(profileUpdateSchema.parse({ artist_name: '', website_url: '' })).toEqual({ artist_name: null, website_url: null });
    expect(profileUpdateSchema.safeParse({ spotify_url: 'javascript:alert(1)' }).success).toBe(false);
    expect(profileUpdateSchema.parse({ soundcloud_url: ' https://soundcloud.com/nova ' })).toEqual({
      soundcloud_url: 'https://soundcloud.com/nova',
    });
  });

  it('refuses fields a user may not set', () => {
    expect(profileUpdateSchema.safeParse({ tier: 'label' }).success).toBe(false);
    expect(profileUpdateSchema.safeParse({ email_limit: 100000 }).success).toBe(false);
  });
});
