/**
 * Tracking and the public unsubscribe end to end: local server → lambdas/http/tracking.ts →
 * DynamoTrackingStore → DynamoDB Local. The TOKEN, RCPT and campaign items are seeded with the key
 * builders as the sender writes them. The open pixel is always a GIF and counts an email's first
 * human open once on the campaign, machine opens apart; the click redirect goes only to the links
 * stored for that token; the unsubscribe lookup never unsubscribes; the confirm and the RFC 8058
 * one-click POST unsubscribe idempotently, counted once, and the record lands on the owner's
 * Unsubscribed list with the track name.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoTrackingStore } from '../../lambdas/adapters/dynamodb/trackingStore';
import { systemClock } from '../../lambdas/adapters/clock';
import { addressId } from '../../lambdas/core/contacts';
import { newEmailToken } from '../../lambdas/core/emailToken';
import { makeHandler } from '../../lambdas/http/tracking';
import type { EmailToken } from '../../lambdas/ports';
import type { LambdaHandler, LocalServer } from '../../lib/local/server';
import type { Unsubscribe } from '../../schema/api/contacts';
import { unsubscribeMessages } from '../../schema/api/sending';
import { key } from '../../schema/table';
import { call, callAt, createUser, dynamodb, rawRequest, stack, startServerServing, type TestUser } from './helpers';
import { seedSentEmail } from './sentEmails';
import { anyString } from '../support/matchers';

const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const APPLE_PRIVACY_PROXY = 'Mozilla/5.0';
const CURL = 'curl/8.5.0';
const LINKS = ['https://soundcloud.com/nova/night-drive', 'https://nova.example/press?kit=1&lang=en', 'http://label.example/'];

let server: LocalServer;
let own: ReturnType<typeof callAt>;
const table = () => stack().tableName;
const db = () => dynamodb().doc;

beforeAll(async () => {
  const tracking = makeHandler({ tracking: new DynamoTrackingStore(db(), table()), clock: systemClock }) as LambdaHandler;
  server = await startServerServing('tracking', tracking);
  own = callAt(server.url);
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
  await server?.close();
});

interface Sent {
  user: TestUser;
  campaignId: string;
  token: EmailToken;
}

let campaignCounter = 0;
const newCampaignId = () => `01KAKZ3R00000000000000${String(++campaignCounter).padStart(2, '0')}${Math.random().toString(36).slice(2, 4).toUpperCase()}`;

async function seedCampaign(user: TestUser, trackName = 'Night Drive'): Promise<string> {
  const campaignId = newCampaignId();
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        PK: key.user(user.sub),
        SK: key.campaign(campaignId),
        entity: 'campaign',
        id: campaignId,
        user_id: user.sub,
        track_name: trackName,
        status: 'sending',
        emails_sent: 3,
        emails_opened: 0,
        emails_machine_opened: 0,
        emails_clicked: 0,
        emails_unsubscribed: 0,
      },
    }),
  );
  return campaignId;
}

/** One sent email of the campaign, linking the suite's links. */
const seedEmail = (user: TestUser, campaignId: string, position: number, overrides: Partial<EmailToken> = {}) =>
  seedSentEmail(user, campaignId, position, { links: LINKS, ...overrides });

async function sentEmail(options: { user?: TestUser; overrides?: Partial<EmailToken> } = {}): Promise<Sent> {
  const user = options.user ?? (await createUser({ name: 'DJ Nova' }));
  const campaignId = await seedCampaign(user);
  return { user, campaignId, token: await seedEmail(user, campaignId, 0, options.overrides) };
}

async function item(k: { PK: string; SK: string }) {
  const { Item } = await db().send(new GetCommand({ TableName: table(), Key: k, ConsistentRead: true }));
  return Item as Record<string, unknown> | undefined;
}
const recipient = (sent: Sent, position = 0) => item({ PK: key.campaignPartition(sent.campaignId), SK: key.recipient(position) });
const campaign = (sent: Sent) => item({ PK: key.user(sent.user.sub), SK: key.campaign(sent.campaignId) });
const unsubscribeItem = (sent: Sent) => item({ PK: key.user(sent.user.sub), SK: key.unsubscribe(addressId(sent.user.sub, sent.token.contact_email)) });

/** The campaign's tracking counters. */
async function counters(sent: Sent) {
  const c = await campaign(sent);
  return { opened: c?.emails_opened, machine: c?.emails_machine_opened, clicked: c?.emails_clicked, unsubscribed: c?.emails_unsubscribed };
}

