import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SEND_WINDOW,
  isWithinWindow,
  nextWindowStart,
  resolveTimeZone,
  sendWindowProblem,
  windowedEstimate,
  type SendWindow,
} from '../../lambdas/core/workingHours';
import { canonicalTimeZone, countryCodeOf, guessTimeZone, guessTimeZoneOfPlace } from '../../schema/timeZones';

const at = (iso: string) => new Date(iso);
const everyDay: SendWindow['days'] = [1, 2, 3, 4, 5, 6, 7];
/** The wall clock of an instant in a zone, read by Intl: 'Mon 09:00'. */
const clock = (instant: Date, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant).replace(',', '');

describe('resolveTimeZone: the zone a recipient is read in, never an error', () => {
  it('keeps a known zone, in its canonical spelling, without a warning', () => {
    expect(resolveTimeZone('Asia/Tokyo', 'Europe/Berlin')).toEqual({ zone: 'Asia/Tokyo', warning: null });
    expect(resolveTimeZone('  asia/tokyo ', 'Europe/Berlin')).toEqual({ zone: 'Asia/Tokyo', warning: null });
  });

  it('uses the fallback without a warning when the recipient has no zone', () => {
    expect(resolveTimeZone(null, 'Europe/Berlin')).toEqual({ zone: 'Europe/Berlin', warning: null });
    expect(resolveTimeZone(undefined, 'Europe/Berlin')).toEqual({ zone: 'Europe/Berlin', warning: null });
    expect(resolveTimeZone('  ', 'Europe/Berlin')).toEqual({ zone: 'Europe/Berlin', warning: null });
  });

  it('falls back with a warning naming the unknown zone', () => {
    expect(resolveTimeZone('Mars/Olympus_Mons', 'Europe/Berlin')).toEqual({
      zone: 'Europe/Berlin',
      warning: 'Unknown time zone "Mars/Olympus_Mons": using Europe/Berlin.',
    });
    // An offset is no IANA name.
    expect(resolveTimeZone('+05:00', 'America/New_York').zone).toBe('America/New_York');
    expect(resolveTimeZone('+05:00', 'America/New_York').warning).toContain('"+05:00"');
  });

  it('falls back to UTC, with a warning, when the fallback is unknown too', () => {
    expect(resolveTimeZone('Nowhere/Land', 'Also/Nowhere')).toEqual({
      zone: 'UTC',
      warning: 'Unknown time zones "Nowhere/Land" and "Also/Nowhere": using UTC.',
    });
    expect(resolveTimeZone(null, 'Also/Nowhere')).toEqual({ zone: 'UTC', warning: 'Unknown fallback time zone "Also/Nowhere": using UTC.' });
  });

  it('a zone it resolves to can be used by the window functions', () => {
    const { zone } = resolveTimeZone('Nowhere/Land', 'Not/Either');
    expect(() => nextWindowStart(at('2026-11-28T12:00:00Z'), DEFAULT_SEND_WINDOW, zone)).not.toThrow();
  });
});

