import type { BadgeProps } from '@cloudscape-design/components/badge';
import { listenAnswerLabels, listenAnswers, type ListenAnswer } from '../../../../schema/api/listenValues';
import { pipelineStageLabels, pipelineStages, type PipelineEntry, type PipelineStage, type PipelineTrack } from '../../../../schema/api/pipeline';
import { formatCsvDateTime, formatDateStamp, toCsv, type CsvColumn } from '../../lib/csv';
import type { FilterOption } from '../../components/FiltersSection';

/**
 * What the Tracks page and a track's board show of the pipeline (issue 28 §1), pure: paths, the words of
 * stages and marks, the board's filters and its CSV.
 */

export const TRACKS_PATH = '/dashboard/tracks';
export const trackPipelinePath = (trackKey: string) => `${TRACKS_PATH}/${encodeURIComponent(trackKey)}`;

export const stageLabel = (stage: PipelineStage) => pipelineStageLabels[stage];

/** The board's colours: where a contact stands at a glance (the words say it too). */
export const stageColors: Record<PipelineStage, BadgeProps['color']> = {
  queued: 'grey',
  pitched: 'blue',
  opened: 'blue',
  listened: 'blue',
  answered: 'severity-low',
  replied: 'severity-low',
  signed: 'green',
  passed: 'red',
};

/** A day the artist gave (YYYY-MM-DD), in the reader's words: 'Nov 3, 2026'. The day as given, in no zone. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return new Date(Date.UTC(year, month - 1, date)).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
}

/** Today in the artist's own calendar, as the mark's date field wants it. */
export const todayStamp = (now: Date = new Date()) => formatDateStamp(now);

/** 'Signed by you on Nov 3, 2026'; null without a mark. */
export function markText(entry: Pick<PipelineEntry, 'mark'>): string | null {
  if (!entry.mark) return null;
  return `${stageLabel(entry.mark.stage)} by you on ${formatDay(entry.mark.on)}`;
}

/** 'From events: Answered': what the events alone say, shown beside an artist's mark. */
export const derivedText = (entry: Pick<PipelineEntry, 'derived_stage'>) => `From events: ${stageLabel(entry.derived_stage)}`;

/** The answer filter's keys: each answer, and no answer yet. */
export type AnswerKey = ListenAnswer | 'none';
export const answerKeyOf = (entry: Pick<PipelineEntry, 'answer'>): AnswerKey => entry.answer ?? 'none';
export const answerKeyLabel = (key: AnswerKey) => (key === 'none' ? 'No answer' : listenAnswerLabels[key]);

/** The label size filter's key for a contact with none. */
export const NO_LABEL_SIZE = '';
export const labelSizeKeyOf = (entry: Pick<PipelineEntry, 'label_size'>) => entry.label_size?.trim() || NO_LABEL_SIZE;
export const labelSizeLabel = (key: string) => (key === NO_LABEL_SIZE ? 'Not given' : key);

/** Each filter narrows when something is ticked in it; nothing ticked: no filter. */
export interface BoardFilters {
  stages: ReadonlySet<PipelineStage>;
  answers: ReadonlySet<AnswerKey>;
  sizes: ReadonlySet<string>;
}

export const noBoardFilters: BoardFilters = { stages: new Set(), answers: new Set(), sizes: new Set() };

export const boardFiltered = (filters: BoardFilters) => filters.stages.size + filters.answers.size + filters.sizes.size > 0;

export function filterEntries(entries: readonly PipelineEntry[], { stages, answers, sizes }: BoardFilters): PipelineEntry[] {
  return entries.filter(
    (entry) =>
      (stages.size === 0 || stages.has(entry.stage)) &&
      (answers.size === 0 || answers.has(answerKeyOf(entry))) &&
      (sizes.size === 0 || sizes.has(labelSizeKeyOf(entry))),
  );
}

function countBy<K extends string>(entries: readonly PipelineEntry[], keyOf: (entry: PipelineEntry) => K): Map<K, number> {
  const counts = new Map<K, number>();
  for (const entry of entries) counts.set(keyOf(entry), (counts.get(keyOf(entry)) ?? 0) + 1);
  return counts;
}

