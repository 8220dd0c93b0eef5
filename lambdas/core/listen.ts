/**
 * The private listen page's rules (issue 16, DESIGN §12). Pure. The page's link is the email's own
 * tracking token (lambdas/core/emailToken.ts: 256-bit), so one link per recipient and nothing new to
 * store at send time; what the page reports is counted here honestly:
 *  - a milestone (25/50/75/100 %) counts once per recipient: the stored furthest one only rises;
 *  - the seconds of one play session are at most the track's duration, however many beacons say more;
 *  - a recipient "listened" from 25 % on.
 */
import { isListenAnswer, LISTENED_MILESTONE, listenLimits, listenMilestones } from '../../schema/api/listenValues';
import type { RecipientRecord } from '../ports';

/** The page of a recipient's link: `/l/<token>` on the app. */
export const listenPageUrl = (appUrl: string, token: string) => `${appUrl.replace(/\/+$/, '')}/l/${encodeURIComponent(token)}`;

/** The milestone reached at `percent` (0 before 25 %). */
export function milestoneOf(percent: number): 0 | (typeof listenMilestones)[number] {
  if (!Number.isFinite(percent)) return 0;
  let reached: 0 | (typeof listenMilestones)[number] = 0;
  for (const milestone of listenMilestones) if (percent >= milestone) reached = milestone;
  return reached;
}

/** The days a campaign's links stay valid: a whole number of days in range, else the default. */
export function listenDaysOf(days: unknown): number {
  return typeof days === 'number' && Number.isInteger(days) && days >= listenLimits.daysMin && days <= listenLimits.daysMax ? days : listenLimits.daysDefault;
}

/** When a link made at `createdAt` (the email's token) stops working. */
export function listenExpiresAt(createdAt: string, days: number): Date {
  return new Date(Date.parse(createdAt) + listenDaysOf(days) * 24 * 60 * 60 * 1000);
}

export const isListenExpired = (createdAt: string, days: number, now: Date) => now.getTime() >= listenExpiresAt(createdAt, days).getTime();

/**
 * The seconds to add for a session that reported `reported` seconds heard so far, of which `counted`
 * are already counted: never more than the track lasts in one session, never negative, whole seconds.
 */
export function secondsToAdd(reported: number, counted: number, durationSeconds: number): number {
  const bound = Math.max(0, Math.ceil(durationSeconds));
  const heard = Math.min(Math.max(0, Math.floor(Number.isFinite(reported) ? reported : 0)), bound);
  return Math.max(0, heard - Math.max(0, counted));
}

/** A recipient's progress as stored on the RCPT item (as read: any attribute missing or of another shape). */
export interface StoredProgress {
  listened_at?: unknown;
  listen_max_percent?: unknown;
  listen_session?: unknown;
  listen_session_seconds?: unknown;
}

/** What one progress beacon changes, judged on the RCPT as read: nothing, or one write of these parts. */
export interface ProgressChange {
  /** The milestone to store: `first` when it is the recipient's listen (the first reach of 25 %). */
  milestone?: { value: number; first: boolean };
  /** The current session's seconds: `counted` as read (the write's condition), `add` more. */
  seconds?: { session: string; counted: number; add: number };
}

/**
 * What a progress beacon of `session` at `milestone` with `seconds` heard changes on `stored`: the
 * milestone when it rises (the first from 25 % on is the listen), the seconds of the current session
 * beyond what is counted (secondsToAdd). Only a hint: the write's conditions decide, and a race reads again.
 * Without `firstListenCounts` (the campaign is gone: no listen to count on it) only a higher milestone is news.
 */
export function progressChange(
  stored: StoredProgress,
  progress: { session: string; milestone: number; seconds: number; durationSeconds: number },
  options: { firstListenCounts: boolean } = { firstListenCounts: true },
): ProgressChange {
  const change: ProgressChange = {};
  const furthest = typeof stored.listen_max_percent === 'number' ? stored.listen_max_percent : 0;
  if (options.firstListenCounts && progress.milestone >= LISTENED_MILESTONE && stored.listened_at === undefined)
    change.milestone = { value: progress.milestone, first: true };
  else if (progress.milestone > furthest) change.milestone = { value: progress.milestone, first: false };
  if (progress.seconds > 0 && stored.listen_session === progress.session) {
    const counted = typeof stored.listen_session_seconds === 'number' ? stored.listen_session_seconds : 0;
    const add = secondsToAdd(progress.seconds, counted, progress.durationSeconds);
    if (add > 0) change.seconds = { session: progress.session, counted, add };
  }
  return change;
}