describe('canonicalTimeZone and guessTimeZone', () => {
  it('knows IANA names and aliases, refuses offsets, blanks and unknown names', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('US/Eastern')).toBe('America/New_York');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    for (const bad of ['', ' ', '+05:00', 'Europe/Nowhere', 'Berlin', 'Europe/Berlin; drop', 'x'.repeat(65)]) expect(canonicalTimeZone(bad)).toBeNull();
  });

  it('guesses the zone of a one-zone country, and none for a country of several zones', () => {
    expect(guessTimeZone('DE')).toBe('Europe/Berlin');
    expect(guessTimeZone('gb')).toBe('Europe/London');
    expect(guessTimeZone('JP')).toBe('Asia/Tokyo');
    expect(guessTimeZone('NL')).toBe('Europe/Amsterdam');
    expect(guessTimeZone('FR')).toBe('Europe/Paris');
    expect(guessTimeZone('ES')).toBe('Europe/Madrid');
    expect(guessTimeZone('IT')).toBe('Europe/Rome');
    expect(guessTimeZone('SE')).toBe('Europe/Stockholm');
    for (const several of ['US', 'AU', 'CA', 'BR', 'RU', 'MX', 'constructor', '', 'XX']) expect(guessTimeZone(several)).toBeNull();
  });

  it('reads the country of a place: a code, an English name or a common alias, from the last part', () => {
    expect(countryCodeOf('Berlin, Germany')).toBe('DE');
    expect(countryCodeOf('Berlin, de')).toBe('DE');
    expect(countryCodeOf('Glasgow, Scotland')).toBe('GB');
    expect(countryCodeOf('London, UK')).toBe('GB');
    expect(countryCodeOf('Rotterdam, Holland')).toBe('NL');
    expect(countryCodeOf('Detroit, USA')).toBe('US');
    expect(countryCodeOf('Sydney, Australia')).toBe('AU');
    expect(countryCodeOf('Seoul, South Korea')).toBe('KR');
    expect(countryCodeOf('Unknown Location')).toBeNull();
    expect(countryCodeOf('')).toBeNull();
    expect(guessTimeZoneOfPlace('Manchester, United Kingdom')).toBe('Europe/London');
    expect(guessTimeZoneOfPlace('Chicago, USA')).toBeNull();
  });

  it('every guessed zone is one this engine knows, under that name', () => {
    const countries = 'AR AT BE BG CH CN CO CZ DE DK EE ES FI FR GB GR HR HU IE IL IN IS IT JP KR LT LU LV NL NO NZ PL PT RO RS SE SG SI SK TR UA ZA'.split(
      ' ',
    );
    for (const country of countries) {
      const zone = guessTimeZone(country);
      expect(zone, country).not.toBeNull();
      expect(canonicalTimeZone(zone ?? '')).not.toBeNull();
    }
  });
});

describe('sendWindowProblem', () => {
  it('accepts the default and refuses windows that never open', () => {
    expect(sendWindowProblem(DEFAULT_SEND_WINDOW)).toBeNull();
    expect(sendWindowProblem({ days: [], startHour: 9, endHour: 17 })).toBe('Choose at least one day.');
    expect(sendWindowProblem({ days: [1], startHour: 17, endHour: 9 })).toBe('The window must end after it starts.');
    expect(sendWindowProblem({ days: [1], startHour: 9, endHour: 9 })).toBe('The window must end after it starts.');
    expect(sendWindowProblem({ days: [1], startHour: 9, endHour: 25 })).toBe('Hours are whole hours from 0 to 24.');
    expect(sendWindowProblem({ days: [1], startHour: 8.5, endHour: 17 })).toBe('Hours are whole hours from 0 to 24.');
    expect(sendWindowProblem({ days: [0 as 1], startHour: 9, endHour: 17 })).toBe('Days are 1 (Monday) to 7 (Sunday).');
  });

  it('a window that never opens has no next start', () => {
    expect(nextWindowStart(at('2026-11-23T12:00:00Z'), { days: [], startHour: 9, endHour: 17 }, 'UTC')).toBeNull();
    expect(nextWindowStart(at('2026-11-23T12:00:00Z'), { days: [1], startHour: 12, endHour: 12 }, 'UTC')).toBeNull();
  });
});

