import { useCollection } from '@cloudscape-design/collection-hooks';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import type { Activity, ActivityFilter } from '../../../../schema/api/insights';
import { answerLabel, formatListenPercent, listenReach } from '../../lib/listenFacts';
import { plural } from '../../../../schema/plural';

/**
 * Per-recipient activity of the emails sent in the period (full analytics): who opened or clicked and
 * when, and what they did on the listen page, newest first. 'Show' picks engaged (a person opened,
 * clicked, listened or answered) or every email; the text filter
 * searches name, email and track in what is loaded. Pages show as they come; a failed page keeps what
 * came before it and offers Retry.
 */

export const ACTIVITY_TABLE_PAGE_SIZE = 25;

const showOptions: readonly (SelectProps.Option & { value: ActivityFilter })[] = [
  { value: 'engaged', label: 'Opened, clicked or listened' },
  { value: 'all', label: 'All emails sent' },
];

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string | null) => (iso === null ? '–' : dateTime.format(new Date(iso)));

const activityKey = (row: Activity) => `${row.campaign_id}#${row.position}`;

/** What a person did with one email: first time and how often; machine opens apart. */
const opened = (row: Activity) => (row.opened_at === null ? 'Not opened' : `${when(row.opened_at)}${row.open_count > 1 ? ` (${row.open_count} opens)` : ''}`);
const clicked = (row: Activity) =>
  row.clicked_at === null ? 'Not clicked' : `${when(row.clicked_at)}${row.click_count > 1 ? ` (${row.click_count} clicks)` : ''}`;

/**
 * The listen page (issue 16): how far (the furthest milestone; 'Played' when the plays stopped before the
 * first one; '—' when never played), then how often and whether the file was taken, under it (one column:
 * the table stays readable beside the opens).
 */
const listened = (row: Activity) => {
  const reach = listenReach(row);
  const detail = [
    ...(row.play_count > 0 ? [plural(row.play_count, 'play')] : []),
    ...(row.download_count > 0 ? [row.download_count > 1 ? `Downloaded (${plural(row.download_count, 'time')})` : 'Downloaded'] : []),
  ].join(' · ');
  return (
    <>
      <div>{reach === null ? '—' : reach.kind === 'listened' ? formatListenPercent(reach.percent) : 'Played'}</div>
      {detail !== '' && <Box variant="small">{detail}</Box>}
    </>
  );
};
const answered = (row: Activity) => {
  const label = answerLabel(row.answer);
  if (label === null) return '—';
  return (
    <>
      <div>{label}</div>
      {row.answer_note !== null && <Box variant="small">{`“${row.answer_note}”`}</Box>}
    </>
  );
};

const columns: TableProps.ColumnDefinition<Activity>[] = [
  {
    id: 'recipient',
    header: 'Recipient',
    isRowHeader: true,
    cell: (row) => (
      <>
        <div>{row.recipient_name ?? row.recipient_email}</div>
        {row.recipient_name !== null && <Box variant="small">{row.recipient_email}</Box>}
      </>
    ),
  },
  { id: 'track', header: 'Campaign', cell: (row) => row.track_name },
  { id: 'sent', header: 'Sent', cell: (row) => when(row.sent_at) },
  { id: 'opened', header: 'Opened', cell: opened },
  { id: 'clicked', header: 'Clicked', cell: clicked },
  { id: 'machine', header: 'Machine opens', cell: (row) => row.machine_open_count.toLocaleString('en-US') },
  { id: 'listened', header: 'Listened', cell: listened },
  { id: 'answer', header: 'Answer', cell: answered },
];

const matches = (row: Activity, text: string) => {
  const needle = text.trim().toLowerCase();
  return [row.recipient_name ?? '', row.recipient_email, row.track_name].some((field) => field.toLowerCase().includes(needle));
};

export interface ActivityState {
  rows: readonly Activity[];
  /** More pages are on their way. */
  loading: boolean;
  failed: string | null;
}

export function ActivityTable({
  activity,
  filter,
  onFilterChange,
  onRetry,
}: {
  activity: ActivityState;
  filter: ActivityFilter;
  onFilterChange: (filter: ActivityFilter) => void;
  onRetry: () => void;
}) {
  const { items, filteredItemsCount, collectionProps, filterProps, paginationProps } = useCollection(activity.rows, {
    filtering: {
      filteringFunction: matches,
      empty: (
        <Box color="text-body-secondary">
          {filter === 'engaged' ? 'Nobody opened, clicked or listened in this period yet.' : 'No emails sent in this period.'}
        </Box>
      ),
      noMatch: <Box color="text-body-secondary">No recipient matches the filter.</Box>,
    },
    pagination: { pageSize: ACTIVITY_TABLE_PAGE_SIZE },
  });
  const filtering = filterProps.filteringText.trim() !== '';
  const counter = filtering ? `(${filteredItemsCount ?? 0}/${activity.rows.length})` : `(${activity.rows.length})`;
  const selected = showOptions.find((option) => option.value === filter) ?? null;

  return (
    <Table
      {...collectionProps}
      data-testid="analytics-activity"
      header={
        <Header
          variant="h2"
          counter={counter}
          actions={activity.failed === null ? undefined : <Button onClick={onRetry}>Retry</Button>}
          description={
            activity.failed !== null ? (
              <StatusIndicator type="error">{activity.failed}</StatusIndicator>
            ) : activity.loading ? (
              <StatusIndicator type="loading">{`Loading activity (${activity.rows.length.toLocaleString('en-US')} so far)`}</StatusIndicator>
            ) : (
              'Who opened, clicked, listened or answered, and when. Opens count people only.'
            )
          }
        >
          Recipient activity
        </Header>
      }
      ariaLabels={{ tableLabel: 'Recipient activity' }}
      columnDefinitions={columns}
      items={items}
      trackBy={activityKey}
      wrapLines
      loading={activity.loading && activity.rows.length === 0}
      loadingText="Loading activity"
      empty={collectionProps.empty}
      filter={
        <SpaceBetween size="s" direction="horizontal" alignItems="end">
          <TextFilter
            {...filterProps}
            filteringPlaceholder="Find by name, email or campaign"
            filteringAriaLabel="Find recipients"
            countText={`${filteredItemsCount ?? 0} matches`}
          />
          <Select
            selectedOption={selected}
            options={showOptions}
            onChange={({ detail }) => onFilterChange((detail.selectedOption.value ?? 'engaged') as ActivityFilter)}
            data-testid="activity-show"
            inlineLabelText="Show"
            ariaLabel="Show"
          />
        </SpaceBetween>
      }
      pagination={
        <Pagination {...paginationProps} ariaLabels={{ nextPageLabel: 'Next page', previousPageLabel: 'Previous page', pageLabel: (page) => `Page ${page}` }} />
      }
    />
  );
}
