/**
 * A campaign's send window in words (issue 27 §2), for Compose's fields and the campaign page. Pure, and
 * free of Cloudscape, so the campaign page does not load Compose's form to say it.
 */
import type { Campaign } from '../../../schema/api/campaigns';
import type { Weekday } from '../../../lambdas/core/workingHours';

export const WEEKDAY_NAMES: Readonly<Record<Weekday, string>> = {
  1: 'Monday',
  2: 'Tuesday',
  3: 'Wednesday',
  4: 'Thursday',
  5: 'Friday',
  6: 'Saturday',
  7: 'Sunday',
};

/** An hour of the day as the selects show it: 9 → '09:00', 24 → '24:00' (the end of the day). */
export const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
/** The window in words, as the campaign page shows it: 'Monday–Friday, 09:00–17:00 in each recipient's time zone'. */
export function sendWindowWords(window: Campaign['send_window']): string {
  if (window === null) return 'Any time';
  const days = [...window.days].sort((a, b) => a - b) as Weekday[];
  const consecutive = days.length > 2 && days.every((day, i) => i === 0 || day === (days[i - 1] ?? 0) + 1);
  const first = days[0];
  const last = days.at(-1);
  const dayWords =
    days.length === 7
      ? 'Every day'
      : consecutive && first !== undefined && last !== undefined
        ? `${WEEKDAY_NAMES[first]}–${WEEKDAY_NAMES[last]}`
        : days.map((day) => WEEKDAY_NAMES[day].slice(0, 3)).join(', ');
  return `Recipient's working hours: ${dayWords}, ${hourLabel(window.start_hour)}–${hourLabel(window.end_hour)} in each recipient's time zone`;
}