describe('isWithinWindow: the recipient’s own clock, end excluded', () => {
  // Monday 23 November 2026; Berlin is UTC+1 (CET).
  it.each([
    ['2026-11-23T07:59:59Z', false], // 08:59:59 Berlin
    ['2026-11-23T08:00:00Z', true], // 09:00 Berlin: the start is included
    ['2026-11-23T15:59:59Z', true], // 16:59:59
    ['2026-11-23T16:00:00Z', false], // 17:00: the end is excluded
    ['2026-11-21T10:00:00Z', false], // Saturday 11:00
    ['2026-11-22T10:00:00Z', false], // Sunday
  ])('Berlin at %s: %s', (iso, inside) => {
    expect(isWithinWindow(at(iso), DEFAULT_SEND_WINDOW, 'Europe/Berlin')).toBe(inside);
  });

  it('reads the day in the recipient’s zone, not UTC: Monday 09:00 in Tokyo is Sunday in UTC', () => {
    const mondayNineTokyo = at('2026-11-23T00:00:00Z'); // UTC Monday 00:00 = Tokyo Monday 09:00
    expect(isWithinWindow(mondayNineTokyo, DEFAULT_SEND_WINDOW, 'Asia/Tokyo')).toBe(true);
    const sundayUtc = at('2026-11-22T23:30:00Z'); // Tokyo Monday 08:30
    expect(isWithinWindow(sundayUtc, DEFAULT_SEND_WINDOW, 'Asia/Tokyo')).toBe(false);
    expect(isWithinWindow(at('2026-11-23T01:00:00Z'), DEFAULT_SEND_WINDOW, 'Asia/Tokyo')).toBe(true);
  });

  it('a zone 13 hours ahead: Friday afternoon in UTC is already Saturday in Tonga', () => {
    // Friday 27 November 2026 12:00 UTC = Saturday 01:00 in Tonga (UTC+13).
    expect(clock(at('2026-11-27T12:00:00Z'), 'Pacific/Tongatapu')).toBe('Sat 01:00');
    expect(isWithinWindow(at('2026-11-27T12:00:00Z'), DEFAULT_SEND_WINDOW, 'Pacific/Tongatapu')).toBe(false);
    expect(isWithinWindow(at('2026-11-27T12:00:00Z'), DEFAULT_SEND_WINDOW, 'Europe/London')).toBe(true);
    // Sunday 20:00 UTC = Monday 09:00 in Tonga.
    expect(isWithinWindow(at('2026-11-29T20:00:00Z'), DEFAULT_SEND_WINDOW, 'Pacific/Tongatapu')).toBe(true);
  });

  it('a zone 14 hours ahead (Kiritimati): Sunday 19:00 UTC is Monday 09:00', () => {
    expect(isWithinWindow(at('2026-11-29T19:00:00Z'), DEFAULT_SEND_WINDOW, 'Pacific/Kiritimati')).toBe(true);
    expect(isWithinWindow(at('2026-11-29T18:59:59Z'), DEFAULT_SEND_WINDOW, 'Pacific/Kiritimati')).toBe(false);
  });
});

