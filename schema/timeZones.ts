/**
 * Time zones of recipients (issue 27 §2; DESIGN §14): which IANA names a contact's time zone may hold,
 * and the zone a contact's country suggests. Free of zod and of I/O, so the web (the contact form), the
 * API schemas and the core (lambdas/core/workingHours.ts) read the same rules. Zones are only ever
 * checked and read through Intl, never from a list of offsets of our own.
 */

/** The longest IANA name is under 40 characters ('America/Argentina/ComodRivadavia'); anything longer is not one. */
export const TIME_ZONE_MAX_LENGTH = 64;

export const timeZoneMessages = {
  /** The API's 400 and the CSV import's row reason. */
  unknown: (value: string) => `Unknown time zone: ${value}. Use an IANA time zone name such as Europe/Berlin.`,
} as const;

/**
 * The canonical spelling of a time zone name Intl knows ('europe/berlin' → 'Europe/Berlin', 'US/Eastern' →
 * 'America/New_York'), or null for anything else: a name Intl does not know, an offset ('+05:00'), blank.
 * Names only (letters first): an IANA name, never an offset a future engine might accept.
 */
export function canonicalTimeZone(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > TIME_ZONE_MAX_LENGTH || !/^[A-Za-z][A-Za-z0-9_/+-]*$/.test(trimmed)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    // RangeError: Intl does not know the zone.
    return null;
  }
}

/**
 * The main time zone of a country (ISO 3166-1 alpha-2) that lives in one zone, for a contact with a
 * country but no time zone of their own. Null for a country spread over several zones (US, CA, AU, BR,
 * RU, MX…), where a guess would be hours off for many, and for a code not listed.
 */
const zoneByCountry: Readonly<Record<string, string>> = {
  AR: 'America/Argentina/Buenos_Aires',
  AT: 'Europe/Vienna',
  BE: 'Europe/Brussels',
  BG: 'Europe/Sofia',
  CH: 'Europe/Zurich',
  CN: 'Asia/Shanghai',
  CO: 'America/Bogota',
  CZ: 'Europe/Prague',
  DE: 'Europe/Berlin',
  DK: 'Europe/Copenhagen',
  EE: 'Europe/Tallinn',
  ES: 'Europe/Madrid',
  FI: 'Europe/Helsinki',
  FR: 'Europe/Paris',
  GB: 'Europe/London',
  GR: 'Europe/Athens',
  HR: 'Europe/Zagreb',
  HU: 'Europe/Budapest',
  IE: 'Europe/Dublin',
  IL: 'Asia/Jerusalem',
  IN: 'Asia/Kolkata',
  IS: 'Atlantic/Reykjavik',
  IT: 'Europe/Rome',
  JP: 'Asia/Tokyo',
  KR: 'Asia/Seoul',
  LT: 'Europe/Vilnius',
  LU: 'Europe/Luxembourg',
  LV: 'Europe/Riga',
  NL: 'Europe/Amsterdam',
  NO: 'Europe/Oslo',
  NZ: 'Pacific/Auckland',
  PL: 'Europe/Warsaw',
  PT: 'Europe/Lisbon',
  RO: 'Europe/Bucharest',
  RS: 'Europe/Belgrade',
  SE: 'Europe/Stockholm',
  SG: 'Asia/Singapore',
  SI: 'Europe/Ljubljana',
  SK: 'Europe/Bratislava',
  TR: 'Europe/Istanbul',
  UA: 'Europe/Kyiv',
  ZA: 'Africa/Johannesburg',
};

/** The zone a country suggests (zoneByCountry), case-insensitive; null when it has several or is unknown. */
export function guessTimeZone(countryCode: string): string | null {
  const code = countryCode.trim().toUpperCase();
  return Object.hasOwn(zoneByCountry, code) ? (zoneByCountry[code] ?? null) : null;
}

/** Names people write for a country that are not its English name as Intl gives it. */
const countryAliases: Readonly<Record<string, string>> = {
  uk: 'GB',
  'u.k.': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  'great britain': 'GB',
  britain: 'GB',
  holland: 'NL',
  'the netherlands': 'NL',
  'south korea': 'KR',
  korea: 'KR',
  'czech republic': 'CZ',
  turkey: 'TR',
  usa: 'US',
  'u.s.a.': 'US',
  'united states of america': 'US',
};

let countryNames: Map<string, string> | undefined;

/**
 * The country a place names, as an ISO code: its last comma-separated part ('Berlin, Germany' →
 * 'DE'), either a two-letter code or a country's English name (from Intl.DisplayNames, so no list of
 * names is kept here) or a common alias ('UK', 'Holland'). Null when it names no country we know.
 */
export function countryCodeOf(place: string): string | null {
  const last = (place.split(',').at(-1) ?? '').trim();
  const name = last.toLowerCase();
  // Aliases first: 'UK' is two letters but no ISO code.
  if (Object.hasOwn(countryAliases, name)) return countryAliases[name] ?? null;
  if (/^[A-Za-z]{2}$/.test(last)) return last.toUpperCase();
  if (countryNames === undefined) {
    const display = new Intl.DisplayNames(['en'], { type: 'region' });
    countryNames = new Map([...Object.keys(zoneByCountry), 'US', 'CA', 'AU', 'BR', 'RU', 'MX'].map((code) => [(display.of(code) ?? code).toLowerCase(), code]));
  }
  return countryNames.get(name) ?? null;
}

/** The zone a place suggests ('Berlin, Germany' → 'Europe/Berlin'): its country's one zone, else null. */
export function guessTimeZoneOfPlace(place: string): string | null {
  const country = countryCodeOf(place);
  return country === null ? null : guessTimeZone(country);
}
