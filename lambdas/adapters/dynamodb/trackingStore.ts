/**
 * Tracking and the public unsubscribe (schema/ACCESS_PATTERNS.md "open pixel, click redirect,
 * unsubscribe page" and "unsubscribe by token"). Everything starts from a sent email's token item
 * (`TOKEN#<token>` / `TOKEN`, written by the sender's claim), which names the user, the campaign and
 * the recipient's position:
 *  - the email's counters live on its RCPT item (`CAMPAIGN#<id>` / `RCPT#<position>`): opened_at and
 *    last_opened_at, open_count, machine_opened_at, machine_open_count, clicked_at and last_clicked_at,
 *    click_count (RecipientRecord's names);
 *  - the campaign (`USER#<sub>` / `CAMPAIGN#<id>`) counts emails, not events: emails_opened on an
 *    email's first human open, emails_machine_opened on its first machine open, emails_clicked on its
 *    first click, emails_unsubscribed once per address. The "first" is decided by a condition on the
 *    RCPT item inside the same transaction as the campaign's ADD, so two opens at once count once.
 *  - the user's counters (lambdas/adapters/dynamodb/counters.ts: `STATS`, `STATS#<Pacific day>`) and a
 *    click's link counter (`CAMPAIGN#<id>` / `LINK#<index>`) move in the same transaction as the RCPT
 *    item, so they count exactly what the logs say;
 *  - an email's first human open sets `opened_at` on the track's PITCHED item (the pipeline's Opened,
 *    issue 28 §1; lambdas/adapters/dynamodb/pitchedEvents.ts) in the same transaction;
 *  - an unsubscribe is UnsubscribeStore's item (`USER#<sub>` / `UNSUB#<addressId>`), so the Contacts
 *    page lists it and the sender's claim (ConditionCheck on that key) stops every later send.
 * A click does not count as an open: opens are what the pixel saw (DESIGN: opens by people and by
 * machines are kept apart, and a click alone cannot tell which the open was).
 */
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Unsubscribe } from '../../../schema/api/contacts';
import { key } from '../../../schema/table';
import { addressId } from '../../core/addressId';
import type { EmailToken, TrackingStore } from '../../ports';
import { counterUpdates, linkClickUpdate, type CounterChange } from './counters';
import { firstOnPitched, pitchedUpdate, transactWithPitched } from './pitchedEvents';
import { conditionFailed, reasonCodes, retryingRaces } from './races';
import type { TransactItem } from './sending/transaction';

/** The TOKEN item's attributes: exactly EmailToken's fields (the sender writes them by these names). */
const TOKEN_FIELDS = [
  'token',
  'user_id',
  'campaign_id',
  'position',
  'contact_id',
  'contact_email',
  'contact_name',
  'artist_name',
  'track_name',
  'links',
  'created_at',
] as const satisfies readonly (keyof EmailToken)[];
/**
 * Kept only when stored (issue 27 §1): a follow-up step's number, which the listen store counts a listen
 * or an answer on, and the track key an answer 'Not for us' marks to stop the track's steps.
 */
const OPTIONAL_TOKEN_FIELDS = ['step', 'track_key'] as const satisfies readonly (keyof EmailToken)[];

/** UnsubscribeStore's entity name (lambdas/adapters/dynamodb/unsubscribeStore.ts): one item shape for both writers. */
const UNSUBSCRIBE_ENTITY = 'unsubscribe';

type Item = Record<string, unknown>;

/** One kind of counted event on an email: how its first occurrence is recognised and what it counts. */
interface EventCounter {
  /** True on the RCPT item while this event has not happened yet for the email. */
  notYet: string;
  /** The RCPT update of the first occurrence (sets its time, counts it). */
  first: string;
  /** The RCPT update of any later one. */
  again: string;
  /** The counter of emails with at least one such event, on the campaign and the user's counters (lambdas/core/counters.ts). */
  emailCounter: 'emails_opened' | 'emails_machine_opened' | 'emails_clicked';
  /** The counter of every such event, on the RCPT item and the user's totals. */
  eventCounter: 'open_count' | 'machine_open_count' | 'click_count';
  /** The fact its first occurrence sets on the track's PITCHED item (the pipeline's stage), if any. */
  pitched?: 'opened_at';
}