describe('nextWindowStart', () => {
  it('is the instant itself inside the window', () => {
    const inside = at('2026-11-23T10:17:23.456Z');
    expect(nextWindowStart(inside, DEFAULT_SEND_WINDOW, 'Europe/Berlin')).toEqual(inside);
  });

  it('before the start: today’s start; at or after the end: the next day’s', () => {
    expect(nextWindowStart(at('2026-11-23T06:00:00Z'), DEFAULT_SEND_WINDOW, 'Europe/Berlin')).toEqual(at('2026-11-23T08:00:00Z'));
    expect(nextWindowStart(at('2026-11-23T16:00:00Z'), DEFAULT_SEND_WINDOW, 'Europe/Berlin')).toEqual(at('2026-11-24T08:00:00Z'));
    expect(nextWindowStart(at('2026-11-23T22:30:00Z'), DEFAULT_SEND_WINDOW, 'Europe/Berlin')).toEqual(at('2026-11-24T08:00:00Z'));
  });

  it('skips the weekend: Friday after hours and Saturday both wait for Monday 09:00', () => {
    const monday = at('2026-11-30T08:00:00Z');
    expect(nextWindowStart(at('2026-11-27T16:00:00Z'), DEFAULT_SEND_WINDOW, 'Europe/Berlin')).toEqual(monday);
    expect(nextWindowStart(at('2026-11-28T11:00:00Z'), DEFAULT_SEND_WINDOW, 'Europe/Berlin')).toEqual(monday);
    expect(nextWindowStart(at('2026-11-29T22:59:59Z'), DEFAULT_SEND_WINDOW, 'Europe/Berlin')).toEqual(monday);
  });

  it('keeps the days and hours it is given: Saturday and Sunday 12:00–14:00 only', () => {
    const weekend: SendWindow = { days: [6, 7], startHour: 12, endHour: 14 };
    // Monday → the next Saturday 12:00 London (GMT).
    expect(nextWindowStart(at('2026-11-23T13:00:00Z'), weekend, 'Europe/London')).toEqual(at('2026-11-28T12:00:00Z'));
    // Saturday 14:00 (end, excluded) → Sunday 12:00.
    expect(nextWindowStart(at('2026-11-28T14:00:00Z'), weekend, 'Europe/London')).toEqual(at('2026-11-29T12:00:00Z'));
  });

  describe('a window on a DST change day (09:00 start)', () => {
    it('New York, spring forward (Sunday 8 March 2026, 02:00 EST → 03:00 EDT): 09:00 is 13:00 UTC, not 14:00', () => {
      const window: SendWindow = { days: everyDay, startHour: 9, endHour: 17 };
      // Saturday 7 March, 18:00 EST: after hours, so the next start is Sunday 09:00 EDT.
      expect(nextWindowStart(at('2026-03-07T23:00:00Z'), window, 'America/New_York')).toEqual(at('2026-03-08T13:00:00Z'));
      expect(isWithinWindow(at('2026-03-08T12:59:59Z'), window, 'America/New_York')).toBe(false);
      expect(isWithinWindow(at('2026-03-08T13:00:00Z'), window, 'America/New_York')).toBe(true);
      // The Monday after, the default window: 09:00 EDT.
      expect(nextWindowStart(at('2026-03-08T23:00:00Z'), DEFAULT_SEND_WINDOW, 'America/New_York')).toEqual(at('2026-03-09T13:00:00Z'));
      // The Friday before was still EST: 09:00 = 14:00 UTC.
      expect(nextWindowStart(at('2026-03-06T05:00:00Z'), DEFAULT_SEND_WINDOW, 'America/New_York')).toEqual(at('2026-03-06T14:00:00Z'));
    });

    it('New York, fall back (Sunday 1 November 2026, 02:00 EDT → 01:00 EST): 09:00 is 14:00 UTC; the window closes at 17:00 EST', () => {
      const window: SendWindow = { days: everyDay, startHour: 9, endHour: 17 };
      expect(nextWindowStart(at('2026-11-01T04:00:00Z'), window, 'America/New_York')).toEqual(at('2026-11-01T14:00:00Z'));
      expect(isWithinWindow(at('2026-11-01T21:59:59Z'), window, 'America/New_York')).toBe(true);
      expect(isWithinWindow(at('2026-11-01T22:00:00Z'), window, 'America/New_York')).toBe(false);
    });

    it('Berlin, spring forward (Sunday 29 March 2026, 02:00 CET → 03:00 CEST) and the Monday after', () => {
      const window: SendWindow = { days: everyDay, startHour: 9, endHour: 17 };
      expect(nextWindowStart(at('2026-03-28T20:00:00Z'), window, 'Europe/Berlin')).toEqual(at('2026-03-29T07:00:00Z'));
      expect(nextWindowStart(at('2026-03-27T17:00:00Z'), DEFAULT_SEND_WINDOW, 'Europe/Berlin')).toEqual(at('2026-03-30T07:00:00Z'));
    });

    it('Berlin, fall back (Sunday 25 October 2026, 03:00 CEST → 02:00 CET): 09:00 is 08:00 UTC', () => {
      const window: SendWindow = { days: everyDay, startHour: 9, endHour: 17 };
      expect(nextWindowStart(at('2026-10-24T20:00:00Z'), window, 'Europe/Berlin')).toEqual(at('2026-10-25T08:00:00Z'));
      expect(isWithinWindow(at('2026-10-25T07:59:59Z'), window, 'Europe/Berlin')).toBe(false);
    });

    it('a window that starts inside the spring-forward gap opens when the clocks jump', () => {
      // New York has no 02:00–02:59 on 8 March 2026: a 02:00 start opens at 03:00 EDT (07:00 UTC).
      const window: SendWindow = { days: [7], startHour: 2, endHour: 5 };
      const opens = nextWindowStart(at('2026-03-08T05:00:00Z'), window, 'America/New_York');
      expect(opens).toEqual(at('2026-03-08T07:00:00Z'));
      expect(clock(opens ?? new Date(0), 'America/New_York')).toBe('Sun 03:00');
    });

    it('a window that starts in the repeated hour of a fall back opens at its first showing', () => {
      // New York shows 01:00–01:59 twice on 1 November 2026: first EDT (05:00 UTC), then EST (06:00 UTC).
      const window: SendWindow = { days: [7], startHour: 1, endHour: 4 };
      expect(nextWindowStart(at('2026-11-01T03:00:00Z'), window, 'America/New_York')).toEqual(at('2026-11-01T05:00:00Z'));
    });
  });

  it('a zone 13 hours ahead: Friday 12:00 UTC (Saturday in Tonga) waits for Monday 09:00 Tonga, Sunday 20:00 UTC', () => {
    const opens = nextWindowStart(at('2026-11-27T12:00:00Z'), DEFAULT_SEND_WINDOW, 'Pacific/Tongatapu');
    expect(opens).toEqual(at('2026-11-29T20:00:00Z'));
    expect(clock(opens ?? new Date(0), 'Pacific/Tongatapu')).toBe('Mon 09:00');
  });

  it('a zone 14 hours ahead: Monday 09:00 in Kiritimati is Sunday 19:00 UTC', () => {
    expect(nextWindowStart(at('2026-11-28T12:00:00Z'), DEFAULT_SEND_WINDOW, 'Pacific/Kiritimati')).toEqual(at('2026-11-29T19:00:00Z'));
  });

  it('a zone that skipped a calendar day (Samoa dropped Friday 30 December 2011): the window opens on the next day that exists', () => {
    const fridayOnly: SendWindow = { days: [5], startHour: 9, endHour: 17 };
    // Thursday 29 December 2011 in Apia (UTC−10) was followed by Saturday 31 December (UTC+14): no Friday
    // that week, so the next Friday 09:00 is 6 January 2012 (UTC+14): 5 January 19:00 UTC.
    expect(nextWindowStart(at('2011-12-29T20:00:00Z'), fridayOnly, 'Pacific/Apia')).toEqual(at('2012-01-05T19:00:00Z'));
  });

  it('over many instants and zones: the start is inside the window, not before the instant, and no earlier window minute was missed', () => {
    const zones = [
      'Europe/Berlin',
      'America/New_York',
      'Asia/Tokyo',
      'Pacific/Tongatapu',
      'Pacific/Kiritimati',
      'America/Los_Angeles',
      'Australia/Sydney',
      'Asia/Kolkata',
    ];
    const windows: SendWindow[] = [DEFAULT_SEND_WINDOW, { days: [2, 4], startHour: 0, endHour: 3 }, { days: [6], startHour: 22, endHour: 24 }];
    let seed = 27;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 150; i++) {
      const instant = new Date(start + Math.floor(random() * 366 * 24 * 60) * 60_000);
      const zone = zones[i % zones.length] ?? 'UTC';
      const window = windows[i % windows.length] ?? DEFAULT_SEND_WINDOW;
      const opens = nextWindowStart(instant, window, zone);
      if (opens === null) throw new Error('a usable window always opens');
      expect(opens.getTime()).toBeGreaterThanOrEqual(instant.getTime());
      expect(isWithinWindow(opens, window, zone)).toBe(true);
      if (opens.getTime() > instant.getTime()) {
        // The minute before the start is outside, and so is every quarter-hour between the instant and the start.
        expect(isWithinWindow(new Date(opens.getTime() - 60_000), window, zone)).toBe(false);
        for (let t = instant.getTime(); t < opens.getTime(); t += 15 * 60_000) expect(isWithinWindow(new Date(t), window, zone)).toBe(false);
      }
    }
  });
});

