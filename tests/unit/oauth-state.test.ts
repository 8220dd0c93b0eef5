import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OAUTH_STATE_TTL_MS, signOAuthState, verifyOAuthState } from '../../lambdas/core/oauthState';

const key = randomBytes(32);
const now = new Date('2026-11-22T10:00:00Z');
const claims = { userId: 'user-a', nonce: randomBytes(16).toString('base64url'), expiresAt: now.getTime() + OAUTH_STATE_TTL_MS };

describe('OAuth state (DESIGN §5: signed, single-use, bound to the user)', () => {
  it('round-trips for the user it was made for, before it expires', () => {
    expect(verifyOAuthState(signOAuthState(claims, key), key, { userId: 'user-a', now })).toEqual({ outcome: 'valid', claims });
  });

  it('refuses another user, an expired state, and a state made with another key', () => {
    const state = signOAuthState(claims, key);
    expect(verifyOAuthState(state, key, { userId: 'user-b', now })).toEqual({ outcome: 'other_user' });
    expect(verifyOAuthState(state, key, { userId: 'user-a', now: new Date(claims.expiresAt) })).toEqual({ outcome: 'expired' });
    expect(verifyOAuthState(state, randomBytes(32), { userId: 'user-a', now })).toEqual({ outcome: 'invalid' });
  });

  it('refuses a state whose claims were changed (another user id or a later expiry, signature kept)', () => {
    const [, signature] = signOAuthState(claims, key).split('.');
    for (const changed of [
      { ...claims, userId: 'user-b' },
      { ...claims, expiresAt: claims.expiresAt + 86_400_000 },
    ]) {
      const payload = Buffer.from(JSON.stringify({ u: changed.userId, n: changed.nonce, e: changed.expiresAt })).toString('base64url');
      expect(verifyOAuthState(`${payload}.${signature}`, key, { userId: changed.userId, now })).toEqual({ outcome: 'invalid' });
    }
  });

  it.each(['', '.', 'abc', 'abc.def', 'a.b.c', `${Buffer.from('not json').toString('base64url')}.x`, '%%%.%%%'])(
    'refuses the malformed state %j without throwing',
    (state) => {
      expect(verifyOAuthState(state, key, { userId: 'user-a', now })).toEqual({ outcome: 'invalid' });
    },
  );

  it('refuses well-signed claims of the wrong shape', () => {
    const payload = Buffer.from(JSON.stringify({ u: 'user-a', n: 5, e: 'soon' })).toString('base64url');
    const signature = createHmac('sha256', key).update(payload).digest('base64url');
    expect(verifyOAuthState(`${payload}.${signature}`, key, { userId: 'user-a', now })).toEqual({ outcome: 'invalid' });
  });
});