async function pixel(base: string, token: string, userAgent = FIREFOX) {
  const response = await fetch(`${base}/api/t/o/${token}`, { headers: { 'user-agent': userAgent } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const click = (path: string, userAgent = FIREFOX) => rawRequest(server.url, path, { headers: { 'user-agent': userAgent } });

function expectGif(response: Awaited<ReturnType<typeof pixel>>) {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/gif');
  expect(response.headers.get('cache-control')).toContain('no-store');
  expect(response.bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
  // 1×1 (logical screen width and height, little-endian).
  expect([response.bytes.readUInt16LE(6), response.bytes.readUInt16LE(8)]).toEqual([1, 1]);
}

/** A token of the right shape that no email has. */
const unknownToken = () => newEmailToken();

/** The same token with one character changed (still a well-formed token). */
const tampered = (token: string) => `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;

describe('GET /api/t/o/{token} (open pixel)', () => {
  it('answers the GIF and counts the first human open once on the campaign, every open on the email', async () => {
    const sent = await sentEmail();
    expectGif(await pixel(server.url, sent.token.token));
    const first = await recipient(sent);
    expect(first).toMatchObject({ open_count: 1, machine_open_count: 0 });
    expect(typeof first?.opened_at).toBe('string');
    expectGif(await pixel(server.url, sent.token.token));
    expectGif(await pixel(server.url, sent.token.token));
    expect(await recipient(sent)).toMatchObject({ open_count: 3, opened_at: first?.opened_at });
    expect(await counters(sent)).toMatchObject({ opened: 1, machine: 0, clicked: 0 });
  });

  it('counts machine opens (mail privacy proxy, scripts) apart: the machine counter once per email, no human open', async () => {
    const sent = await sentEmail();
    expectGif(await pixel(server.url, sent.token.token, APPLE_PRIVACY_PROXY));
    expectGif(await pixel(server.url, sent.token.token, CURL));
    expect(await recipient(sent)).toMatchObject({ machine_open_count: 2, open_count: 0, opened_at: null });
    expect(await counters(sent)).toMatchObject({ opened: 0, machine: 1 });
    // The person opens it later: a human open of its own.
    expectGif(await pixel(server.url, sent.token.token));
    expect(await recipient(sent)).toMatchObject({ machine_open_count: 2, open_count: 1 });
    expect(await counters(sent)).toMatchObject({ opened: 1, machine: 1 });
  });

  it('counts an email opened many times at once as one opened email', async () => {
    const sent = await sentEmail();
    const responses = await Promise.all(Array.from({ length: 6 }, () => pixel(server.url, sent.token.token)));
    for (const response of responses) expectGif(response);
    expect(await recipient(sent)).toMatchObject({ open_count: 6 });
    expect(await counters(sent)).toMatchObject({ opened: 1 });
  });

  it('counts each email of a campaign on its own', async () => {
    const sent = await sentEmail();
    const second = await seedEmail(sent.user, sent.campaignId, 1);
    await pixel(server.url, sent.token.token);
    await pixel(server.url, second.token);
    await pixel(server.url, second.token);
    expect(await recipient(sent, 0)).toMatchObject({ open_count: 1 });
    expect(await recipient(sent, 1)).toMatchObject({ open_count: 2 });
    expect(await counters(sent)).toMatchObject({ opened: 2 });
  });

  it('answers the same GIF to an unknown, a tampered and a malformed token, recording nothing', async () => {
    const sent = await sentEmail();
    const unknown = unknownToken();
    for (const token of [unknown, tampered(sent.token.token), 'not-a-token', `${sent.token.token}x`, '-'.repeat(43)]) {
      expectGif(await pixel(server.url, token));
    }
    expect(await item({ PK: key.tokenPartition(unknown), SK: key.tokenSort() })).toBeUndefined();
    expect(await recipient(sent)).toMatchObject({ open_count: 0, machine_open_count: 0 });
    expect(await counters(sent)).toMatchObject({ opened: 0, machine: 0 });
  });

  it('is wired in the shared local server too (compose → the DynamoDB tracking store)', async () => {
    const sent = await sentEmail();
    expectGif(await pixel(stack().appUrl, sent.token.token));
    expect(await recipient(sent)).toMatchObject({ open_count: 1 });
  });
});

describe('GET /api/t/c/{token}/{link} (click redirect)', () => {
  it('redirects (302) to the link stored at that index, and counts the first click once on the campaign', async () => {
    const sent = await sentEmail();
    for (const [index, link] of LINKS.entries()) {
      const response = await click(`/api/t/c/${sent.token.token}/${index}`);
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe(link);
      expect(response.headers['cache-control']).toContain('no-store');
    }
    const stored = await recipient(sent);
    expect(stored).toMatchObject({ click_count: 3 });
    expect(typeof stored?.clicked_at).toBe('string');
    expect(await counters(sent)).toMatchObject({ clicked: 1, opened: 0 });
  });

  it('redirects a link scanner too, but does not count its click', async () => {
    const sent = await sentEmail();
    const response = await click(`/api/t/c/${sent.token.token}/0`, CURL);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(LINKS[0]);
    expect(await recipient(sent)).toMatchObject({ click_count: 0, clicked_at: null });
    expect(await counters(sent)).toMatchObject({ clicked: 0 });
  });

  it('answers 410 with a plain page to a well-formed token that is not stored (an unknown, a tampered, a deleted account’s)', async () => {
    const sent = await sentEmail();
    for (const path of [`/api/t/c/${unknownToken()}/0`, `/api/t/c/${tampered(sent.token.token)}/0`]) {
      const response = await click(path);
      expect(response.status, path).toBe(410);
      expect(response.headers.location, path).toBeUndefined();
      expect(response.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(response.text, path).toContain('This link is no longer available.');
    }
    expect(await recipient(sent)).toMatchObject({ click_count: 0 });
  });

  it('answers 404 to a malformed token, and to an index that is not one of its links', async () => {
    const sent = await sentEmail();
    const { token } = sent.token;
    const paths = [
      `/api/t/c/not-a-token/0`,
      `/api/t/c/${token}/${LINKS.length}`,
      `/api/t/c/${token}/-1`,
      `/api/t/c/${token}/01`,
      `/api/t/c/${token}/1.0`,
      `/api/t/c/${token}/1e0`,
      `/api/t/c/${token}/%201`,
      `/api/t/c/${token}/abc`,
      `/api/t/c/${token}/99999999999999999999`,
      // A URL in the request is never a destination.
      `/api/t/c/${token}/${encodeURIComponent('https://evil.example/')}`,
      `/api/t/c/${token}/0?url=${encodeURIComponent('https://evil.example/')}`.replace('/0?', '/x?'),
    ];
    for (const path of paths) {
      const response = await click(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.location, path).toBeUndefined();
    }
    expect(await recipient(sent)).toMatchObject({ click_count: 0 });
    expect(await counters(sent)).toMatchObject({ clicked: 0 });
  });

  it("answers 404 to an index only another token's email has", async () => {
    const user = await createUser({ name: 'DJ Nova' });
    const many = await sentEmail({ user });
    const one = await sentEmail({ user, overrides: { links: ['https://one.example/'] } });
    expect((await click(`/api/t/c/${many.token.token}/2`)).status).toBe(302);
    const response = await click(`/api/t/c/${one.token.token}/2`);
    expect(response.status).toBe(404);
    expect(response.headers.location).toBeUndefined();
    expect(await recipient(one)).toMatchObject({ click_count: 0 });
  });

  it('never redirects to a stored link that is not a web address', async () => {
    const sent = await sentEmail({ overrides: { links: ['javascript:alert(1)', 'data:text/html,hi', 'https://ok.example/'] } });
    expect((await click(`/api/t/c/${sent.token.token}/0`)).status).toBe(404);
    expect((await click(`/api/t/c/${sent.token.token}/1`)).status).toBe(404);
    expect((await click(`/api/t/c/${sent.token.token}/2`)).headers.location).toBe('https://ok.example/');
  });
});

const lookup = (token: string) => own(`/api/unsubscribe?token=${encodeURIComponent(token)}`);
const confirm = (body: unknown) => own('/api/unsubscribe', { method: 'POST', body });
const oneClick = (token: string, body = 'List-Unsubscribe=One-Click') =>
  own(`/api/unsubscribe/one-click?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
const unsubscribedList = async (user: TestUser) => ((await call('/api/unsubscribes', { token: user.idToken })).json?.unsubscribes ?? []) as Unsubscribe[];
const invalidToken = { message: unsubscribeMessages.invalidToken, error: unsubscribeMessages.invalidToken };

describe('GET /api/unsubscribe (the page lookup)', () => {
  it("answers the artist's name and whether the address is unsubscribed, and never unsubscribes", async () => {
    const sent = await sentEmail();
    for (let i = 0; i < 3; i++) {
      expect(await lookup(sent.token.token)).toMatchObject({ status: 200, json: { artistName: 'DJ Nova', alreadyUnsubscribed: false } });
    }
    expect(await unsubscribeItem(sent)).toBeUndefined();
    expect(await counters(sent)).toMatchObject({ unsubscribed: 0 });
    expect(await unsubscribedList(sent.user)).toEqual([]);
  });

  it("answers 404 'Invalid or expired token' without a token, or with an unknown, tampered or malformed one", async () => {
    const sent = await sentEmail();
    expect(await own('/api/unsubscribe')).toMatchObject({ status: 404, json: invalidToken });
    for (const token of ['', unknownToken(), tampered(sent.token.token), 'abc', `${sent.token.token} `]) {
      expect(await lookup(token), token).toMatchObject({ status: 404, json: invalidToken });
    }
  });
});

describe('POST /api/unsubscribe (confirm)', () => {
  it("records the unsubscribe with the reason and the campaign's track name, on the owner's Unsubscribed list, counted once", async () => {
    const sent = await sentEmail();
    const response = await confirm({ token: sent.token.token, reason: 'Wrong genre', reasonDetails: '  Only techno, please.  ' });
    expect(response).toMatchObject({ status: 200, json: { artistName: 'DJ Nova', alreadyUnsubscribed: true } });
    expect(await lookup(sent.token.token)).toMatchObject({ status: 200, json: { artistName: 'DJ Nova', alreadyUnsubscribed: true } });
    const [record, ...others] = await unsubscribedList(sent.user);
    expect(others).toEqual([]);
    expect(record).toEqual({
      id: addressId(sent.user.sub, sent.token.contact_email),
      contact_name: 'Mara Velvet',
      contact_email: sent.token.contact_email,
      unsubscribed_at: anyString(),
      unsubscribe_reason: 'Wrong genre',
      unsubscribe_reason_details: 'Only techno, please.',
      campaign_id: sent.campaignId,
      track_name: 'Night Drive',
    });
    expect(await counters(sent)).toMatchObject({ unsubscribed: 1 });

    // Again (a double click, a second tab, another reason): 200, the first record kept, not counted again.
    expect(await confirm({ token: sent.token.token, reason: 'Other', reasonDetails: 'changed my mind' })).toMatchObject({
      status: 200,
      json: { alreadyUnsubscribed: true },
    });
    expect(await oneClick(sent.token.token)).toMatchObject({ status: 200 });
    expect(await unsubscribedList(sent.user)).toEqual([record]);
    expect(await counters(sent)).toMatchObject({ unsubscribed: 1 });
  });

  it('needs no reason; details without a reason are not kept', async () => {
    const sent = await sentEmail();
    expect((await confirm({ token: sent.token.token })).status).toBe(200);
    expect(await unsubscribeItem(sent)).toMatchObject({ entity: 'unsubscribe', unsubscribe_reason: null, unsubscribe_reason_details: null });
    const other = await sentEmail();
    expect((await confirm({ token: other.token.token, reason: null, reasonDetails: 'why not' })).status).toBe(200);
    expect(await unsubscribeItem(other)).toMatchObject({ unsubscribe_reason: null, unsubscribe_reason_details: null });
    const blank = await sentEmail();
    expect((await confirm({ token: blank.token.token, reason: 'Other', reasonDetails: '   ' })).status).toBe(200);
    expect(await unsubscribeItem(blank)).toMatchObject({ unsubscribe_reason: 'Other', unsubscribe_reason_details: null });
  });

  it('counts an address once across campaigns: a second campaign to it does not count it again', async () => {
    const first = await sentEmail();
    const secondCampaign = await seedCampaign(first.user, 'Neon Rain');
    const second = await seedEmail(first.user, secondCampaign, 0, { contact_email: first.token.contact_email.toUpperCase(), track_name: 'Neon Rain' });
    expect((await confirm({ token: first.token.token, reason: 'Too many emails' })).status).toBe(200);
    expect(await lookup(second.token)).toMatchObject({ json: { alreadyUnsubscribed: true } });
    expect((await confirm({ token: second.token, reason: 'Not interested' })).status).toBe(200);
    expect(await counters(first)).toMatchObject({ unsubscribed: 1 });
    expect(await counters({ ...first, campaignId: secondCampaign })).toMatchObject({ unsubscribed: 0 });
    expect(await unsubscribedList(first.user)).toEqual([expect.objectContaining({ track_name: 'Night Drive', unsubscribe_reason: 'Too many emails' })]);
  });

  it('answers 404 to an unknown or malformed token and 400 to a bad body, storing nothing', async () => {
    const sent = await sentEmail();
    expect(await confirm({ token: unknownToken() })).toMatchObject({ status: 404, json: invalidToken });
    expect(await confirm({ token: tampered(sent.token.token), reason: 'Other' })).toMatchObject({ status: 404, json: invalidToken });
    expect(await confirm({ token: 'short' })).toMatchObject({ status: 404, json: invalidToken });
    for (const body of [
      { token: sent.token.token, reason: 'Because' },
      { token: sent.token.token, unsubscribe: true },
      { token: sent.token.token, reasonDetails: 'x'.repeat(501), reason: 'Other' },
      { reason: 'Other' },
      'not json',
    ]) {
      const response = await confirm(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.json?.message).toBe('string');
    }
    expect(await unsubscribeItem(sent)).toBeUndefined();
    expect(await counters(sent)).toMatchObject({ unsubscribed: 0 });
  });

  it("keeps each user's records apart: another user's list stays empty", async () => {
    const sent = await sentEmail();
    const other = await createUser({ name: 'Someone Else' });
    expect((await confirm({ token: sent.token.token })).status).toBe(200);
    expect(await unsubscribedList(sent.user)).toHaveLength(1);
    expect(await unsubscribedList(other)).toEqual([]);
  });
});

describe('POST /api/unsubscribe/one-click (RFC 8058)', () => {
  it('unsubscribes with the form body mail clients send: 200 with no body, idempotent, counted once', async () => {
    const sent = await sentEmail();
    const first = await oneClick(sent.token.token);
    expect(first.status).toBe(200);
    expect(first.text).toBe('');
    expect(await unsubscribeItem(sent)).toMatchObject({
      entity: 'unsubscribe',
      campaign_id: sent.campaignId,
      track_name: 'Night Drive',
      unsubscribe_reason: null,
      unsubscribe_reason_details: null,
    });
    expect((await oneClick(sent.token.token)).status).toBe(200);
    expect(await counters(sent)).toMatchObject({ unsubscribed: 1 });
    expect(await lookup(sent.token.token)).toMatchObject({ json: { alreadyUnsubscribed: true } });
    expect(await unsubscribedList(sent.user)).toEqual([expect.objectContaining({ contact_email: sent.token.contact_email, track_name: 'Night Drive' })]);
  });

  it('opened with a GET (a mail client without RFC 8058, a scanner) it sends the browser to the page and unsubscribes no one', async () => {
    const sent = await sentEmail();
    const opened = await fetch(`${server.url}/api/unsubscribe/one-click?token=${sent.token.token}`, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe(`/unsubscribe?token=${sent.token.token}`);
    expect(await unsubscribeItem(sent)).toBeUndefined();
    expect(await counters(sent)).toMatchObject({ unsubscribed: 0 });
  });

  it("refuses with 400 a POST without the body List-Unsubscribe=One-Click (a scanner's), and unsubscribes no one", async () => {
    const sent = await sentEmail();
    const posts: { body?: string; contentType?: string }[] = [
      {},
      { body: '', contentType: 'application/x-www-form-urlencoded' },
      { body: 'List-Unsubscribe=Yes', contentType: 'application/x-www-form-urlencoded' },
      { body: 'list-unsubscribe=one-click', contentType: 'application/x-www-form-urlencoded' },
      { body: JSON.stringify({ 'List-Unsubscribe': 'One-Click' }), contentType: 'application/json' },
      { body: 'List-Unsubscribe=One-Click', contentType: 'text/plain' },
    ];
    for (const post of posts) {
      const answer = await own(`/api/unsubscribe/one-click?token=${sent.token.token}`, {
        method: 'POST',
        ...(post.body !== undefined ? { body: post.body } : {}),
        ...(post.contentType ? { headers: { 'content-type': post.contentType } } : {}),
      });
      expect(answer.status, JSON.stringify(post)).toBe(400);
      expect(answer.json?.message).toContain('List-Unsubscribe=One-Click');
    }
    expect(await unsubscribeItem(sent)).toBeUndefined();
    expect(await counters(sent)).toMatchObject({ unsubscribed: 0 });
    expect((await oneClick(sent.token.token, 'List-Unsubscribe=One-Click&extra=1')).status).toBe(200);
    expect(await unsubscribeItem(sent)).toBeDefined();
  });

  it('accepts a multipart body too, and answers 404 to an unknown or missing token', async () => {
    const sent = await sentEmail();
    const boundary = 'b0undary';
    const multipart = await own(`/api/unsubscribe/one-click?token=${sent.token.token}`, {
      method: 'POST',
      body: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(multipart.status).toBe(200);
    expect(await unsubscribeItem(sent)).toBeDefined();
    expect(await oneClick(unknownToken())).toMatchObject({ status: 404, json: invalidToken });
    expect(
      await own('/api/unsubscribe/one-click', {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ).toMatchObject({
      status: 404,
      json: invalidToken,
    });
  });
});