const HUMAN_OPEN: EventCounter = {
  // The sender writes opened_at: null, so "absent or null" is "not opened yet".
  notYet: '(attribute_not_exists(opened_at) OR attribute_type(opened_at, :nullType))',
  first: 'SET opened_at = :now, last_opened_at = :now ADD open_count :one',
  again: 'SET last_opened_at = :now ADD open_count :one',
  emailCounter: 'emails_opened',
  eventCounter: 'open_count',
  // The pipeline's Opened: a person's open only (a machine's says nothing about the contact).
  pitched: 'opened_at',
};

const MACHINE_OPEN: EventCounter = {
  notYet: '(attribute_not_exists(machine_open_count) OR machine_open_count = :zero)',
  first: 'SET machine_opened_at = :now ADD machine_open_count :one',
  again: 'ADD machine_open_count :one',
  emailCounter: 'emails_machine_opened',
  eventCounter: 'machine_open_count',
};

const CLICK: EventCounter = {
  notYet: '(attribute_not_exists(clicked_at) OR attribute_type(clicked_at, :nullType))',
  first: 'SET clicked_at = :now, last_clicked_at = :now ADD click_count :one',
  again: 'SET last_clicked_at = :now ADD click_count :one',
  emailCounter: 'emails_clicked',
  eventCounter: 'click_count',
};

