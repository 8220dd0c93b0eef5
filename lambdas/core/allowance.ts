/**
 * Allowances: how many of something a subject may do in fixed windows (issue 26). Each window is named
 * by when it started, so a count of it is a key of its own that starts at zero when the window turns,
 * and a take is refused whole when any of its windows is full. Pure: the store (ports.ts AllowanceStore)
 * keeps the counts.
 *
 * The AI writer's previews are the first: a model call is billed per token, so each call a user's preview
 * makes takes a place in the plan's hour and month (schema/plans.ts), before the model is called.
 */
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
