/**
 * A sending world on the shared DynamoDB Local for the pipeline's tests (and the fault suite and the
 * benchmark): a user with a profile and a connected mailbox, campaigns queued through the send flow's
 * store, a fake clock, a recording mailer whose next answers can be scripted, a request counter on the
 * sender's document client, and `tick()`, which does what the dispatcher does for this user (read the
 * cursor, carry its head) and hands the tick to the real sender handler.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { makeDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { DynamoCampaignStore } from '../../lambdas/adapters/dynamodb/campaignStore';
import { DynamoPitchStore } from '../../lambdas/adapters/dynamodb/pitchStore';
import { DynamoSendQueueStore } from '../../lambdas/adapters/dynamodb/sending/queue';
import { DynamoSenderStore } from '../../lambdas/adapters/dynamodb/sending/sender';
import { DynamoUnsubscribeStore } from '../../lambdas/adapters/dynamodb/unsubscribeStore';
import { DynamoWrittenEmailStore } from '../../lambdas/adapters/dynamodb/writtenEmailStore';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { LocalWriter } from '../../lambdas/adapters/local-writer/localWriter';
import { addressId } from '../../lambdas/core/contacts';
import { MailerError } from '../../lambdas/core/errors';
import { headOf } from '../../lambdas/core/sender';
import { pacificDate, pacificMonth } from '../../lambdas/core/sendingWindow';
import type { Campaign, CampaignSendWindow } from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import type { FollowUps } from '../../schema/api/followUpValues';
import type { Profile } from '../../schema/api/profile';
import type { Mailer, OutgoingEmail, RecipientRecord, SecretBox, SenderQueueEntry } from '../../lambdas/ports';
import { makeHandler, type SenderDeps } from '../../lambdas/workers/sender';
import { key } from '../../schema/table';
import { providerAnswer } from '../fakes/pipeline';
import { buildContact, buildDraftContent, buildMailbox, buildProfile } from '../fakes/builders';
import { stack } from './helpers';

export const APP_URL = 'https://app.trackpitch.test';

/** A scripted mailer answer (RecordingMailer.script): the provider refuses with `kind`. */
export const fail =
  (kind: ConstructorParameters<typeof MailerError>[0], message = `provider said ${kind}`) =>
  () => {
    throw new MailerError(kind, message);
  };
export const INTERVAL_MS = 60_000;

/** A document client that counts the requests it sends, by command. */
export function countingClient(): { db: DynamoDBDocumentClient; counts: Map<string, number>; total: () => number; reset: () => void } {
  const db = makeDocumentClient({ tableName: stack().tableName, region: stack().region, endpoint: stack().dynamoEndpoint });
  const counts = new Map<string, number>();
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'countRequests' },
  );
  return { db, counts, total: () => [...counts.values()].reduce((a, b) => a + b, 0), reset: () => counts.clear() };
}

export interface SentMail {
  email: OutgoingEmail;
  at: Date;
  credentials: { refreshToken: string; mailboxEmail: string };
}

/**
 * A mailer that records what it is handed; `script` holds what the next calls do (default: accept), and
 * `scriptFor` what the next calls for one position do (a recipient that keeps failing).
 */
export class RecordingMailer implements Mailer {
  readonly sent: SentMail[] = [];
  /** Every call, accepted or not. */
  readonly calls: SentMail[] = [];
  readonly script: (() => void)[] = [];
  readonly scriptFor = new Map<number, (() => void)[]>();
  constructor(private readonly clock: { now(): Date }) {}
  send(email: OutgoingEmail, credentials: { refreshToken: string; mailboxEmail: string }) {
    const call = { email, at: this.clock.now(), credentials };
    this.calls.push(call);
    this.scriptFor.get(email.meta.position)?.shift()?.();
    this.script.shift()?.();
    this.sent.push(call);
    return Promise.resolve(providerAnswer(email, `provider-${this.sent.length}`));
  }
}

/** Seals by prefixing (the context must match): enough to see the sender opens the right token for the right user. */
export const fakeSecrets: SecretBox = {
  seal: (plaintext, context) => Promise.resolve(`sealed:${context.userId}:${plaintext}`),
  open: (sealed, context) => {
    const prefix = `sealed:${context.userId}:`;
    if (!sealed.startsWith(prefix)) return Promise.reject(new Error('wrong context'));
    return Promise.resolve(sealed.slice(prefix.length));
  },
};