export class DynamoTrackingStore implements TrackingStore {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  async getToken(token: string): Promise<EmailToken | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { PK: key.tokenPartition(token), SK: key.tokenSort() },
        // The claim writes the token just before the send: a strongly consistent read always sees it.
        ConsistentRead: true,
      }),
    );
    if (!Item) return undefined;
    const present = OPTIONAL_TOKEN_FIELDS.filter((field) => Item[field] !== undefined && Item[field] !== null);
    return Object.fromEntries([...TOKEN_FIELDS, ...present].map((field) => [field, Item[field]])) as unknown as EmailToken;
  }

  recordOpen(token: EmailToken, kind: 'human' | 'machine', now: Date): Promise<void> {
    return this.count(token, kind === 'human' ? HUMAN_OPEN : MACHINE_OPEN, now);
  }

  recordClick(token: EmailToken, link: number, now: Date): Promise<void> {
    const url = token.links[link];
    return this.count(token, CLICK, now, url === undefined ? undefined : linkClickUpdate(this.tableName, token.campaign_id, link, url));
  }

  async unsubscribe(token: EmailToken, reason: { reason: string | null; details: string | null }, now: Date): Promise<'unsubscribed' | 'already'> {
    const record: Unsubscribe = {
      // addressId of the address as sent: the id the contact had when queued, and the key the sender checks.
      id: addressId(token.user_id, token.contact_email),
      contact_name: token.contact_name,
      contact_email: token.contact_email,
      unsubscribed_at: now.toISOString(),
      unsubscribe_reason: reason.reason,
      unsubscribe_reason_details: reason.details,
      campaign_id: token.campaign_id,
      track_name: token.track_name,
    };
    const put = {
      TableName: this.tableName,
      Item: { PK: key.user(token.user_id), SK: key.unsubscribe(record.id), entity: UNSUBSCRIBE_ENTITY, ...record },
      // Already unsubscribed: keep the first record (its time and reason), count nothing.
      ConditionExpression: 'attribute_not_exists(PK)',
    };
    try {
      await retryingRaces(() =>
        this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: put },
              {
                Update: {
                  TableName: this.tableName,
                  Key: this.campaignKey(token),
                  UpdateExpression: 'ADD emails_unsubscribed :one',
                  ConditionExpression: 'attribute_exists(PK)',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
              ...this.userCounters(token, now, { emails_unsubscribed: 1 }),
            ],
          }),
        ),
      );
      return 'unsubscribed';
    } catch (error) {
      if (!conditionFailed(error)) throw error;
      const [unsubscribed] = reasonCodes(error);
      if (unsubscribed === 'ConditionalCheckFailed') return 'already';
      // Only the campaign's condition failed: it is missing (never expected).
      return this.unsubscribeWithoutCampaign(put, this.userCounters(token, now, { emails_unsubscribed: 1 }));
    }
  }

  async isUnsubscribed(token: EmailToken): Promise<boolean> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { PK: key.user(token.user_id), SK: key.unsubscribe(addressId(token.user_id, token.contact_email)) },
        ProjectionExpression: 'PK',
        ConsistentRead: true,
      }),
    );
    return Item !== undefined;
  }

  private campaignKey(token: EmailToken) {
    return { PK: key.user(token.user_id), SK: key.campaign(token.campaign_id) };
  }

  private recipientKey(token: EmailToken) {
    return { PK: key.campaignPartition(token.campaign_id), SK: key.recipient(token.position) };
  }

  /** The user's totals and day updates of a change, for a transaction. */
  private userCounters(token: EmailToken, at: Date, change: CounterChange): TransactItem[] {
    const { statsTotals, statsDay } = counterUpdates(this.tableName, token.user_id, at, change);
    return statsDay ? [statsTotals, statsDay] : [statsTotals];
  }

  /**
   * The first occurrence: the RCPT update (only while `notYet`), the campaign's ADD and the user's
   * counters (the email counter on the totals and today's item, the event counter on the totals) in
   * one transaction. Any later one (the RCPT condition failed): the RCPT update and the totals' event
   * counter. A click's link counter is in either. Nothing creates the RCPT or the campaign: a missing
   * one is left missing (and then nothing is counted for the user either).
   */
  private async count(token: EmailToken, counter: EventCounter, now: Date, link?: TransactItem): Promise<void> {
    const values: Item = { ':one': 1, ':now': now.toISOString(), ':nullType': 'NULL', ':zero': 0 };
    const used = (expression: string) => Object.fromEntries(Object.entries(values).filter(([name]) => expression.includes(name)));
    const firstCondition = `attribute_exists(PK) AND ${counter.notYet}`;
    const withLink = link ? [link] : [];
    // The first occurrence moves the track's PITCHED item in the same transaction (when it has one).
    const pitched = counter.pitched ? pitchedUpdate(this.tableName, token, firstOnPitched(counter.pitched, now.toISOString())) : undefined;
    try {
      await transactWithPitched(
        this.db,
        [
          {
            Update: {
              TableName: this.tableName,
              Key: this.recipientKey(token),
              UpdateExpression: counter.first,
              ConditionExpression: firstCondition,
              ExpressionAttributeValues: used(`${counter.first} ${firstCondition}`),
            },
          },
          {
            Update: {
              TableName: this.tableName,
              Key: this.campaignKey(token),
              UpdateExpression: `ADD ${counter.emailCounter} :one`,
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
          ...this.userCounters(token, now, { [counter.emailCounter]: 1, [counter.eventCounter]: 1 }),
          ...withLink,
        ],
        pitched,
      );
      return;
    } catch (error) {
      // Not the first (or the RCPT or campaign is missing): count it on the email alone.
      if (!conditionFailed(error)) throw error;
    }
    const againCondition = 'attribute_exists(PK)';
    try {
      await retryingRaces(() =>
        this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.tableName,
                  Key: this.recipientKey(token),
                  UpdateExpression: counter.again,
                  ConditionExpression: againCondition,
                  ExpressionAttributeValues: used(counter.again),
                },
              },
              ...this.userCounters(token, now, { [counter.eventCounter]: 1 }),
              ...withLink,
            ],
          }),
        ),
      );
    } catch (error) {
      // The email's RCPT item is gone: there is nothing to count on.
      if (!conditionFailed(error)) throw error;
    }
  }

  /** The campaign item is missing (never expected): the unsubscribe must still be recorded. */
  private async unsubscribeWithoutCampaign(
    put: { TableName: string; Item: Item; ConditionExpression: string },
    counters: TransactItem[],
  ): Promise<'unsubscribed' | 'already'> {
    try {
      await retryingRaces(() => this.db.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, ...counters] })));
      return 'unsubscribed';
    } catch (error) {
      if (conditionFailed(error)) return 'already';
      throw error;
    }
  }
}
