/** GET/PATCH /api/profile end to end: local server → handler → DynamoDB Local. */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { call, createUser, dynamodb, stack } from './helpers';
import { timeZoneMessages } from '../../schema/timeZones';

const profileItems = async (sub: string) => {
  const { Items } = await dynamodb().doc.send(
    new QueryCommand({
      TableName: stack().tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${sub}` },
    }),
  );
  return (Items ?? []).filter((item) => item.SK === 'PROFILE');
};

describe('GET /api/profile', () => {
  it('creates the profile on first sign-in with the spec defaults and the name and email from the token', async () => {
    const user = await createUser({ name: 'Ada Lovelace' });
    expect(await profileItems(user.sub)).toHaveLength(0);

    const response = await call('/api/profile', { token: user.idToken });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      id: user.sub,
      email: user.email,
      full_name: 'Ada Lovelace',
      tier: 'free',
      email_limit: 50,
      gmail_daily_limit: 500,
      emails_used: 0,
      gmail_connected: false,
    });
    expect(await profileItems(user.sub)).toHaveLength(1);
  });

  it('gives one profile to two concurrent first requests', async () => {
    const user = await createUser();
    const [a, b] = await Promise.all([call('/api/profile', { token: user.idToken }), call('/api/profile', { token: user.idToken })]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.json?.created_at).toBe(b.json?.created_at);
    expect(await profileItems(user.sub)).toHaveLength(1);
  });

  it('never returns the Gmail refresh token or the table keys', async () => {
    const user = await createUser();
    await call('/api/profile', { token: user.idToken });
    await dynamodb().doc.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { PK: `USER#${user.sub}`, SK: 'PROFILE' },
        UpdateExpression: 'SET gmail_refresh_token = :t',
        ExpressionAttributeValues: { ':t': 'secret-refresh-token' },
      }),
    );
    const response = await call('/api/profile', { token: user.idToken });
    expect(response.status).toBe(200);
    expect(response.text).not.toContain('secret-refresh-token');
    expect(response.json).not.toHaveProperty('gmail_refresh_token');
    expect(response.json).not.toHaveProperty('PK');
    expect(response.json).not.toHaveProperty('SK');
  });

  it('shows each user only their own profile', async () => {
    const alice = await createUser({ name: 'Alice Artist' });
    const bob = await createUser({ name: 'Bob Beats' });
    await call('/api/profile', { token: alice.idToken });
    const patched = await call('/api/profile', { method: 'PATCH', token: alice.idToken, body: { artist_name: 'DJ Alice' } });
    expect(patched.status).toBe(200);

    const bobs = await call('/api/profile', { token: bob.idToken });
    expect(bobs.status).toBe(200);
    expect(bobs.json).toMatchObject({ id: bob.sub, email: bob.email, full_name: 'Bob Beats', artist_name: null });
    expect(bobs.text).not.toContain('DJ Alice');
    expect(bobs.text).not.toContain(alice.email);
  });
});