export function contactFor(userId: string, n: number, run = randomUUID().slice(0, 6)): Contact {
  const email = `rcpt${n}-${run}@label.test`;
  return buildContact({ id: addressId(userId, email), name: `Recipient ${n}`, email, label_name: `Label ${n}` });
}

export interface WorldOptions {
  start?: Date;
  dailyLimit?: number;
  profile?: Partial<Profile>;
  /** The sending user (a cognito-local user's sub, when the test calls the HTTP routes too); a new id by default. */
  userId?: string;
}

export async function sendingWorld(options: WorldOptions = {}) {
  const tableName = stack().tableName;
  const userId = options.userId ?? `sender-${randomUUID()}`;
  const plain = makeDocumentClient({ tableName, region: stack().region, endpoint: stack().dynamoEndpoint });
  const counting = countingClient();
  let now = options.start ?? new Date('2026-11-21T18:00:00.000Z');
  const clock = { now: () => now };
  const mailer = new RecordingMailer(clock);
  const ids = ulidGenerator();
  const campaigns = new DynamoCampaignStore(plain, tableName, { ids });
  const sendQueue = new DynamoSendQueueStore(plain, tableName, { intervalMs: INTERVAL_MS });
  const pitches = new DynamoPitchStore(plain, tableName);
  const senderStore = new DynamoSenderStore(counting.db, tableName, { intervalMs: INTERVAL_MS });
  const unsubscribes = new DynamoUnsubscribeStore(plain, tableName);
  const dailyLimit = options.dailyLimit ?? 500;

  const profile = buildProfile({
    id: userId,
    created_at: now.toISOString(),
    email: `${userId}@artist.test`,
    full_name: 'Ada Artist',
    artist_name: 'DJ Ada',
    gmail_connected: true,
    gmail_email: 'ada@gmail.test',
    gmail_daily_limit: dailyLimit,
    ...options.profile,
  });
  const mailbox = buildMailbox({
    email: 'ada@gmail.test',
    dailyLimit,
    sealedRefreshToken: await fakeSecrets.seal('refresh-token-1', { userId }),
    connectedAt: now.toISOString(),
  });
  await plain.send(new PutCommand({ TableName: tableName, Item: { PK: key.user(userId), SK: key.profile(), entity: 'profile', ...profile } }));
  await plain.send(new PutCommand({ TableName: tableName, Item: { PK: key.user(userId), SK: key.mailbox(), entity: 'mailbox', ...mailbox } }));

  const deps: SenderDeps = {
    store: senderStore,
    mailer,
    clock,
    secrets: fakeSecrets,
    writer: new LocalWriter(),
    sanitizer: { sanitize: (html) => html },
    written: new DynamoWrittenEmailStore(counting.db, tableName),
    appUrl: APP_URL,
    intervalMs: INTERVAL_MS,
  };
  let handler = makeHandler(deps);
  let messages = 0;

  const world = {
    userId,
    tableName,
    db: plain,
    counting,
    clock,
    mailer,
    campaigns,
    sendQueue,
    pitches,
    senderStore,
    unsubscribes,
    deps,
    get now() {
      return now;
    },
    set now(value: Date) {
      now = value;
    },
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
    /** Rebuilds the handler with some deps replaced (a faulty store, another mailer). */
    withDeps(overrides: Partial<SenderDeps>) {
      handler = makeHandler({ ...deps, ...overrides });
    },

    /** An HTML-mode draft whose body links the track and the artist's site. */
    async draft(recipients: number, overrides: Partial<Campaign> = {}): Promise<Campaign> {
      return campaigns.createDraft(
        userId,
        buildDraftContent({
          track_name: overrides.track_name ?? 'Midnight Drive',
          track_url: overrides.track_url ?? 'https://music.test/midnight-drive',
          email_body:
            '<!DOCTYPE html><html><body><p>Hi [CONTACT_NAME],</p><p><a href="https://music.test/midnight-drive?from=mail&amp;x=1">Listen</a> · <a href="https://ada.test/">My site</a></p></body></html>',
          total_recipients: recipients,
        }),
        now,
      );
    },

    /** Queues a whole selection through the send flow's store, in batches as the web sends them. */
    async queue(campaign: Campaign, contacts: Contact[], sendAfter: Date = now, options: { followUps?: FollowUps; sendWindow?: CampaignSendWindow } = {}) {
      const batches = Math.max(1, Math.ceil(contacts.length / 100));
      for (let b = 0; b < batches; b++) {
        const result = await sendQueue.queueBatch(userId, {
          campaignId: campaign.id,
          batchStart: b * 100,
          total: contacts.length,
          contacts: contacts.slice(b * 100, b * 100 + 100),
          sendAfter,
          now,
          ...options,
        });
        if (result.outcome !== 'queued') throw new Error(`queueBatch: ${result.outcome}`);
      }
    },

    async cursor(): Promise<
      | { queue: Record<string, SenderQueueEntry>; due_at?: string; last_slot?: string; daily_limit_refusals?: number; DuePK?: string; DueSK?: string }
      | undefined
    > {
      const { Item } = await plain.send(new GetCommand({ TableName: tableName, Key: { PK: key.user(userId), SK: key.sender() }, ConsistentRead: true }));
      return Item as never;
    },

    /** The tick the dispatcher would queue for this user now, in the slot `now` (undefined when the cursor is not due). */
    async dueTick(): Promise<{ userId: string; dueAt: string; slot: string; head?: { campaignId: string; position: number } } | undefined> {
      const cursor = await world.cursor();
      if (!cursor?.due_at || Date.parse(cursor.due_at) > now.getTime()) return undefined;
      const head = headOf(cursor.queue, now);
      return { userId, dueAt: cursor.due_at, slot: now.toISOString(), ...(head ? { head } : {}) };
    },

    /** Hands these ticks to the sender handler as one SQS batch (one message group: this user). */
    async deliver(...ticks: object[]) {
      const event: SQSEvent = {
        Records: ticks.map((tick) => ({
          messageId: `m-${++messages}`,
          receiptHandle: 'r',
          body: JSON.stringify(tick),
          attributes: { MessageGroupId: userId } as never,
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:send.fifo',
          awsRegion: 'us-east-1',
        })),
      };
      return handler(event);
    },

    /**
     * Moves the clock to the cursor's due time (when later than now) and delivers the dispatcher's tick.
     * Returns the tick, or undefined when the cursor is not due (idle).
     */
    async tick() {
      const cursor = await world.cursor();
      if (!cursor?.due_at) return undefined;
      if (Date.parse(cursor.due_at) > now.getTime()) now = new Date(cursor.due_at);
      const tick = await world.dueTick();
      if (!tick) return undefined;
      const result = await world.deliver(tick);
      if (result.batchItemFailures.length > 0) throw new Error('the tick failed');
      return tick;
    },

    /** Ticks until the cursor is idle (or `max` ticks). */
    async runUntilIdle(max = 50) {
      for (let i = 0; i < max; i++) if (!(await world.tick())) return i;
      throw new Error(`still due after ${max} ticks`);
    },

    async recipients(campaignId: string): Promise<RecipientRecord[]> {
      const { Items } = await plain.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :rcpt)',
          ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId), ':rcpt': key.recipientPrefix() },
          ConsistentRead: true,
        }),
      );
      return (Items ?? []) as RecipientRecord[];
    },

    async campaign(campaignId: string) {
      const { Item } = await plain.send(
        new GetCommand({ TableName: tableName, Key: { PK: key.user(userId), SK: key.campaign(campaignId) }, ConsistentRead: true }),
      );
      return Item as (Campaign & Record<string, unknown>) | undefined;
    },

    async item(pk: string, sk: string) {
      const { Item } = await plain.send(new GetCommand({ TableName: tableName, Key: { PK: pk, SK: sk }, ConsistentRead: true }));
      return Item;
    },

    async counters(at: Date = now) {
      const day = await world.item(key.user(userId), key.dayCounter(pacificDate(at)));
      const month = await world.item(key.user(userId), key.monthCounter(pacificMonth(at)));
      return { day: Number(day?.sent ?? 0), month: Number(month?.sent ?? 0) };
    },
  };
  return world;
}

export type SendingWorld = Awaited<ReturnType<typeof sendingWorld>>;
