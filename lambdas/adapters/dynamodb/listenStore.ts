/**
 * The listen page's events and answers (issue 16; schema/ACCESS_PATTERNS.md "listen page"). Like the
 * tracking store, everything starts from the email's token item, and each counted event moves the
 * email's RCPT item, the campaign and the user's counters (`STATS`, `STATS#<Pacific day>`) in one
 * transaction whose condition on the RCPT item decides whether it is the first:
 *  - a play session counts once (`listen_session` holds the current session's id): plays on the RCPT,
 *    play_count on the totals;
 *  - the furthest milestone only rises (`listen_max_percent`); the first reach of 25 % sets listened_at
 *    and counts emails_listened on the campaign, the totals and the day;
 *  - the seconds of the current session (`listen_session_seconds`) are moved by a conditional update on
 *    the value read, so two beacons at once add their seconds once, and never past the track's length;
 *  - a progress beacon reads the RCPT once (core progressChange) and sends the one transaction it needs
 *    (the first listen or a higher milestone, with its seconds): the read is a hint, the conditions the
 *    guard, and a beacon that lost a race to another reads again;
 *  - a download counts on the RCPT and the totals; the recipient's first on the campaign (emails_downloaded);
 *  - an answer replaces the current one; the first counts emails_answered (campaign, totals, day); the
 *    contact item keeps the latest (`last_answer`) for the Contacts page;
 *  - the first listen and every answer move the track's PITCHED item (the pipeline's stage, issue 28 §1;
 *    lambdas/adapters/dynamodb/pitchedEvents.ts) in the same transaction;
 *  - a first listen or first answer through a follow-up step's token (issue 27 §1) counts on the campaign
 *    per step too (core STEP_ATTRIBUTED_COUNTERS), in the same update, and the RCPT keeps the step.
 * A missing RCPT or campaign is left missing, and then nothing is counted.
 *
 * Each event is bounded per recipient (core LISTEN_PLAYS_PER_HOUR, LISTEN_EVENTS_PER_MINUTE) by window
 * items `LISTENRATE#<position>#<window>` in the campaign's partition, moved in the event's own transaction:
 * the first transaction of an event that counts anything takes a place in the minute's window (a new play
 * session also one in the hour's), and a full window cancels it, so an event over the bound counts nothing.
 * The windows are items of their own, not attributes of the RCPT: a transaction moves an item once, and
 * the cancellation reasons then tell a full window from the event's own condition (a repeated session).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { key, ttlAttribute } from '../../../schema/table';
import { listenMilestones, type ListenAnswer } from '../../../schema/api/listenValues';
import {
  LISTEN_EVENTS_PER_MINUTE,
  LISTEN_PLAYS_PER_HOUR,
  listenDaysOf,
  listenRateWindows,
  recipientListen,
  progressChange,
  type ListenRateWindow,
  type ProgressChange,
} from '../../core/listen';
import type { EmailToken, ListenCampaign, ListenRecorded, ListenStore } from '../../ports';
import { epochSeconds } from '../clock';
import { followUpStepOf, stepCounter } from '../../core/counters';
import { counterUpdates, type CounterChange } from './counters';
import { conditionFailed, reasonCodes } from './races';
import { answerOnPitched, firstOnPitched, pitchedUpdate, transactWithPitched } from './pitchedEvents';
import { update, type TransactItem } from './sending/transaction';

/** How many page sessions' downloads a recipient counts: beyond it a forged beacon adds nothing. */
const DOWNLOAD_SESSIONS_KEPT = 100;

/** How many times the seconds of a session are tried against a changing stored value. */
const SECONDS_ATTEMPTS = 5;

/**
 * How many times a progress beacon is read and tried in all: the seconds' tries, then the milestone's
 * alone (each lost try is a higher milestone stored, or the campaign found gone).
 */
const PROGRESS_ATTEMPTS = SECONDS_ATTEMPTS + listenMilestones.length + 1;

/** How long a window item outlives its window (TTL): past it nothing reads it. */
const WINDOW_KEPT_MS = 60 * 60 * 1000;

/**
 * One event's places in the recipient's windows: the window items go with each of the event's
 * transactions until one of them is written, so an event takes one place whatever it counts, and an
 * event that counts nothing (a repeated beacon) takes none.
 */
interface EventPlaces {
  items: TransactItem[];
  taken: boolean;
}

/** What one of an event's transactions did. */
type Counted = 'written' | 'not_new' | 'rate_limited';

/** What a progress beacon's transaction did: `raced` when the RCPT changed since it was read. */
type ProgressCounted = 'written' | 'raced' | 'campaign_gone' | 'rate_limited';

