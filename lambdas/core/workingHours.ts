/**
 * The recipient's working hours (issue 27 §2; DESIGN §14): a send window (days of the week and hours of
 * the day) read on the recipient's own clock, in an IANA time zone. Pure: the dispatcher, the capacity
 * dialog and the queue ask the same questions, "is this recipient inside their window now?" and "when
 * next?".
 *
 * Zone math goes through Intl only: an instant's wall clock in a zone is read with
 * Intl.DateTimeFormat, and a wall-clock time is turned into an instant by asking Intl what the zone's
 * offset is there, so DST and zones far from UTC (Tonga +13, Kiritimati +14) come from the zone data,
 * never from offsets written here.
 */
import { canonicalTimeZone } from '../../schema/timeZones';

/** ISO weekdays: 1 Monday … 7 Sunday. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/**
 * When a recipient may get an email, on their clock: on `days`, from `startHour`:00 (included) to
 * `endHour`:00 (excluded), whole hours 0–24.
 */
export interface SendWindow {
  days: readonly Weekday[];
  startHour: number;
  endHour: number;
}

/** Issue 27 §2: Monday to Friday, 9:00 to 17:00. */
export const DEFAULT_SEND_WINDOW: SendWindow = { days: [1, 2, 3, 4, 5], startHour: 9, endHour: 17 };

/** The zone to read a recipient's clock in, and a warning when the one asked for was not usable. */
export interface ResolvedTimeZone {
  zone: string;
  /** Null when `zone` is the one asked for (or none was asked for); else why the fallback is used. */
  warning: string | null;
}

/** The last resort when even the fallback zone is not known: UTC is known to every engine. */
const LAST_RESORT_ZONE = 'UTC';

/**
 * The zone a recipient's window is read in: their own (canonical spelling) when Intl knows it; else
 * `fallback` (the artist's zone), with a warning when a zone was given but is unknown. Never throws: a
 * zone that no longer exists (or was stored wrong) costs a warning, never a send.
 */
export function resolveTimeZone(zone: string | null | undefined, fallback: string): ResolvedTimeZone {
  const own = zone == null || zone.trim() === '' ? null : canonicalTimeZone(zone);
  if (own !== null) return { zone: own, warning: null };
  const asked = zone == null || zone.trim() === '' ? null : zone;
  const fallbackZone = canonicalTimeZone(fallback);
  if (fallbackZone === null) {
    const what = asked === null ? `Unknown fallback time zone "${fallback}"` : `Unknown time zones "${asked}" and "${fallback}"`;
    return { zone: LAST_RESORT_ZONE, warning: `${what}: using ${LAST_RESORT_ZONE}.` };
  }
  return { zone: fallbackZone, warning: asked === null ? null : `Unknown time zone "${asked}": using ${fallbackZone}.` };
}

/** Why a window can never be open (no day, hours out of 0–24 or not in order), or null for a usable one. */
export function sendWindowProblem(window: SendWindow): string | null {
  const { days, startHour, endHour } = window;
  if (days.length === 0) return 'Choose at least one day.';
  if (!days.every((day) => Number.isInteger(day) && day >= 1 && day <= 7)) return 'Days are 1 (Monday) to 7 (Sunday).';
  if (![startHour, endHour].every((hour) => Number.isInteger(hour) && hour >= 0 && hour <= 24)) return 'Hours are whole hours from 0 to 24.';
  if (startHour >= endHour) return 'The window must end after it starts.';
  return null;
}