/**
 * A recipient's listening is bounded per token, in fixed windows kept with the counters: each new
 * session counts a play and up to the track's length in seconds, so without a bound a token holder could
 * forge sessions and inflate both; the route's throttle is shared by every link and no bound for one.
 */
/** New play sessions per hour: replaying a 3-minute track back to back for a whole hour starts 20. */
export const LISTEN_PLAYS_PER_HOUR = 30;
/** Counted events per minute: a session sends a play, at most four milestones and a few pauses. */
export const LISTEN_EVENTS_PER_MINUTE = 60;

/** One fixed window of a recipient's bound: its name (part of a key) and when it ends. */
export interface ListenRateWindow {
  name: string;
  endsAt: Date;
}

/** The hour window (new play sessions) and the minute window (counted events) that `now` falls in, UTC. */
export function listenRateWindows(now: Date): { plays: ListenRateWindow; events: ListenRateWindow } {
  const hour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  const minute = Math.floor(now.getTime() / 60_000) * 60_000;
  return {
    plays: { name: `H${new Date(hour).toISOString().slice(0, 13)}`, endsAt: new Date(hour + 3_600_000) },
    events: { name: `M${new Date(minute).toISOString().slice(0, 16)}`, endsAt: new Date(minute + 60_000) },
  };
}

/**
 * How long a container keeps a link's facts (the token item and its campaign's listen fields) after
 * reading them: both are fixed once the email is sent (a campaign's listen fields change only while it
 * is a draft), so a listener's beacons skip two reads; the track (deleted or not) is read on every
 * request, and the expiry is judged on every request by the clock.
 */
export const LINK_FACTS_MS = 60_000;
/** The links a container keeps at most (the oldest go first): a few hundred kilobytes. */
export const LINK_FACTS_MAX = 1_000;

// ---- a sent email's listen attributes, as read ---------------------------------------------------

/** The listen attributes of a sent email (its RCPT item): written by the page's events only. */
export const RECIPIENT_LISTEN_FIELDS = [
  'first_listened_at',
  'last_listened_at',
  'listened_at',
  'listen_max_percent',
  'listen_seconds',
  'play_count',
  'download_count',
  'answer',
  'answer_note',
  'answered_at',
  'first_answered_at',
] as const satisfies readonly (keyof RecipientRecord)[];
export type RecipientListenField = (typeof RECIPIENT_LISTEN_FIELDS)[number];
export type RecipientListen = Pick<RecipientRecord, RecipientListenField>;

/** The listen attributes as stored: any of them absent (an email nobody listened to) or of another shape. */
export type StoredRecipientListen = Partial<Record<RecipientListenField, unknown>>;

const storedCount = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0);
const storedTime = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const furthestMilestone = Math.max(...listenMilestones);

/**
 * The one reader of a sent email's listen attributes (the campaign's sent emails, the insights): counts
 * read 0 until the page's events wrote them, the milestone stays within 0–100, and an answer that is
 * not one of the page's answers reads as none (with no note: a note belongs to its answer).
 */
export function recipientListen(stored: StoredRecipientListen): RecipientListen {
  const answer = isListenAnswer(stored.answer) ? stored.answer : null;
  return {
    first_listened_at: storedTime(stored.first_listened_at),
    last_listened_at: storedTime(stored.last_listened_at),
    listened_at: storedTime(stored.listened_at),
    listen_max_percent: Math.min(storedCount(stored.listen_max_percent), furthestMilestone),
    listen_seconds: storedCount(stored.listen_seconds),
    play_count: storedCount(stored.play_count),
    download_count: storedCount(stored.download_count),
    answer,
    answer_note: answer !== null && typeof stored.answer_note === 'string' && stored.answer_note !== '' ? stored.answer_note : null,
    answered_at: storedTime(stored.answered_at),
    first_answered_at: storedTime(stored.first_answered_at),
  };
}
