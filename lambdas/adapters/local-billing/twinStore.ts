/**
 * The local billing twin's own records, in the app's table under `LOCALBILLING#` (schema/table.ts,
 * ACCESS_PATTERNS.md): customers, Checkout and portal sessions, subscriptions. Times are epoch seconds,
 * as Stripe's. The twin answers the adapter's reads from here (lambdas/adapters/local-billing) and the
 * local pages change it (twin.ts), never the app's own billing items.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { key, ttlAttribute } from '../../../schema/table';
import type { SubscriptionStatus } from '../../../schema/api/profileValues';
import { epochSeconds } from '../clock';
import { ulidGenerator } from '../ulid';
import { withoutKeys } from '../dynamodb/client';
import { putNew, queryPartition, projectionOf } from '../dynamodb/query';

export interface TwinCustomer {
  id: string;
  userId: string;
  email: string;
  created: number;
}

export interface TwinCheckoutSession {
  id: string;
  customer: string;
  userId: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  /** open until paid (complete) or cancelled (expired): each session is used once. */
  status: 'open' | 'complete' | 'expired';
  /** The subscription the payment made. */
  subscription: string | null;
  created: number;
}

export interface TwinPortalSession {
  id: string;
  customer: string;
  returnUrl: string;
  created: number;
}

export interface TwinSubscription {
  id: string;
  customer: string;
  priceId: string;
  status: Exclude<SubscriptionStatus, 'none'>;
  created: number;
  /** The start of the first period: every period end is a whole number of months after it. */
  billingCycleAnchor: number;
  /** How many periods have started (1 after the first payment): the current period ends `periods` months after the anchor. */
  periods: number;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  /** Set with cancelAtPeriodEnd (the period end), as Stripe does. */
  cancelAt: number | null;
  canceledAt: number | null;
  endedAt: number | null;
  /** Failed attempts to pay the latest invoice (past_due: 1, then 2 after one more retry). */
  failedPaymentAttempts: number;
  latestInvoice: string | null;
  /** Each change is written on the version it read, so two clicks never overwrite each other. */
  version: number;
  updated: number;
}

/** Stripe's Checkout Sessions expire after 24 hours; the twin's sessions (and portal sessions) do too. */
export const SESSION_LIFETIME_SECONDS = 24 * 60 * 60;

const OBJECT_ENTITY = 'local-billing-object';
const SUBSCRIPTION_ENTITY = 'local-billing-subscription';

const objectKey = (id: string) => ({ PK: key.localBillingPartition(id), SK: key.localBillingObject() });
const checkoutOfCustomerKey = (customer: string, id: string) => ({ PK: key.localBillingPartition(customer), SK: key.localBillingCheckout(id) });
const subscriptionKey = (customer: string, id: string) => ({ PK: key.localBillingPartition(customer), SK: key.localBillingSubscription(id) });

const SUBSCRIPTION_FIELDS: readonly (keyof TwinSubscription)[] = [
  'id',
  'customer',
  'priceId',
  'status',
  'created',
  'billingCycleAnchor',
  'periods',
  'currentPeriodStart',
  'currentPeriodEnd',
  'cancelAtPeriodEnd',
  'cancelAt',
  'canceledAt',
  'endedAt',
  'failedPaymentAttempts',
  'latestInvoice',
  'version',
  'updated',
];

/** A change lost to another one made meanwhile (a second click): the person tries again on a fresh page. */
export class TwinConflictError extends Error {
  constructor() {
    super('The subscription changed meanwhile. Reload the page and try again.');
    this.name = 'TwinConflictError';
  }
}

const isConditionFailure = (error: unknown) =>
  error instanceof Error && (error.name === 'ConditionalCheckFailedException' || error.name === 'TransactionCanceledException');

export class TwinStore {
  private readonly ids = ulidGenerator();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** A Stripe-like id: `cus_local_<ulid>`, `sub_local_<ulid>`; ids of one kind sort by creation. */
  newId(prefix: string, now: Date): string {
    return `${prefix}_local_${this.ids.next(now)}`;
  }

  /** A Checkout or portal session id: 128 random bits, as the session is the pages' only credential (a ULID's next value is guessable). */
  newSessionId(prefix: 'cs' | 'bps'): string {
    return `${prefix}_local_${randomBytes(16).toString('hex')}`;
  }

