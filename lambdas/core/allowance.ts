/**
 * Allowances: how many of something a subject may do in fixed windows (issue 26). Each window is named
 * by when it started, so a count of it is a key of its own that starts at zero when the window turns,
 * and a take is refused whole when any of its windows is full. Pure: the store (ports.ts AllowanceStore)
 * keeps the counts.
 *
 * The AI writer's previews are the first: a model call is billed per token, so each call a user's preview
 * makes takes a place in the plan's hour and month (schema/plans.ts), before the model is called.
 */
import { createHash } from 'node:crypto';
import type { Tier } from '../../schema/api/profileValues';
import { planOf } from '../../schema/plans';
import { nextPacificMonthStart, pacificMonth, resetDayWords } from '../../schema/sendingLimits';

/** One fixed window of an allowance: its name (part of the count's key), when it ends, and how many it holds. */
export interface AllowanceWindow {
  name: string;
  endsAt: Date;
  most: number;
}

/** A take: allowed, or refused by a full window, which says when more are available. */
export type AllowanceOutcome = { allowed: true } | { allowed: false; full: AllowanceWindow };

const HOUR_MS = 3_600_000;

/** The UTC clock hour `now` falls in. */
export function hourWindow(now: Date, most: number): AllowanceWindow {
  const start = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { name: `H${new Date(start).toISOString().slice(0, 13)}`, endsAt: new Date(start + HOUR_MS), most };
}

/** The Pacific calendar month `now` falls in: the month the plan's emails are counted in too. */
export function pacificMonthWindow(now: Date, most: number): AllowanceWindow {
  return { name: `M${pacificMonth(now)}`, endsAt: nextPacificMonthStart(now), most };
}

/** The allowance an AI preview takes a place in: the user's plan's hour and Pacific month. */
export function aiPreviewWindows(tier: Tier, now: Date): AllowanceWindow[] {
  const { perHour, perMonth } = planOf(tier).aiPreviews;
  return [hourWindow(now, perHour), pacificMonthWindow(now, perMonth)];
}

/** What a refused preview says: which allowance is used up, and when more are available. */
export function aiPreviewRefusal(full: AllowanceWindow, now: Date): string {
  const hourly = full.name.startsWith('H');
  const minutes = Math.max(1, Math.ceil((full.endsAt.getTime() - now.getTime()) / 60_000));
  const when = hourly ? `in ${String(minutes)} minute${minutes === 1 ? '' : 's'}` : `on ${resetDayWords(full.endsAt)}`;
  return `You have used the ${full.most.toLocaleString('en-US')} AI previews your plan allows ${hourly ? 'per hour' : 'per month'}. More are available ${when}.`;
}

/** Seconds until a full window ends, for a Retry-After header. */
export const secondsUntil = (full: AllowanceWindow, now: Date) => Math.max(1, Math.ceil((full.endsAt.getTime() - now.getTime()) / 1000));

const MINUTE_MS = 60_000;

/** The UTC clock minute `now` falls in (`Min…`: `M` names a month). */
export function minuteWindow(now: Date, most: number): AllowanceWindow {
  const start = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  return { name: `Min${new Date(start).toISOString().slice(0, 16)}`, endsAt: new Date(start + MINUTE_MS), most };
}

/**
 * Per-client limits on the public POST routes (issue 26 §2): the route throttles are shared by every
 * caller, so without these one client could fill the waitlist or spend everyone's share of the beacons.
 * A client is its network address (lambdas/http/clientAddress.ts), so the numbers leave room for a few
 * people behind one office or mobile network.
 */
/** Waitlist joins per client per hour: one person joins once; a household or office a few times. */
export const WAITLIST_JOINS_PER_CLIENT_PER_HOUR = 5;
/** Listen beacons per client per minute: twice one link's own bound (core LISTEN_EVENTS_PER_MINUTE). */
export const LISTEN_EVENTS_PER_CLIENT_PER_MINUTE = 120;
/** Listen beacons per client per hour: a listener sends a play and a few milestones per play (about 10). */
export const LISTEN_EVENTS_PER_CLIENT_PER_HOUR = 1_000;

/** What a client's take is counted as. */
export type ClientLimitKind = 'waitlist_join' | 'listen_event';

/** The windows a client's waitlist join or listen beacon takes a place in. */
export function clientLimitWindows(kind: ClientLimitKind, now: Date): AllowanceWindow[] {
  if (kind === 'waitlist_join') return [hourWindow(now, WAITLIST_JOINS_PER_CLIENT_PER_HOUR)];
  return [minuteWindow(now, LISTEN_EVENTS_PER_CLIENT_PER_MINUTE), hourWindow(now, LISTEN_EVENTS_PER_CLIENT_PER_HOUR)];
}

/** What a client over its limit is told: that the limit is its network's, and when to try again. */
export function clientLimitRefusal(kind: ClientLimitKind, full: AllowanceWindow, now: Date): string {
  const seconds = secondsUntil(full, now);
  const minutes = Math.ceil(seconds / 60);
  const when = seconds < 60 ? 'in a minute' : `in ${String(minutes)} minute${minutes === 1 ? '' : 's'}`;
  const what = kind === 'waitlist_join' ? 'waitlist sign-ups' : 'listening events';
  return `Too many ${what} from your network. Please try again ${when}.`;
}

/**
 * The client's key as stored: a hash of its address, never the address (privacy), truncated to 128 bits.
 * An IPv6 address counts by its /64 (one subscriber's prefix, whose addresses a client may rotate
 * through freely); an IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientKey(address: string): string {
  return createHash('sha256')
    .update(`client-limit:${limitedPart(address)}`)
    .digest('hex')
    .slice(0, 32);
}

/** The part of an address a limit counts: an IPv4 address whole, an IPv6 address's first four groups. */
export function limitedPart(address: string): string {
  const plain = address.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain);
  if (mapped?.[1]) return mapped[1];
  if (!plain.includes(':')) return plain;
  const [head = '', tail] = plain.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
