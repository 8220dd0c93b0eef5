import {
  analyticsPeriods,
  DEFAULT_ANALYTICS_PERIOD,
  type Activity,
  type Analytics,
  type AnalyticsDay,
  type AnalyticsPeriodId,
} from '../../../../schema/api/insights';
import { percentOf } from '../../../../schema/api/insightsValues';
import { csvDocument, csvLines, formatCsvDateTime, formatDateStamp, type CsvColumn } from '../../lib/csv';
import { answerLabel, listenedPercent } from '../../lib/listenFacts';

/**
 * The Analytics page's pure parts (spec §2 Analytics; DESIGN §6, §11): the period in the URL, Pacific day
 * strings as dates without shifting the day, the funnel, and the export's CSV.
 */

export const PERIOD_PARAM = 'period';

/** The ?period= value when it names a period; the default otherwise (a hand-edited URL still shows a page). */
export function periodFromParam(value: string | null): AnalyticsPeriodId {
  return analyticsPeriods.find((period) => period.id === value)?.id ?? DEFAULT_ANALYTICS_PERIOD;
}

export const periodLabel = (id: AnalyticsPeriodId): string => analyticsPeriods.find((period) => period.id === id)?.label ?? id;

/**
 * A server day 'YYYY-MM-DD' (a Pacific calendar day) as a Date at UTC midnight of that calendar day, to
 * be formatted in UTC: `new Date('YYYY-MM-DD')` is also UTC midnight, but formatting it in the browser's
 * time zone would show the day before anywhere west of Greenwich.
 */
export function dayAsDate(day: string): Date {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date));
}

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** 'Nov 26': a chart tick. */
export const formatDayShort = (day: string): string => shortDay.format(dayAsDate(day));
/** 'Thu, Nov 26, 2026': a table cell or a chart's detail. */
export const formatDayLong = (day: string): string => longDay.format(dayAsDate(day));

export const formatPercent = (value: number | null): string => (value === null ? '–' : `${value}%`);

export interface FunnelStage {
  label: string;
  count: number;
  /** Rounded percent of the emails sent. */
  percent: number;
}

/** The period's funnel sent → opened → clicked → listened → answered → unsubscribed (people only); on basic analytics it stops at opened. */
export function funnelOf(totals: Analytics['totals']): FunnelStage[] {
  const sent = totals.emails_sent;
  const stages: [string, number | null][] = [
    ['Sent', sent],
    ['Opened', totals.emails_opened],
    ['Clicked', totals.emails_clicked],
    ['Listened', totals.emails_listened],
    ['Answered', totals.emails_answered],
    ['Unsubscribed', totals.emails_unsubscribed],
  ];
  // At most 100 %: a period's opens can be of emails sent before it.
  return stages.flatMap(([label, count]) => (count === null ? [] : [{ label, count, percent: percentOf(count, sent) ?? 0 }]));
}

/** A new account: nothing sent, ever (the campaigns list holds every campaign that sent anything). */
export const neverSent = (analytics: Analytics): boolean => analytics.campaigns.length === 0 && analytics.totals.emails_sent === 0;

export const isFull = (analytics: Analytics): boolean => analytics.depth === 'full';

// ---------------------------------------------------------------------------------------------------
// Export: one CSV file of two tables, the period's per-day series, an empty line, then the per-recipient
// activity (full analytics only). Text cells are formula-neutralised by lib/csv.

const basicDayColumns: readonly CsvColumn<AnalyticsDay>[] = [
  { header: 'Day', value: (day) => day.day },
  { header: 'Sent', value: (day) => day.emails_sent },
  { header: 'Opened', value: (day) => day.emails_opened },
  { header: 'Machine Opens', value: (day) => day.emails_machine_opened },
];

const fullDayColumns: readonly CsvColumn<AnalyticsDay>[] = [
  ...basicDayColumns,
  { header: 'Clicked', value: (day) => day.emails_clicked },
  { header: 'Unsubscribed', value: (day) => day.emails_unsubscribed },
  { header: 'Listened', value: (day) => day.emails_listened },
  { header: 'Answered', value: (day) => day.emails_answered },
];

export const activityCsvColumns: readonly CsvColumn<Activity>[] = [
  { header: 'Track', value: (row) => row.track_name },
  { header: 'Recipient Name', value: (row) => row.recipient_name },
  { header: 'Recipient Email', value: (row) => row.recipient_email },
  { header: 'Sent', value: (row) => formatCsvDateTime(row.sent_at) },
  { header: 'First Opened', value: (row) => formatCsvDateTime(row.opened_at) },
  { header: 'Last Opened', value: (row) => formatCsvDateTime(row.last_opened_at) },
  { header: 'Opens', value: (row) => row.open_count },
  { header: 'Machine Opens', value: (row) => row.machine_open_count },
  { header: 'First Clicked', value: (row) => formatCsvDateTime(row.clicked_at) },
  { header: 'Last Clicked', value: (row) => formatCsvDateTime(row.last_clicked_at) },
  { header: 'Clicks', value: (row) => row.click_count },
  // The listen page (issue 16): empty when the recipient never pressed play.
  { header: 'Listened %', value: listenedPercent },
  { header: 'Plays', value: (row) => row.play_count },
  { header: 'Downloads', value: (row) => row.download_count },
  { header: 'Answer', value: (row) => answerLabel(row.answer) },
  { header: 'Answer Note', value: (row) => row.answer_note },
];

/** The export: the per-day table, and on full analytics the activity table after an empty line. */
export function analyticsCsv(analytics: Analytics, activity: readonly Activity[]): string {
  if (!isFull(analytics)) return csvDocument(csvLines(basicDayColumns, analytics.days));
  return csvDocument(csvLines(fullDayColumns, analytics.days), csvLines(activityCsvColumns, activity));
}

/** trackpitch-analytics-{period}-{yyyy-MM-dd}.csv, the local date of the export. */
export function analyticsCsvFilename(period: AnalyticsPeriodId, now: Date = new Date()): string {
  return `trackpitch-analytics-${period}-${formatDateStamp(now)}.csv`;
}
