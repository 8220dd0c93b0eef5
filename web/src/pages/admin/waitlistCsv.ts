import type { WaitlistEntry } from '../../../../schema/api/waitlist';
import { formatCsvDateTime, formatDateStamp, toCsv, type CsvColumn } from '../../lib/csv';

/** Spec §7: the waitlist export's columns, in order; dates as yyyy-MM-dd HH:mm (local time). */
export const waitlistCsvColumns: readonly CsvColumn<WaitlistEntry>[] = [
  { header: 'Email', value: (e) => e.email },
  { header: 'Artist Name', value: (e) => e.artist_name },
  { header: 'Music Style', value: (e) => e.music_style },
  { header: 'URL', value: (e) => e.soundcloud_spotify_url },
  { header: 'Why Interested', value: (e) => e.why_interested },
  { header: 'Status', value: (e) => e.status },
  { header: 'Submitted Date', value: (e) => formatCsvDateTime(e.submitted_at) },
  { header: 'Approved Date', value: (e) => formatCsvDateTime(e.approved_at) },
  { header: 'Notes', value: (e) => e.notes },
];

export function waitlistCsv(entries: readonly WaitlistEntry[]): string {
  return toCsv(waitlistCsvColumns, entries);
}

/** beta-waitlist-{yyyy-MM-dd}.csv, the local date of the export. */
export function waitlistCsvFilename(now: Date = new Date()): string {
  return `beta-waitlist-${formatDateStamp(now)}.csv`;
}
