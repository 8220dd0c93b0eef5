import type { SelectProps } from '@cloudscape-design/components/select';

/**
 * The time zone choices of the contact form and Settings (issue 27 §2): every zone this browser's Intl
 * knows, by IANA name. A saved zone the list lacks (an alias such as 'Asia/Calcutta') is kept as an
 * option, so an edit never drops it.
 */
export function timeZoneOptions(saved: string, first: SelectProps.Option[] = []): SelectProps.Option[] {
  const zones = Intl.supportedValuesOf('timeZone');
  const all = saved !== '' && !zones.includes(saved) ? [saved, ...zones] : zones;
  return [...first, ...all.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' '), filteringTags: [zone] }))];
}

/** This browser's own time zone (Intl's), the artist's zone until they choose one. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
