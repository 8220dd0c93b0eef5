/**
 * The local outbox end to end: LocalMailer → DynamoOutboxStore on DynamoDB Local, read back through the
 * local server → JWT authorizer → lambdas/http/outbox.ts. Newest first without the bodies, one message in
 * full, another user's or a malformed id → 404, and every route 404 where there is no local mailbox.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoOutboxStore } from '../../lambdas/adapters/dynamodb/outboxStore';
import { LocalMailer } from '../../lambdas/adapters/local-mailbox/localMailer';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { makeHandler, outboxMessages } from '../../lambdas/http/outbox';
import { importHandler, type LambdaHandler, type LocalServer } from '../../lib/local/server';
import { outboxListSchema, outboxMessageSchema, outboxMessageSummarySchema } from '../../schema/api/sending';
import { key } from '../../schema/table';
import { sampleEmail } from '../fakes/outbox';
import { parseMime } from '../support/mime';
import { call, callAt, createUser, dynamodb, stack, startServer, type TestUser, stackConfig } from './helpers';

const UNKNOWN_ID = '01KAKZ3R0000000000000000ZZ';
const credentials = { refreshToken: 'local-refresh', mailboxEmail: 'nova@gmail.com' };

const outboxStore = () => new DynamoOutboxStore(dynamodb().doc, stack().tableName, { ids: ulidGenerator() });

describe('the local outbox', () => {
  let owner: TestUser;
  let other: TestUser;
  const sentIds: string[] = [];

  beforeAll(async () => {
    [owner, other] = await Promise.all([createUser(), createUser()]);
    // One second apart, so the list order is the send order reversed.
    let at = Date.parse('2025-03-09T10:30:00.000Z');
    const mailer = new LocalMailer(outboxStore(), { now: () => new Date((at += 1000)) });
    for (const [position, name] of ['Calla Morrow', 'Dara Quinn', 'Eli Rook'].entries()) {
      const email = sampleEmail({
        to: { name, email: `${name.split(' ')[0]!.toLowerCase()}@label.example` },
        subject: `Track for ${name} — “Ünder”`,
        html: `<p>Hi ${name}</p>${'<p>long body line</p>'.repeat(2000)}`,
        messageId: `<01KAKZ3R00000000000000000A.${position}@trackpitch.example>`,
        meta: { userId: owner.sub, campaignId: '01KAKZ3R00000000000000000A', position },
      });
      sentIds.push((await mailer.send(email, credentials)).providerMessageId);
    }
  });

  it('lists the user’s messages newest first, summaries only', async () => {
    const response = await call('/api/local/outbox', { token: owner.idToken });
    expect(response.status).toBe(200);
    const { messages } = outboxListSchema.parse(response.json);
    expect(messages.map((m) => m.id)).toEqual([...sentIds].reverse());
    expect(messages.map((m) => m.to)).toEqual(['Eli Rook <eli@label.example>', 'Dara Quinn <dara@label.example>', 'Calla Morrow <calla@label.example>']);
    expect(messages[0]).toEqual({
      id: sentIds[2],
      sent_at: '2025-03-09T10:30:03.000Z',
      from: 'Nova Sørensen <nova@gmail.com>',
      to: 'Eli Rook <eli@label.example>',
      subject: 'Track for Eli Rook — “Ünder”',
      campaign_id: '01KAKZ3R00000000000000000A',
      thread_id: sentIds[2],
    });
    for (const message of messages) expect(Object.keys(message).sort()).toEqual(Object.keys(outboxMessageSummarySchema.shape).sort());
  });

  it('keeps threads: a reply into a thread of the user is listed in it, with its In-Reply-To and References', async () => {
    const store = outboxStore();
    const mailer = new LocalMailer(store, { now: () => new Date('2025-03-09T11:00:00.000Z') });
    const campaignId = '01KAKZ3R00000000000000000B';
    const first = sampleEmail({
      subject: 'Night Drive',
      messageId: `<${campaignId}.0.aaaaaaaa@trackpitch>`,
      meta: { userId: owner.sub, campaignId, position: 0 },
    });
    const opened = await mailer.send(first, credentials);
    const reply = await mailer.send(
      sampleEmail({
        subject: 'Re: Night Drive',
        messageId: `<${campaignId}.0.bbbbbbbb@trackpitch>`,
        replyTo: { threadId: opened.threadId, inReplyTo: first.messageId },
        meta: { userId: owner.sub, campaignId, position: 0 },
      }),
      credentials,
    );
    expect(reply.threadId).toBe(opened.providerMessageId);
    const { messages } = outboxListSchema.parse((await call('/api/local/outbox', { token: owner.idToken })).json);
    expect(messages.filter((message) => message.campaign_id === campaignId).map((message) => [message.subject, message.thread_id])).toEqual([
      ['Re: Night Drive', opened.providerMessageId],
      ['Night Drive', opened.providerMessageId],
    ]);
    const full = outboxMessageSchema.parse((await call(`/api/local/outbox/${reply.providerMessageId}`, { token: owner.idToken })).json);
    expect(full.thread_id).toBe(opened.providerMessageId);
    expect(full.headers).toContainEqual(['In-Reply-To', first.messageId]);
    expect(full.headers).toContainEqual(['References', first.messageId]);
    // The other user's outbox has none of it (nor would their reply join this thread).
    const theirs = outboxListSchema.parse((await call('/api/local/outbox', { token: other.idToken })).json);
    expect(theirs.messages.filter((message) => message.campaign_id === campaignId)).toEqual([]);
  });

  it('returns one message in full: HTML, text, headers and the raw MIME', async () => {
    const response = await call(`/api/local/outbox/${sentIds[0]}`, { token: owner.idToken });
    expect(response.status).toBe(200);
    const message = outboxMessageSchema.parse(response.json);
    expect(message).toMatchObject({ id: sentIds[0], to: 'Calla Morrow <calla@label.example>', subject: 'Track for Calla Morrow — “Ünder”' });
    expect(message.html).toBe(`<p>Hi Calla Morrow</p>${'<p>long body line</p>'.repeat(2000)}`);
    expect(message.text).toBe(sampleEmail().text);
    const parsed = parseMime(message.raw);
    expect(message.headers).toEqual(parsed.headers);
    expect(parsed.header('Message-ID')).toBe('<01KAKZ3R00000000000000000A.0@trackpitch.example>');
    expect(parsed.header('List-Unsubscribe')).toBe(`<${sampleEmail().listUnsubscribeUrl}>`);
    expect(parsed.parts[1]!.text).toBe(message.html);
  });

  it('stores the item under the user’s partition, compressed well below the item limit', async () => {
    const { Item } = await dynamodb().doc.send(
      new GetCommand({ TableName: stack().tableName, Key: { PK: key.user(owner.sub), SK: key.outboxMessage(sentIds[0]!) } }),
    );
    expect(Item).toMatchObject({ entity: 'outbox-message', id: sentIds[0] });
    expect((Item!.content as Uint8Array).byteLength).toBeLessThan(20_000);
  });

  it('another user sees an empty outbox, and the owner’s ids are the same 404 as a missing one', async () => {
    const list = await call('/api/local/outbox', { token: other.idToken });
    expect(list.status).toBe(200);
    expect(outboxListSchema.parse(list.json).messages).toEqual([]);
    const foreign = await call(`/api/local/outbox/${sentIds[0]}`, { token: other.idToken });
    const missing = await call(`/api/local/outbox/${UNKNOWN_ID}`, { token: owner.idToken });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ message: outboxMessages.messageNotFound });
    expect(missing).toMatchObject({ status: 404, json: foreign.json });
  });

  it('a malformed id is a 404 without a read; no token is a 401', async () => {
    const malformed = await call('/api/local/outbox/not-a-ulid', { token: owner.idToken });
    expect(malformed).toMatchObject({ status: 404, json: { message: outboxMessages.messageNotFound } });
    expect((await call('/api/local/outbox')).status).toBe(401);
  });
});

describe('without a local mailbox (the outbox handler given no store)', () => {
  let server: LocalServer;
  let user: TestUser;

  beforeAll(async () => {
    const outbox = makeHandler({ outbox: undefined }) as LambdaHandler;
    server = await startServer({ loadHandler: async (group) => (group === 'outbox' ? outbox : importHandler(group, stackConfig())) });
    user = await createUser();
  });

  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
    await server?.close();
  });

  it('answers every outbox route with a 404', async () => {
    const own = callAt(server.url);
    for (const path of ['/api/local/outbox', `/api/local/outbox/${UNKNOWN_ID}`, '/api/local/outbox/not-a-ulid']) {
      expect(await own(path, { token: user.idToken })).toMatchObject({ status: 404, json: { message: outboxMessages.notLocal } });
    }
  });
});