  /** The user's customer: made on the first call, the same one on every later call (Stripe's idempotency key). */
  async customerForUser(input: { userId: string; email: string }, now: Date): Promise<TwinCustomer> {
    const userKey = { PK: key.localBillingUser(input.userId), SK: key.localBillingUserCustomer() };
    const candidate: TwinCustomer = { id: this.newId('cus', now), userId: input.userId, email: input.email, created: epochSeconds(now) };
    try {
      await putNew(this.db, this.tableName, userKey, OBJECT_ENTITY, { customer: candidate.id });
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: userKey, ConsistentRead: true }));
      const existing = await this.customer(String(Item?.customer));
      if (!existing) throw new Error(`The local billing customer of user ${input.userId} is missing`, { cause: error });
      return existing;
    }
    await putNew(this.db, this.tableName, objectKey(candidate.id), OBJECT_ENTITY, { ...candidate });
    return candidate;
  }

  customer = (id: string) => this.getObject<TwinCustomer>(id, 'cus_');
  checkoutSession = (id: string) => this.getObject<TwinCheckoutSession>(id, 'cs_');
  portalSession = (id: string) => this.getObject<TwinPortalSession>(id, 'bps_');

  async putCheckoutSession(session: TwinCheckoutSession): Promise<void> {
    const expiresAt = session.created + SESSION_LIFETIME_SECONDS;
    // Listed under its customer first: a listed id without its session is skipped, a session never goes unlisted.
    await putNew(this.db, this.tableName, checkoutOfCustomerKey(session.customer, session.id), OBJECT_ENTITY, {
      session: session.id,
      [ttlAttribute]: expiresAt,
    });
    await putNew(this.db, this.tableName, objectKey(session.id), OBJECT_ENTITY, { ...session, [ttlAttribute]: expiresAt });
  }

  /** The customer's Checkout Sessions that are still open. */
  async openCheckoutSessions(customer: string): Promise<TwinCheckoutSession[]> {
    const listed = await queryPartition<{ session: string }>(this.db, this.tableName, {
      pk: key.localBillingPartition(customer),
      skPrefix: key.localBillingCheckoutPrefix(),
      projection: projectionOf(['session']),
    });
    const sessions = await Promise.all(listed.map(({ session }) => this.checkoutSession(session)));
    return sessions.filter((session): session is TwinCheckoutSession => session?.status === 'open');
  }

  async putPortalSession(session: TwinPortalSession): Promise<void> {
    await putNew(this.db, this.tableName, objectKey(session.id), OBJECT_ENTITY, { ...session, [ttlAttribute]: session.created + SESSION_LIFETIME_SECONDS });
  }

  /** Closes an open Checkout Session (expired: cancelled); false when it was not open any more. */
  async closeCheckoutSession(id: string): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...objectKey(id), entity: OBJECT_ENTITY, ...(await this.requireCheckoutSession(id)), status: 'expired' },
          ConditionExpression: '#status = :open',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':open': 'open' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Pays an open Checkout Session: the session completes and the subscription appears, in one transaction; false when it was not open. */
  async completeCheckoutSession(session: TwinCheckoutSession, subscription: TwinSubscription): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...objectKey(session.id), entity: OBJECT_ENTITY, ...session, status: 'complete', subscription: subscription.id },
                ConditionExpression: '#status = :open',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':open': 'open' },
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { ...subscriptionKey(subscription.customer, subscription.id), entity: SUBSCRIPTION_ENTITY, ...subscription },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async subscriptions(customer: string): Promise<TwinSubscription[]> {
    return queryPartition<TwinSubscription>(this.db, this.tableName, {
      pk: key.localBillingPartition(customer),
      skPrefix: key.localBillingSubscriptionPrefix(),
      projection: projectionOf(SUBSCRIPTION_FIELDS),
    });
  }

  /** Writes a changed subscription over the version it was read at (and bumps it); TwinConflictError when another change came first. */
  async replaceSubscription(next: TwinSubscription, now: Date): Promise<TwinSubscription> {
    const written = { ...next, version: next.version + 1, updated: epochSeconds(now) };
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...subscriptionKey(next.customer, next.id), entity: SUBSCRIPTION_ENTITY, ...written },
          ConditionExpression: '#version = :read',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':read': next.version },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new TwinConflictError();
      throw error;
    }
    return written;
  }

  async subscription(customer: string, id: string): Promise<TwinSubscription | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: subscriptionKey(customer, id), ConsistentRead: true }));
    return Item ? withoutKeys<TwinSubscription>(Item) : undefined;
  }

  private async requireCheckoutSession(id: string): Promise<TwinCheckoutSession> {
    const session = await this.checkoutSession(id);
    if (!session) throw new Error(`No local Checkout Session ${id}`);
    return session;
  }

  private async getObject<T>(id: string, prefix: string): Promise<T | undefined> {
    if (!id.startsWith(prefix)) return undefined;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: objectKey(id), ConsistentRead: true }));
    return Item ? withoutKeys<T>(Item) : undefined;
  }
}