describe('PATCH /api/profile', () => {
  const signedIn = async () => {
    const user = await createUser({ name: 'Patch Tester' });
    const first = await call('/api/profile', { token: user.idToken });
    expect(first.status).toBe(200);
    return user;
  };

  it('answers 400 with a readable message to malformed JSON', async () => {
    const user = await signedIn();
    const response = await call('/api/profile', { method: 'PATCH', token: user.idToken, body: '{"full_name": "Ada"' });
    expect(response.status).toBe(400);
    expect(response.json?.message).toBe('The request body is not valid JSON.');
  });

  it('answers 400 naming an unknown field', async () => {
    const user = await signedIn();
    const response = await call('/api/profile', { method: 'PATCH', token: user.idToken, body: { tier: 'label' } });
    expect(response.status).toBe(400);
    expect(response.json?.message).toMatch(/Unknown field: tier/);
    const after = await call('/api/profile', { token: user.idToken });
    expect(after.json?.tier).toBe('free');
  });

  it("answers 400 'Please enter your full name' to a blank full name and keeps the stored one", async () => {
    const user = await signedIn();
    const response = await call('/api/profile', { method: 'PATCH', token: user.idToken, body: { full_name: '   ' } });
    expect(response.status).toBe(400);
    expect(response.json?.message).toContain('Please enter your full name');
    const after = await call('/api/profile', { token: user.idToken });
    expect(after.json?.full_name).toBe('Patch Tester');
  });

  it('answers 400 naming the field to a name or bio holding NUL or a lone surrogate, and keeps what was stored', async () => {
    const user = await signedIn();
    const cases: [Record<string, string>, string][] = [
      [{ full_name: 'Ada\u0000Lovelace' }, 'full_name: Full name contains a character that cannot be stored.'],
      [{ full_name: 'Ada \ud800' }, 'full_name: Full name contains a character that cannot be stored.'],
      [{ artist_name: '\udc00Ada' }, 'artist_name: Artist name contains a character that cannot be stored.'],
      [{ bio: 'Techno since 1999.\u0000' }, 'bio: Bio contains a character that cannot be stored.'],
    ];
    for (const [body, message] of cases) {
      const response = await call('/api/profile', { method: 'PATCH', token: user.idToken, body });
      expect(response, JSON.stringify(body)).toMatchObject({ status: 400, json: { message } });
    }
    const after = await call('/api/profile', { token: user.idToken });
    expect(after.json).toMatchObject({ full_name: 'Patch Tester', artist_name: null, bio: null });
  });

  it('answers 400 to a link with an invisible character (zero-width space, soft hyphen)', async () => {
    const user = await signedIn();
    for (const website_url of ['https://label\u200b.example', 'https://lab\u00adel.example']) {
      const response = await call('/api/profile', { method: 'PATCH', token: user.idToken, body: { website_url } });
      expect(response).toMatchObject({ status: 400, json: { message: 'website_url: Enter a link such as https://soundcloud.com/yourname' } });
    }
    expect((await call('/api/profile', { token: user.idToken })).json).toMatchObject({ website_url: null });
  });

  it("stores links typed without the scheme whole: 'soundcloud.com/norvik' as https://…, '@norvik' in Instagram as the profile link", async () => {
    const user = await signedIn();
    const body = { soundcloud_url: 'soundcloud.com/norvik', instagram_url: '@norvik', website_url: 'norvik.example' };
    const response = await call('/api/profile', { method: 'PATCH', token: user.idToken, body });
    const stored = { soundcloud_url: 'https://soundcloud.com/norvik', instagram_url: 'https://instagram.com/norvik', website_url: 'https://norvik.example' };
    expect(response).toMatchObject({ status: 200, json: stored });
    expect((await call('/api/profile', { token: user.idToken })).json).toMatchObject(stored);
  });

  it('answers 400 to a link that is not a web address', async () => {
    const user = await signedIn();
    const response = await call('/api/profile', { method: 'PATCH', token: user.idToken, body: { website_url: 'javascript:alert(1)' } });
    expect(response.status).toBe(400);
    expect(response.json?.message).toMatch(/website_url: Enter a link such as https:\/\/soundcloud.com\/yourname/);
  });

  it('answers 400 to a body that is not an object', async () => {
    const user = await signedIn();
    const response = await call('/api/profile', { method: 'PATCH', token: user.idToken, body: '[1,2]' });
    expect(response.status).toBe(400);
    expect(typeof response.json?.message).toBe('string');
  });

  it('saves valid changes (200) and they persist', async () => {
    const user = await signedIn();
    const body = { full_name: '  Grace Hopper ', artist_name: 'Amazing Grace', website_url: 'https://grace.example.com', bio: '' };
    const response = await call('/api/profile', { method: 'PATCH', token: user.idToken, body });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ full_name: 'Grace Hopper', artist_name: 'Amazing Grace', website_url: 'https://grace.example.com', bio: null });

    const after = await call('/api/profile', { token: user.idToken });
    expect(after.json).toMatchObject({ full_name: 'Grace Hopper', artist_name: 'Amazing Grace', website_url: 'https://grace.example.com' });
  });

  it("keeps the tour's done flag on the caller's profile: false for a new one, true once set, in every browser, and never on anyone else's", async () => {
    const user = await signedIn();
    const other = await signedIn();
    expect((await call('/api/profile', { token: user.idToken })).json).toMatchObject({ tour_completed: false });

    const done = await call('/api/profile', { method: 'PATCH', token: user.idToken, body: { tour_completed: true } });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ id: user.sub, tour_completed: true });
    expect((await call('/api/profile', { token: user.idToken })).json).toMatchObject({ tour_completed: true });
    expect((await call('/api/profile', { token: other.idToken })).json).toMatchObject({ tour_completed: false });

    // A taken tour is not taken back, and the flag is a boolean.
    for (const value of [false, 'true']) {
      const refused = await call('/api/profile', { method: 'PATCH', token: user.idToken, body: { tour_completed: value } });
      expect(refused.status).toBe(400);
    }
    expect((await call('/api/profile', { token: user.idToken })).json).toMatchObject({ tour_completed: true });
  });

  it("keeps the artist's time zone (issue 27 §2): none for a new profile; an IANA name stored in its canonical spelling; unknown names refused; blank clears it; only the caller's", async () => {
    const user = await signedIn();
    const other = await signedIn();
    const read = async (who: typeof user) => (await call('/api/profile', { token: who.idToken })).json;
    expect(await read(user)).toMatchObject({ time_zone: null });
    const patch = (body: unknown) => call('/api/profile', { method: 'PATCH', token: user.idToken, body });

    const saved = await patch({ time_zone: 'asia/tokyo' });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ time_zone: 'Asia/Tokyo' });
    // Another field's change leaves the zone as it was.
    expect((await patch({ tour_completed: true })).json).toMatchObject({ time_zone: 'Asia/Tokyo' });
    expect((await patch({ bio: 'Techno from Oslo' })).json).toMatchObject({ time_zone: 'Asia/Tokyo' });
    expect(await read(other)).toMatchObject({ time_zone: null });

    for (const bad of ['Mars/Olympus_Mons', '+05:00']) {
      const refused = await patch({ time_zone: bad });
      expect(refused.status).toBe(400);
      expect(refused.json?.message).toBe(`time_zone: ${timeZoneMessages.unknown(bad)}`);
    }
    expect((await patch({ time_zone: 7 })).status).toBe(400);
    expect(await read(user)).toMatchObject({ time_zone: 'Asia/Tokyo' });
    expect((await patch({ time_zone: '' })).json).toMatchObject({ time_zone: null });
  });
});
