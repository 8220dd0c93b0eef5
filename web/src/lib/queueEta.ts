import type { Campaign } from '../../../schema/api/campaigns';
import { durationAtPace, durationWords } from '../../../schema/sendingLimits';
import { windowedEstimate, type WindowedEstimate, type Weekday } from '../../../lambdas/core/workingHours';

/**
 * Spec §9 queue ETA at the real pace (issue 23 §5): pending emails × the send interval (one a minute:
 * 60 an hour), in words. Compose and the campaign page both say it.
 */
export function queueEta(pending: number, intervalMs: number): string {
  if (pending <= 0) return 'Nothing left to send';
  return durationWords(durationAtPace(pending, intervalMs));
}

const isWeekday = (day: number): day is Weekday => Number.isInteger(day) && day >= 1 && day <= 7;

/**
 * The queue's end counting the recipients' working hours (issue 27 §2): the pending recipients' zones
 * (null: the artist's) through the same estimate as Compose's send dialog.
 */
export function windowedQueueEstimate(input: {
  window: NonNullable<Campaign['send_window']>;
  zones: readonly (string | null)[];
  artistZone: string;
  intervalMs: number;
  now: Date;
}): WindowedEstimate {
  const { window, zones, artistZone, intervalMs, now } = input;
  return windowedEstimate({
    zones,
    window: { days: window.days.filter(isWeekday), startHour: window.start_hour, endHour: window.end_hour },
    fallbackZone: artistZone,
    intervalMs,
    start: now,
  });
}

/** A time in the artist's zone, with the weekday when it is not the day of `from`: '14:05' or 'Mon 09:00'. */
export function artistClock(at: Date, from: Date, artistZone: string): string {
  const day = (d: Date) => d.toLocaleDateString('en-GB', { timeZone: artistZone });
  const time = at.toLocaleTimeString('en-GB', { timeZone: artistZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return day(at) === day(from) ? time : `${at.toLocaleDateString('en-GB', { timeZone: artistZone, weekday: 'short' })} ${time}`;
}

/** A zone as a place: 'Asia/Tokyo' → 'Tokyo', 'America/New_York' → 'New York'. */
export const zonePlace = (zone: string) => (zone.split('/').at(-1) ?? zone).replaceAll('_', ' ');
