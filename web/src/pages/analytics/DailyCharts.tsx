import { useCollection } from '@cloudscape-design/collection-hooks';
import BarChart from '@cloudscape-design/components/bar-chart';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Header from '@cloudscape-design/components/header';
import LineChart from '@cloudscape-design/components/line-chart';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import type { MixedLineBarChartProps } from '@cloudscape-design/components/mixed-line-bar-chart';
import { useMemo, useState } from 'react';
import { insightsMessages, type Analytics, type AnalyticsDay } from '../../../../schema/api/insights';
import { formatDayLong, formatDayShort } from './analyticsView';

/**
 * The period's per-day series (spec §2 Analytics; DESIGN §11): a line chart of what people did and a bar
 * chart of machine opens apart, each with the same figures as a table behind its 'View … as table'. The x
 * values are the server's Pacific day strings on a categorical axis, so no time zone moves a day.
 */

type DayFigure = 'emails_sent' | 'emails_opened' | 'emails_machine_opened' | 'emails_clicked' | 'emails_unsubscribed' | 'emails_listened';
interface Measure {
  figure: DayFigure;
  title: string;
}

const peopleMeasures: readonly Measure[] = [
  { figure: 'emails_sent', title: 'Sent' },
  { figure: 'emails_opened', title: 'Opened' },
  { figure: 'emails_clicked', title: 'Clicked' },
  { figure: 'emails_listened', title: 'Listened' },
  { figure: 'emails_unsubscribed', title: 'Unsubscribed' },
];
const machineMeasures: readonly Measure[] = [{ figure: 'emails_machine_opened', title: 'Machine opens' }];

const DAYS_PER_TABLE_PAGE = 31;

const chartStrings = (what: string): MixedLineBarChartProps.I18nStrings<string> => ({
  filterLabel: 'Filter displayed data',
  filterPlaceholder: 'Filter data',
  filterSelectedAriaLabel: 'selected',
  legendAriaLabel: 'Legend',
  detailPopoverDismissAriaLabel: 'Dismiss',
  chartAriaRoleDescription: what,
  xAxisAriaRoleDescription: 'x axis',
  yAxisAriaRoleDescription: 'y axis',
});

const wholeNumber = (value: number) => (Number.isInteger(value) ? value.toLocaleString('en-US') : '');

/** The measures the answer carries: basic analytics has no clicks or unsubscribes (null). */
const present = (measures: readonly Measure[], analytics: Analytics) => measures.filter((measure) => analytics.totals[measure.figure] !== null);

const seriesOf = (measures: readonly Measure[], days: readonly AnalyticsDay[]) =>
  measures.map((measure) => ({ title: measure.title, data: days.map((day) => ({ x: day.day, y: day[measure.figure] ?? 0 })) }));

/** A chart's description for screen readers: the period's totals of each measure. */
const describe = (measures: readonly Measure[], analytics: Analytics) =>
  `${formatDayLong(analytics.from)} to ${formatDayLong(analytics.to)}: ${measures
    .map((measure) => `${measure.title} ${(analytics.totals[measure.figure] ?? 0).toLocaleString('en-US')}`)
    .join(', ')}.`;

function DaysTable({ measures, days, label }: { measures: readonly Measure[]; days: readonly AnalyticsDay[]; label: string }) {
  // Newest first: the days a user looks for are on the first page (the chart reads left to right).
  const newestFirst = useMemo(() => [...days].reverse(), [days]);
  const { items, paginationProps } = useCollection(newestFirst, { pagination: { pageSize: DAYS_PER_TABLE_PAGE } });
  const columns: TableProps.ColumnDefinition<AnalyticsDay>[] = [
    { id: 'day', header: 'Day', cell: (day) => formatDayLong(day.day), isRowHeader: true },
    ...measures.map((measure) => ({
      id: measure.figure,
      header: measure.title,
      cell: (day: AnalyticsDay) => (day[measure.figure] ?? 0).toLocaleString('en-US'),
    })),
  ];
  return (
    <Table
      variant="embedded"
      ariaLabels={{ tableLabel: label }}
      columnDefinitions={columns}
      items={items}
      trackBy="day"
      pagination={
        days.length > DAYS_PER_TABLE_PAGE ? (
          <Pagination
            {...paginationProps}
            ariaLabels={{ nextPageLabel: 'Next days', previousPageLabel: 'Previous days', pageLabel: (page) => `Days page ${page}` }}
          />
        ) : undefined
      }
    />
  );
}

/** A chart's table alternative: mounted only when opened, so a year of days costs nothing until asked for. */
function TableAlternative({ measures, days, label }: { measures: readonly Measure[]; days: readonly AnalyticsDay[]; label: string }) {
  const [expanded, setExpanded] = useState(false);
  return (
    <ExpandableSection headerText={`View ${label.toLowerCase()} as table`} expanded={expanded} onChange={({ detail }) => setExpanded(detail.expanded)}>
      {expanded && <DaysTable measures={measures} days={days} label={label} />}
    </ExpandableSection>
  );
}

export function DailyCharts({ analytics }: { analytics: Analytics }) {
  const people = present(peopleMeasures, analytics);
  const xDomain = analytics.days.map((day) => day.day);
  return (
    <>
      <Container header={<Header variant="h2">Emails per day</Header>}>
        <SpaceBetween size="m">
          <LineChart
            series={seriesOf(people, analytics.days).map((series) => ({ ...series, type: 'line' as const }))}
            xDomain={xDomain}
            xScaleType="categorical"
            xTickFormatter={formatDayShort}
            yTickFormatter={wholeNumber}
            xTitle="Day (Pacific time)"
            yTitle="Emails"
            height={260}
            hideFilter
            ariaLabel="Emails per day"
            ariaDescription={describe(people, analytics)}
            i18nStrings={chartStrings('line chart')}
          />
          <TableAlternative measures={people} days={analytics.days} label="Emails per day" />
        </SpaceBetween>
      </Container>
      <Container
        header={
          <Header variant="h2" description={insightsMessages.machineOpensWhy}>
            Machine opens per day
          </Header>
        }
      >
        <SpaceBetween size="m">
          <BarChart
            series={seriesOf(machineMeasures, analytics.days).map((series) => ({ ...series, type: 'bar' as const }))}
            xDomain={xDomain}
            xScaleType="categorical"
            xTickFormatter={formatDayShort}
            yTickFormatter={wholeNumber}
            xTitle="Day (Pacific time)"
            yTitle="Machine opens"
            height={180}
            hideFilter
            hideLegend
            ariaLabel="Machine opens per day"
            ariaDescription={`${describe(machineMeasures, analytics)} ${insightsMessages.machineOpensWhy}`}
            i18nStrings={chartStrings('bar chart')}
            empty={<Box color="text-body-secondary">No machine opens</Box>}
          />
          <TableAlternative measures={machineMeasures} days={analytics.days} label="Machine opens per day" />
        </SpaceBetween>
      </Container>
    </>
  );
}
