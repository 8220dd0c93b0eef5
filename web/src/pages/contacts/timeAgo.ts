/**
 * How long ago `iso` was, in words for 'Unsubscribed {relative time} ago': 'less than a minute',
 * '1 minute', '5 hours', '3 days', '2 months', '1 year'. Each unit is counted down (whole units), so
 * 47 hours is '1 day'. A time in the future (a clock ahead of the server's) counts as just now.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const units: readonly [size: number, name: string][] = [
  [YEAR, 'year'],
  [MONTH, 'month'],
  [DAY, 'day'],
  [HOUR, 'hour'],
  [MINUTE, 'minute'],
];

export function timeAgo(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return 'some time';
  const elapsed = Math.max(0, now - then);
  for (const [size, name] of units) {
    const count = Math.floor(elapsed / size);
    if (count >= 1) return `${count} ${name}${count === 1 ? '' : 's'}`;
  }
  return 'less than a minute';
}
