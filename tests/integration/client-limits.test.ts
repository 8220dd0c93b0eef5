/**
 * The per-client limits of the public POST routes (issue 26 §2) on DynamoDB Local: the allowance counts
 * of `CLIENT#<hashed address>`, one client limited while another is not, the window rolling over, and
 * the waitlist's join through the local server, where the client is the socket's address.
 */
import { randomInt } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoAllowanceStore } from '../../lambdas/adapters/dynamodb/allowanceStore';
import { DynamoWaitlistStore } from '../../lambdas/adapters/dynamodb/waitlistStore';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { clientKey, clientLimitWindows, LISTEN_EVENTS_PER_CLIENT_PER_MINUTE, WAITLIST_JOINS_PER_CLIENT_PER_HOUR } from '../../lambdas/core/allowance';
import { clientLimit } from '../../lambdas/http/clientLimit';
import { makeHandler as makeWaitlistHandler } from '../../lambdas/http/waitlist';
import type { LambdaHandler, LocalServer } from '../../lib/local/server';
import { CLIENT_LIMIT_CODE } from '../../schema/api/serverMessages';
import { key, ttlAttribute } from '../../schema/table';
import { dynamodb, stack, startServerServing, uniqueEmail } from './helpers';

const allowances = () => new DynamoAllowanceStore(dynamodb().doc, stack().tableName);
/** An address no other test uses, so its counts start at zero. */
const someAddress = () => `10.${String(randomInt(256))}.${String(randomInt(256))}.${String(randomInt(1, 255))}`;
/** A start of an hour no other test uses (a random hour of 2021), so its windows start empty. */
const someHour = () => new Date(Date.UTC(2021, 0, 1) + randomInt(365 * 24) * 3_600_000);

describe('the allowance store, per client', () => {
  it('limits one address at its number while another address still joins, and the next hour starts again', async () => {
    const store = allowances();
    const [busy, other] = [clientKey(someAddress()), clientKey(someAddress())];
    const hour = someHour();
    const take = (client: string, at: Date) => store.take({ client, kind: 'waitlist_join' }, clientLimitWindows('waitlist_join', at));
    const late = new Date(hour.getTime() + 59 * 60_000);

    for (let i = 0; i < WAITLIST_JOINS_PER_CLIENT_PER_HOUR; i++) expect(await take(busy, hour)).toEqual({ allowed: true });
    const refused = await take(busy, late);
    expect(refused).toMatchObject({ allowed: false, full: { most: WAITLIST_JOINS_PER_CLIENT_PER_HOUR, endsAt: new Date(hour.getTime() + 3_600_000) } });
    expect(await take(other, late)).toEqual({ allowed: true });
    // The next hour is a window of its own.
    expect(await take(busy, new Date(hour.getTime() + 3_600_000))).toEqual({ allowed: true });

    // Kept under the hashed address, never the address, and gone a day after the window (TTL).
    const window = clientLimitWindows('waitlist_join', hour)[0];
    const item = (
      await dynamodb().doc.send(
        new GetCommand({
          TableName: stack().tableName,
          Key: { PK: key.client(busy), SK: key.allowance('waitlist_join', window?.name ?? '') },
          ConsistentRead: true,
        }),
      )
    ).Item;
    expect(item).toMatchObject({ used: WAITLIST_JOINS_PER_CLIENT_PER_HOUR, entity: 'allowance' });
    expect(item?.[ttlAttribute]).toBe((hour.getTime() + 3_600_000 + 24 * 3_600_000) / 1000);
  });

  it("a refused take counts in none of its windows: the listen beacons' minute refuses, the hour keeps its count", async () => {
    const store = allowances();
    const client = clientKey(someAddress());
    const minute = someHour();
    const take = (at: Date) => store.take({ client, kind: 'listen_event' }, clientLimitWindows('listen_event', at));
    for (let i = 0; i < LISTEN_EVENTS_PER_CLIENT_PER_MINUTE; i++) expect((await take(minute)).allowed).toBe(true);
    const refused = await take(new Date(minute.getTime() + 59_000));
    expect(refused).toMatchObject({ allowed: false, full: { most: LISTEN_EVENTS_PER_CLIENT_PER_MINUTE } });
    // The next minute takes again: the hour counted only the allowed ones.
    expect(await take(new Date(minute.getTime() + 60_000))).toEqual({ allowed: true });
    const hourWindow = clientLimitWindows('listen_event', minute)[1];
    const hourItem = (
      await dynamodb().doc.send(
        new GetCommand({
          TableName: stack().tableName,
          Key: { PK: key.client(client), SK: key.allowance('listen_event', hourWindow?.name ?? '') },
          ConsistentRead: true,
        }),
      )
    ).Item;
    expect(hourItem?.used).toBe(LISTEN_EVENTS_PER_CLIENT_PER_MINUTE + 1);
  });
});

describe('POST /api/waitlist through the local server', () => {
  let server: LocalServer;
  const hour = someHour();
  let now = new Date(hour.getTime() + 10 * 60_000);

  beforeAll(async () => {
    const handler = makeWaitlistHandler({
      waitlist: new DynamoWaitlistStore(dynamodb().doc, stack().tableName),
      clock: { now: () => now },
      ids: ulidGenerator(),
      clientLimit: clientLimit({ allowances: allowances() }),
    }) as LambdaHandler;
    server = await startServerServing('waitlist', handler);
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
    await server?.close();
  });

  const join = (headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email: uniqueEmail('limit'), artist_name: 'Nova Pulse', music_style: 'Techno' }),
    });

  it("takes the socket's address: past the limit a 429 with Retry-After and the message, whatever X-Forwarded-For says", async () => {
    for (let i = 0; i < WAITLIST_JOINS_PER_CLIENT_PER_HOUR; i++) {
      // Each join claims another address; the server counts the socket's (127.0.0.1) all the same.
      const response = await join({ 'x-forwarded-for': `203.0.113.${String(i + 1)}`, 'cloudfront-viewer-address': `198.51.100.${String(i + 1)}:443` });
      expect(response.status).toBe(201);
      await response.arrayBuffer();
    }
    const refused = await join({ 'x-forwarded-for': '203.0.113.99' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(50 * 60));
    expect(await refused.json()).toEqual({ message: 'Too many waitlist sign-ups from your network. Please try again in 50 minutes.', code: CLIENT_LIMIT_CODE });

    // The next hour, the same client joins again.
    now = new Date(hour.getTime() + 3_600_000);
    expect((await join()).status).toBe(201);
  });
});