describe('windowedEstimate: the time to finish counts the recipients’ hours', () => {
  const MINUTES_10 = 10 * 60_000;
  /** Monday 23 November 2026, 00:00 UTC (09:00 in Tokyo, 01:00 in Berlin). */
  const monday = at('2026-11-23T00:00:00Z');
  const nineToSix: SendWindow = { days: everyDay, startHour: 9, endHour: 18 };

  it('nobody to send: no finish', () => {
    expect(windowedEstimate({ zones: [], window: nineToSix, fallbackZone: 'UTC', intervalMs: MINUTES_10, start: monday })).toEqual({
      finishAt: null,
      zones: [],
    });
  });

  it('a window open all day: one per interval from the start', () => {
    const estimate = windowedEstimate({
      zones: ['UTC', 'UTC', null],
      window: { days: everyDay, startHour: 0, endHour: 24 },
      fallbackZone: 'UTC',
      intervalMs: MINUTES_10,
      start: monday,
    });
    expect(estimate.finishAt).toEqual(at('2026-11-23T00:20:00Z'));
    expect(estimate.zones).toEqual([{ zone: 'UTC', recipients: 3, opensAt: monday }]);
  });

  it('Tokyo and Berlin, 60 each, 9:00–18:00: each window’s 54 slots, Tokyo’s last 6 and Berlin’s last 12 the next day', () => {
    const zones = Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? 'Asia/Tokyo' : 'Europe/Berlin'));
    const estimate = windowedEstimate({ zones, window: nineToSix, fallbackZone: 'UTC', intervalMs: MINUTES_10, start: monday });
    // Day 1: Tokyo 00:00–08:50 UTC (54), Berlin 09:00–16:50 UTC (48, after Tokyo closes). Day 2: Tokyo 6, Berlin 12 from 08:00.
    expect(estimate.finishAt).toEqual(at('2026-11-24T09:50:00Z'));
    expect(estimate.zones).toEqual([
      { zone: 'Asia/Tokyo', recipients: 60, opensAt: monday },
      { zone: 'Europe/Berlin', recipients: 60, opensAt: at('2026-11-23T08:00:00Z') },
    ]);
  });

  it('the window closes at its end hour: 60 in Tokyo take the 54 slots of Monday (00:00–08:50 UTC), the last 6 go on Tuesday', () => {
    const zones = Array.from({ length: 60 }, () => 'Asia/Tokyo');
    expect(windowedEstimate({ zones, window: nineToSix, fallbackZone: 'UTC', intervalMs: MINUTES_10, start: monday }).finishAt).toEqual(
      at('2026-11-24T00:50:00Z'),
    );
  });

  it('recipients without a zone, or with an unknown one, count in the fallback zone', () => {
    const estimate = windowedEstimate({
      zones: [null, 'Mars/Olympus_Mons'],
      window: nineToSix,
      fallbackZone: 'America/New_York',
      intervalMs: MINUTES_10,
      start: monday,
    });
    expect(estimate.zones).toEqual([{ zone: 'America/New_York', recipients: 2, opensAt: at('2026-11-23T14:00:00Z') }]);
    expect(estimate.finishAt).toEqual(at('2026-11-23T14:10:00Z'));
  });

  it('a window spanning a DST change: Berlin on the Sunday the clocks go back opens at 08:00 UTC', () => {
    const estimate = windowedEstimate({
      zones: ['Europe/Berlin'],
      window: nineToSix,
      fallbackZone: 'UTC',
      intervalMs: MINUTES_10,
      start: at('2026-10-24T16:00:00Z'),
    });
    expect(estimate.finishAt).toEqual(at('2026-10-25T08:00:00Z'));
  });
});