/** Every stage, in board order, with how many of the board's contacts are in it. */
export function stageOptions(entries: readonly PipelineEntry[]): FilterOption<PipelineStage>[] {
  const counts = countBy(entries, (entry) => entry.stage);
  return pipelineStages.map((stage) => ({ key: stage, label: stageLabel(stage), count: counts.get(stage) ?? 0 }));
}

/** Every answer and 'No answer', with their counts. */
export function answerOptions(entries: readonly PipelineEntry[]): FilterOption<AnswerKey>[] {
  const counts = countBy(entries, answerKeyOf);
  return [...listenAnswers, 'none' as const].map((key) => ({ key, label: answerKeyLabel(key), count: counts.get(key) ?? 0 }));
}

/** The label sizes the board's contacts have, by name, 'Not given' last. */
export function labelSizeOptions(entries: readonly PipelineEntry[]): FilterOption<string>[] {
  const counts = countBy(entries, labelSizeKeyOf);
  return [...counts.keys()]
    .sort((a, b) => (a === NO_LABEL_SIZE ? 1 : b === NO_LABEL_SIZE ? -1 : a.localeCompare(b)))
    .map((key) => ({ key, label: labelSizeLabel(key), count: counts.get(key) ?? 0 }));
}

/** The board's entries per stage column, in board order; within a column by name. */
export function entriesByStage(entries: readonly PipelineEntry[]): Map<PipelineStage, PipelineEntry[]> {
  const columns = new Map<PipelineStage, PipelineEntry[]>(pipelineStages.map((stage) => [stage, []]));
  for (const entry of [...entries].sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email))) columns.get(entry.stage)?.push(entry);
  return columns;
}

/** The board's CSV columns: each contact's stage, what happened when, and the artist's mark. */
export const boardCsvColumns: readonly CsvColumn<PipelineEntry>[] = [
  { header: 'Name', value: (e) => e.name },
  { header: 'Email', value: (e) => e.email },
  { header: 'Company', value: (e) => e.company },
  { header: 'Label Size', value: (e) => e.label_size },
  { header: 'Stage', value: (e) => stageLabel(e.stage) },
  { header: 'Stage From Events', value: (e) => stageLabel(e.derived_stage) },
  { header: 'Answer', value: (e) => (e.answer ? listenAnswerLabels[e.answer] : null) },
  { header: 'Answer Note', value: (e) => e.answer_note },
  { header: 'Pitched', value: (e) => formatCsvDateTime(e.pitched_at) },
  { header: 'Opened', value: (e) => formatCsvDateTime(e.opened_at) },
  { header: 'Listened', value: (e) => formatCsvDateTime(e.listened_at) },
  { header: 'Answered', value: (e) => formatCsvDateTime(e.answered_at) },
  { header: 'Replied', value: (e) => formatCsvDateTime(e.replied_at) },
  { header: 'Your Mark', value: (e) => (e.mark ? stageLabel(e.mark.stage) : null) },
  { header: 'Mark Date', value: (e) => e.mark?.on },
  { header: 'Mark Note', value: (e) => e.mark?.note },
  { header: 'To-do Done', value: (e) => formatCsvDateTime(e.todo_done_at) },
];

export const boardCsv = (entries: readonly PipelineEntry[]) => toCsv(boardCsvColumns, entries);

/** '{track}-pipeline-{yyyy-MM-dd}.csv': the track's name made safe for a file name, the local date of the export. */
export function boardCsvFilename(track: Pick<PipelineTrack, 'name'>, now: Date = new Date()): string {
  const slug =
    track.name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'track';
  return `${slug}-pipeline-${formatDateStamp(now)}.csv`;
}

/** A track's answers, all kinds together. */
export const answeredTotal = (counts: PipelineTrack['counts']) => listenAnswers.reduce((sum, answer) => sum + counts.answered[answer], 0);