// One formatter per zone: building one loads the zone's data, which a dispatcher tick should pay once.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The wall clock in `zone` at `ms`, as the milliseconds of that date and time read as if in UTC. */
function wallClockMs(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  // Some engines say 24 for midnight even with h23.
  return Date.UTC(year, month - 1, day, hour % 24, minute, second) + (((ms % 1000) + 1000) % 1000);
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The ISO weekday of a wall-clock date (read as UTC, so no zone is involved). */
const weekdayOf = (wallMs: number) => (((new Date(wallMs).getUTCDay() + 6) % 7) + 1) as Weekday;

/** Whether a wall-clock time (ms read as UTC) is inside the window: its day, and start ≤ time < end. */
function wallInWindow(wallMs: number, window: SendWindow): boolean {
  const timeOfDay = ((wallMs % DAY_MS) + DAY_MS) % DAY_MS;
  return window.days.includes(weekdayOf(wallMs)) && timeOfDay >= window.startHour * HOUR_MS && timeOfDay < window.endHour * HOUR_MS;
}

/** Whether the recipient's clock in `zone` at `instant` is inside `window` (the end hour excluded). */
export function isWithinWindow(instant: Date, window: SendWindow, zone: string): boolean {
  return wallInWindow(wallClockMs(instant.getTime(), zone), window);
}

/**
 * The first instant whose wall clock in `zone` is at or after `wall` (ms read as UTC). Where the wall
 * time exists (once, or twice when clocks go back: the earlier) that is the instant it is shown; in a
 * spring-forward gap it is the moment the clocks jump. The zone's offsets come from Intl.
 */
function instantAtWall(wall: number, zone: string): number {
  const offsetAt = (ms: number) => wallClockMs(ms, zone) - ms;
  const first = wall - offsetAt(wall);
  const second = wall - offsetAt(first);
  for (const candidate of [Math.min(first, second), Math.max(first, second)]) if (wallClockMs(candidate, zone) === wall) return candidate;
  // A gap: the wall time never shows. The jump lies between the two guesses; find its first instant
  // shown at or after `wall` (wall clocks only move forward inside a gap's neighbourhood).
  let low = Math.min(first, second);
  let high = Math.max(first, second);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wallClockMs(middle, zone) >= wall) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * The next instant the recipient is inside their window: `instant` itself when they already are, else
 * the start of their next window day (on their clock, DST included). When a window's start hour falls in
 * a spring-forward gap, the window opens when the clocks jump. Null only for a window that never opens
 * (sendWindowProblem).
 */
export function nextWindowStart(instant: Date, window: SendWindow, zone: string): Date | null {
  if (sendWindowProblem(window) !== null) return null;
  const now = instant.getTime();
  if (isWithinWindow(instant, window, zone)) return instant;
  const today = Math.floor(wallClockMs(now, zone) / DAY_MS) * DAY_MS;
  // A week covers every weekday; a few days more cover a zone that skipped a calendar day (Samoa, 2011).
  for (let day = 0; day <= 10; day++) {
    const date = today + day * DAY_MS;
    if (!window.days.includes(weekdayOf(date))) continue;
    const opens = instantAtWall(date + window.startHour * HOUR_MS, zone);
    // Today's start already passed (the window closed), or a skipped day's start landed outside the window.
    if (opens > now && isWithinWindow(new Date(opens), window, zone)) return new Date(opens);
  }
  return null;
}

/** One zone's recipients in an estimate: how many, and when their window next opens. */
export interface ZoneStart {
  zone: string;
  recipients: number;
  /** The first instant at or after the estimate's start when their window is open. */
  opensAt: Date;
}

/** The estimate of a send in working hours: when the last email should go, and each zone's start. */
export interface WindowedEstimate {
  /** The last email's slot; null when nobody is to be sent (or a window never opens). */
  finishAt: Date | null;
  /** Per zone (the recipients' own, else the fallback), soonest opening first. */
  zones: ZoneStart[];
}

/**
 * When a campaign sent in `window` should finish (issue 27 §2; DESIGN §13 "times to finish count the
 * recipients' hours"): one email per `intervalMs` from `start`, each slot to a recipient inside their
 * window (their zone, else `fallbackZone`), a slot with nobody inside left empty, as the sender does.
 * Pure and cheap: each zone's open spans are found through Intl once per day, the slots counted in between.
 */
export function windowedEstimate(input: {
  zones: readonly (string | null | undefined)[];
  window: SendWindow;
  fallbackZone: string;
  intervalMs: number;
  start: Date;
}): WindowedEstimate {
  const { window, fallbackZone, intervalMs, start } = input;
  const counts = new Map<string, number>();
  for (const zone of input.zones) {
    const resolved = resolveTimeZone(zone, fallbackZone).zone;
    counts.set(resolved, (counts.get(resolved) ?? 0) + 1);
  }
  /** A zone's current or next open span at or after `at`: [opens, closes). */
  const spanFrom = (zone: string, at: number): { opens: number; closes: number } | null => {
    const opens = nextWindowStart(new Date(at), window, zone)?.getTime();
    if (opens === undefined) return null;
    // The span ends at the end hour on the recipient's clock: an hour more or less on a DST day.
    let closes = opens + (window.endHour - window.startHour) * HOUR_MS;
    for (let i = 0; i < 2 && isWithinWindow(new Date(closes), window, zone); i++) closes += HOUR_MS;
    for (let i = 0; i < 2 && closes - HOUR_MS > opens && !isWithinWindow(new Date(closes - 1), window, zone); i++) closes -= HOUR_MS;
    return { opens, closes };
  };
  const zones = [...counts].flatMap(([zone, recipients]) => {
    const span = spanFrom(zone, start.getTime());
    return span ? [{ zone, recipients, span, left: recipients }] : [];
  });
  const result: ZoneStart[] = zones
    .map(({ zone, recipients, span }) => ({ zone, recipients, opensAt: new Date(span.opens) }))
    .sort((a, b) => a.opensAt.getTime() - b.opensAt.getTime() || a.zone.localeCompare(b.zone));
  if (zones.length === 0) return { finishAt: null, zones: result };

  let slot = start.getTime();
  let finishAt: number | null = null;
  for (;;) {
    const waiting = zones.filter((z) => z.left > 0);
    if (waiting.length === 0) break;
    for (const z of waiting)
      if (z.span.closes <= slot) z.span = spanFrom(z.zone, slot) ?? { opens: Number.POSITIVE_INFINITY, closes: Number.POSITIVE_INFINITY };
    const open = waiting.filter((z) => z.span.opens <= slot);
    if (open.length === 0) {
      // Nobody is inside their window: the next slot at or after the first opening.
      const next = Math.min(...waiting.map((z) => z.span.opens));
      if (!Number.isFinite(next)) break;
      slot = start.getTime() + Math.ceil((next - start.getTime()) / intervalMs) * intervalMs;
      continue;
    }
    // The zone closing first takes the slot (it has the least time left); several slots at once while it stays alone.
    const first = open.reduce((a, b) => (b.span.closes < a.span.closes ? b : a));
    const others = waiting.filter((z) => z !== first);
    const until = Math.min(first.span.closes, ...others.map((z) => Math.max(z.span.opens, slot + intervalMs)));
    const slots = Math.max(1, Math.min(first.left, Math.ceil((until - slot) / intervalMs)));
    first.left -= slots;
    finishAt = slot + (slots - 1) * intervalMs;
    slot += slots * intervalMs;
  }
  return { finishAt: finishAt === null ? null : new Date(finishAt), zones: result };
}