export class DynamoListenStore implements ListenStore {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  async campaign(token: EmailToken): Promise<ListenCampaign | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: this.campaignKey(token),
        ProjectionExpression: 'track_name, track_id, allow_download, listen_days, description',
      }),
    );
    if (!Item) return undefined;
    return {
      track_name: typeof Item.track_name === 'string' ? Item.track_name : '',
      track_id: typeof Item.track_id === 'string' ? Item.track_id : null,
      allow_download: Item.allow_download === true,
      listen_days: listenDaysOf(Item.listen_days),
      description: typeof Item.description === 'string' ? Item.description : '',
    };
  }

  async currentAnswer(token: EmailToken): Promise<{ answer: ListenAnswer | null; answer_note: string | null }> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: this.recipientKey(token), ProjectionExpression: 'answer, answer_note', ConsistentRead: true }),
    );
    // The one reader of the RCPT's listen attributes: an answer the page does not offer reads as none.
    const { answer, answer_note } = recipientListen(Item ?? {});
    return { answer, answer_note };
  }

  async recordPlay(token: EmailToken, session: string, now: Date): Promise<ListenRecorded> {
    const places = this.places(token, now, { newSession: true });
    const counted = await this.countEvent(places, [
      update(this.tableName, this.recipientKey(token), {
        set: [
          'listen_session = :session',
          'listen_session_seconds = :zero',
          'last_listened_at = :now',
          'first_listened_at = if_not_exists(first_listened_at, :now)',
        ],
        add: ['play_count :one'],
        condition: 'attribute_exists(PK) AND (attribute_not_exists(listen_session) OR listen_session <> :session)',
        values: { ':session': session, ':zero': 0, ':now': now.toISOString(), ':one': 1 },
      }),
      ...this.userCounters(token, now, { play_count: 1 }),
    ]);
    return counted === 'rate_limited' ? 'rate_limited' : 'recorded';
  }

  async recordProgress(
    token: EmailToken,
    progress: { session: string; milestone: number; seconds: number; durationSeconds: number },
    now: Date,
  ): Promise<ListenRecorded> {
    const places = this.places(token, now, { newSession: false });
    let campaignGone = false;
    // Each try reads the RCPT once and sends the one transaction the beacon needs; a condition that no
    // longer holds means another beacon wrote first, so the next try reads again. The seconds go along
    // while they may (each lost race moved them); after that the milestone alone, whose conditions only
    // fail when the stored milestone rose, so it is never lost to a race.
    for (let attempt = 1; attempt <= PROGRESS_ATTEMPTS; attempt++) {
      const { Item } = await this.db.send(
        new GetCommand({
          TableName: this.tableName,
          Key: this.recipientKey(token),
          ProjectionExpression: 'listened_at, listen_max_percent, listen_session, listen_session_seconds',
          ConsistentRead: true,
        }),
      );
      if (!Item) return 'recorded'; // no such email: nothing to count
      // With the campaign gone there is no listen to count on it: only a higher milestone is news.
      const change = progressChange(Item, attempt <= SECONDS_ATTEMPTS ? progress : { ...progress, seconds: 0 }, { firstListenCounts: !campaignGone });
      if (!change.milestone && !change.seconds) return 'recorded'; // nothing new: a repeated or late beacon
      const counted = await this.countProgress(token, change, now, places);
      if (counted === 'campaign_gone') campaignGone = true;
      else if (counted !== 'raced') return counted === 'rate_limited' ? 'rate_limited' : 'recorded';
    }
    return 'recorded';
  }

  /**
   * One progress beacon's transaction: the RCPT's milestone and seconds under the conditions that make
   * each count once (the first listen: none yet; a milestone: higher than stored; the seconds: the
   * session and its seconds as read), the listen's counters with a first listen, the event's places.
   */
  private async countProgress(token: EmailToken, change: ProgressChange, now: Date, places: EventPlaces): Promise<ProgressCounted> {
    const set: string[] = [];
    const add: string[] = [];
    const conditions = ['attribute_exists(PK)'];
    const values: Record<string, unknown> = {};
    const { milestone, seconds } = change;
    if (milestone) {
      set.push('listen_max_percent = :m', 'last_listened_at = :now');
      values[':m'] = milestone.value;
      values[':now'] = now.toISOString();
      if (milestone.first) {
        set.push('listened_at = :now');
        conditions.push('attribute_not_exists(listened_at)');
        const step = followUpStepOf(token.step);
        if (step !== null) {
          set.push('listened_step = :step');
          values[':step'] = step;
        }
      } else conditions.push('(attribute_not_exists(listen_max_percent) OR listen_max_percent < :m)');
    }
    if (seconds) {
      set.push('listen_session_seconds = :heard');
      add.push('listen_seconds :add');
      conditions.push('listen_session = :session AND listen_session_seconds = :counted');
      Object.assign(values, { ':heard': seconds.counted + seconds.add, ':add': seconds.add, ':session': seconds.session, ':counted': seconds.counted });
    }
    const recipientUpdate = update(this.tableName, this.recipientKey(token), { set, add, condition: conditions.join(' AND '), values });
    const listenCounters = milestone?.first ? [this.campaignAdd(token, 'emails_listened'), ...this.userCounters(token, now, { emails_listened: 1 })] : [];
    // The first listen moves the track's PITCHED item (the pipeline's Listened) in the same transaction.
    const pitched = milestone?.first ? pitchedUpdate(this.tableName, token, firstOnPitched('listened_at', now.toISOString())) : undefined;
    const failed = await this.sendWithPlaces(places, [recipientUpdate, ...listenCounters], pitched);
    if (failed === 'written' || failed === 'rate_limited') return failed;
    // The RCPT's condition (read again), else the campaign's (a first listen with the campaign gone).
    return failed[0] ? 'raced' : 'campaign_gone';
  }

  async recordDownload(token: EmailToken, session: string, now: Date): Promise<ListenRecorded> {
    const places = this.places(token, now, { newSession: false });
    // One download per page session, whatever the order beacons arrive in: the sessions that downloaded
    // are kept (a bounded set), so a double click or a beacon sent twice counts once.
    const values = { ':now': now.toISOString(), ':one': 1, ':zero': 0, ':session': session, ':sessions': new Set([session]), ':most': DOWNLOAD_SESSIONS_KEPT };
    const newSession = '(attribute_not_exists(download_sessions) OR (NOT contains(download_sessions, :session) AND size(download_sessions) < :most))';
    const first = await this.countEvent(places, [
      update(this.tableName, this.recipientKey(token), {
        set: ['last_listened_at = :now'],
        add: ['download_count :one', 'download_sessions :sessions'],
        condition: `attribute_exists(PK) AND (attribute_not_exists(download_count) OR download_count = :zero) AND ${newSession}`,
        values,
      }),
      this.campaignAdd(token, 'emails_downloaded'),
      ...this.userCounters(token, now, { download_count: 1 }),
    ]);
    if (first !== 'not_new') return first === 'rate_limited' ? 'rate_limited' : 'recorded';
    const later = await this.countEvent(places, [
      update(this.tableName, this.recipientKey(token), {
        set: ['last_listened_at = :now'],
        add: ['download_count :one', 'download_sessions :sessions'],
        condition: `attribute_exists(PK) AND ${newSession}`,
        values: { ':now': values[':now'], ':one': 1, ':session': session, ':sessions': values[':sessions'], ':most': DOWNLOAD_SESSIONS_KEPT },
      }),
      ...this.userCounters(token, now, { download_count: 1 }),
    ]);
    return later === 'rate_limited' ? 'rate_limited' : 'recorded';
  }

  async answer(token: EmailToken, given: { answer: ListenAnswer; note: string | null }, now: Date): Promise<void> {
    const at = now.toISOString();
    const values = { ':answer': given.answer, ':note': given.note, ':now': at };
    const set = ['answer = :answer', 'answer_note = :note', 'answered_at = :now'];
    const step = followUpStepOf(token.step);
    // The track's PITCHED item takes the answer in the answer's own transaction (the pipeline's stage;
    // 'Not for us' passes, which stops the track's follow-ups in every campaign: issue 27 §1; a to-do
    // answer puts it in the user's to-dos, another takes it out).
    const pitched = pitchedUpdate(this.tableName, token, (place) => answerOnPitched(given.answer, given.note, at, place));
    const first = await this.tryTransaction(
      [
        update(this.tableName, this.recipientKey(token), {
          set: [...set, 'first_answered_at = :now', ...(step === null ? [] : ['first_answered_step = :step'])],
          condition: 'attribute_exists(PK) AND attribute_not_exists(first_answered_at)',
          values: step === null ? values : { ...values, ':step': step },
        }),
        this.campaignAdd(token, 'emails_answered'),
        ...this.userCounters(token, now, { emails_answered: 1 }),
      ],
      pitched,
    );
    if (!first && !(await this.tryTransaction([update(this.tableName, this.recipientKey(token), { set, condition: 'attribute_exists(PK)', values })], pitched)))
      return; // the email is gone: nothing to answer on
    await this.keepOnContact(token, given, at);
  }

  /** The contact's latest answer (a deleted contact keeps nothing). */
  private async keepOnContact(token: EmailToken, given: { answer: ListenAnswer; note: string | null }, at: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { PK: key.user(token.user_id), SK: key.contact(token.contact_id) },
          UpdateExpression: 'SET last_answer = :answer',
          // A late answer of an older campaign does not replace a newer one.
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(last_answer) OR last_answer.answered_at <= :at)',
          ExpressionAttributeValues: {
            ':answer': { answer: given.answer, note: given.note, answered_at: at, campaign_id: token.campaign_id, track_name: token.track_name },
            ':at': at,
          },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  private campaignKey(token: EmailToken) {
    return { PK: key.user(token.user_id), SK: key.campaign(token.campaign_id) };
  }

  private recipientKey(token: EmailToken) {
    return { PK: key.campaignPartition(token.campaign_id), SK: key.recipient(token.position) };
  }

  /** The event's places: the minute's window, and for a new play session the hour's, each while not full. */
  private places(token: EmailToken, now: Date, { newSession }: { newSession: boolean }): EventPlaces {
    const windows = listenRateWindows(now);
    const place = (window: ListenRateWindow, most: number) =>
      update(
        this.tableName,
        { PK: key.campaignPartition(token.campaign_id), SK: key.listenRate(token.position, window.name) },
        {
          set: ['entity = :entity', '#ttl = :ttl'],
          add: ['taken :one'],
          condition: 'attribute_not_exists(taken) OR taken < :most',
          names: { '#ttl': ttlAttribute },
          values: { ':entity': 'listenRate', ':ttl': epochSeconds(new Date(window.endsAt.getTime() + WINDOW_KEPT_MS)), ':one': 1, ':most': most },
        },
      );
    const items = [place(windows.events, LISTEN_EVENTS_PER_MINUTE)];
    if (newSession) items.push(place(windows.plays, LISTEN_PLAYS_PER_HOUR));
    return { items, taken: false };
  }

  /** One of an event's transactions, with its places until one is taken: a full window refuses it whole. */
  private async countEvent(places: EventPlaces, items: TransactItem[]): Promise<Counted> {
    const failed = await this.sendWithPlaces(places, items);
    return failed === 'written' || failed === 'rate_limited' ? failed : 'not_new';
  }

  /**
   * `items` in one transaction with the event's places until one is taken, and the PITCHED update when
   * given (left out when only its item is gone). Refused: 'rate_limited' when a window is full, else which
   * of `items` failed its condition (the reasons come one per item, in order).
   */
  private async sendWithPlaces(places: EventPlaces, items: TransactItem[], pitched?: TransactItem): Promise<'written' | 'rate_limited' | boolean[]> {
    const sent = places.taken ? items : [...items, ...places.items];
    try {
      await transactWithPitched(this.db, sent, pitched);
      places.taken = true;
      return 'written';
    } catch (error) {
      if (!conditionFailed(error)) throw error;
      const failed = reasonCodes(error)
        .slice(0, sent.length)
        .map((code) => code === 'ConditionalCheckFailed');
      return failed.slice(items.length).includes(true) ? 'rate_limited' : failed.slice(0, items.length);
    }
  }

  /** The campaign's counter, and for a listen or an answer through a follow-up step's link that step's too (one update). */
  private campaignAdd(token: EmailToken, counter: 'emails_listened' | 'emails_answered' | 'emails_downloaded'): TransactItem {
    const step = followUpStepOf(token.step);
    const add = counter === 'emails_downloaded' || step === null ? [`${counter} :one`] : [`${counter} :one`, `${stepCounter(counter, step)} :one`];
    return update(this.tableName, this.campaignKey(token), { add, condition: 'attribute_exists(PK)', values: { ':one': 1 } });
  }

  private userCounters(token: EmailToken, at: Date, change: CounterChange): TransactItem[] {
    const { statsTotals, statsDay } = counterUpdates(this.tableName, token.user_id, at, change);
    return statsDay ? [statsTotals, statsDay] : [statsTotals];
  }

  /** Runs the transaction (with the PITCHED update while its item is there); false when one of its conditions did not hold (nothing written). */
  private async tryTransaction(items: TransactItem[], pitched?: TransactItem): Promise<boolean> {
    try {
      await transactWithPitched(this.db, items, pitched);
      return true;
    } catch (error) {
      if (conditionFailed(error)) return false;
      throw error;
    }
  }
}
