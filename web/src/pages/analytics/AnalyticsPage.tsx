import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { analyticsPeriods, insightsMessages, type Activity, type ActivityFilter, type Analytics } from '../../../../schema/api/insights';
import { errorMessage } from '../../api/client';
import { getAnalytics, listActivity } from '../../api/insights';
import { useAuth } from '../../auth/AuthContext';
import { fileSaver } from '../../lib/csv';
import { useKeyedState } from '../../lib/useKeyedState';
import { PageShell } from '../dashboard/PageShell';
import { ActivityTable, type ActivityState } from './ActivityTable';
import { analyticsCsv, analyticsCsvFilename, isFull, neverSent, PERIOD_PARAM, periodFromParam, periodLabel } from './analyticsView';
import { ByEmailTable } from './ByEmailTable';
import { CampaignsTable } from './CampaignsTable';
import { DailyCharts } from './DailyCharts';
import { Funnel } from './Funnel';
import { UpgradePrompt } from './UpgradePrompt';

/**
 * The Analytics page (spec §2 Analytics; DESIGN §6, §11): the chosen period (kept in ?period= so a
 * reload keeps it) of per-day series, the funnel, the campaigns with their links and the per-recipient
 * activity, and their CSV export. On Free (basic analytics) it shows sent and opens and says what the
 * rest is; it never asks the routes Free has no access to. Another period's answer replaces the figures
 * on screen when it comes. Its own lazy chunk, charts included.
 */

type AnalyticsState = { status: 'loading' } | { status: 'failed' } | { status: 'loaded'; analytics: Analytics };

const periodOptions = analyticsPeriods.map((period) => ({ value: period.id, label: period.label }));
const noActivity: ActivityState = { rows: [], loading: true, failed: null };

/** Every page of the period's activity under `filter`, shown as each page comes; only on full analytics. */
function useActivity(analytics: Analytics | null, filter: ActivityFilter) {
  const { api } = useAuth();
  const [attempt, setAttempt] = useState(0);
  const full = analytics !== null && isFull(analytics);
  const period = analytics?.period;
  const key = full ? `${period}#${filter}#${attempt}` : null;
  const [activity, setFor] = useKeyedState<string | null, ActivityState>(key, noActivity);

  useEffect(() => {
    if (key === null || period === undefined) return;
    const controller = new AbortController();
    const rows: Activity[] = [];
    listActivity(api, {
      period,
      filter,
      signal: controller.signal,
      onPage: (page, more) => {
        if (controller.signal.aborted) return;
        rows.push(...page);
        setFor(key, { rows: [...rows], loading: more, failed: null });
      },
    }).catch((error: unknown) => {
      if (!controller.signal.aborted) setFor(key, { rows: [...rows], loading: false, failed: errorMessage(error, 'Failed to load activity.') });
    });
    return () => controller.abort();
  }, [api, key, period, filter, setFor]);

  return { activity, retry: () => setAttempt((n) => n + 1) };
}

export default function AnalyticsPage() {
  const { api } = useAuth();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const period = periodFromParam(searchParams.get(PERIOD_PARAM));
  const [attempt, setAttempt] = useState(0);
  const key = `${period}#${attempt}`;
  const [state, setFor] = useKeyedState<string, AnalyticsState>(key, { status: 'loading' });
  const [filter, setFilter] = useState<ActivityFilter>('engaged');
  /** The last answer loaded: it stays on screen, marked as loading, while another period's comes. */
  const [lastLoaded, setLastLoaded] = useState<Analytics | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getAnalytics(api, period, controller.signal).then(
      (analytics) => {
        setFor(key, { status: 'loaded', analytics });
        setLastLoaded(analytics);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Could not load analytics', error);
        setFor(key, { status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [api, period, key, setFor]);

  const analytics = state.status === 'loaded' ? state.analytics : null;
  const full = analytics !== null && isFull(analytics);
  const { activity, retry: retryActivity } = useActivity(analytics, filter);
  const shown = analytics ?? (state.status === 'loading' ? lastLoaded : null);
  const empty = shown !== null && neverSent(shown);

  const choosePeriod = (id: string) => {
    const next = new URLSearchParams(searchParams);
    next.set(PERIOD_PARAM, periodFromParam(id));
    setSearchParams(next);
  };

  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  /** The period's days and, on full analytics, every email sent in it (whatever the table shows): read afresh unless all are loaded. */
  const exportCsv = async () => {
    if (!analytics) return;
    setExportError(null);
    setExporting(true);
    try {
      const everyEmail = filter === 'all' && !activity.loading && !activity.failed;
      const rows = !full ? [] : everyEmail ? activity.rows : await listActivity(api, { period: analytics.period, filter: 'all' });
      fileSaver.save(analyticsCsvFilename(analytics.period), analyticsCsv(analytics, rows));
    } catch (error) {
      console.error('Could not export analytics', error);
      setExportError(errorMessage(error, insightsMessages.exportFailed));
    } finally {
      setExporting(false);
    }
  };

  const actions = (
    <SpaceBetween size="xs" direction="horizontal" alignItems="center">
      <Select
        data-testid="analytics-period"
        inlineLabelText="Period"
        selectedOption={{ value: period, label: periodLabel(period) }}
        options={periodOptions}
        onChange={({ detail }) => choosePeriod(detail.selectedOption.value ?? '')}
      />
      <Button
        iconName="download"
        onClick={() => void exportCsv()}
        disabled={analytics === null || empty}
        loading={exporting}
        loadingText="Preparing the export"
      >
        Export
      </Button>
    </SpaceBetween>
  );

  let content;
  if (state.status === 'failed') {
    content = (
      <Alert type="error" data-testid="analytics-error" action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}>
        {insightsMessages.analyticsFailed}
      </Alert>
    );
  } else if (shown === null) {
    content = (
      <Container>
        <StatusIndicator type="loading">Loading analytics</StatusIndicator>
      </Container>
    );
  } else if (empty) {
    content = (
      <Container data-testid="analytics-empty">
        <Box textAlign="center" padding={{ vertical: 'l' }}>
          <SpaceBetween size="s">
            <Box variant="h2" tagOverride="h2">
              {insightsMessages.empty}
            </Box>
            <Box color="text-body-secondary">{insightsMessages.emptyDetail}</Box>
            <div>
              <Button variant="primary" onClick={() => void navigate('/dashboard/compose')}>
                Compose
              </Button>
            </div>
          </SpaceBetween>
        </Box>
      </Container>
    );
  } else {
    const shownFull = isFull(shown);
    content = (
      <>
        {analytics === null && <StatusIndicator type="loading">{`Loading ${periodLabel(period).toLowerCase()}`}</StatusIndicator>}
        <DailyCharts analytics={shown} />
        <Funnel analytics={shown} locked={shownFull ? undefined : <UpgradePrompt header="Clicks and unsubscribes" />} />
        <CampaignsTable campaigns={shown.campaigns} full={shownFull} />
        {shownFull && <ByEmailTable campaigns={shown.campaigns} />}
        {shownFull ? (
          <ActivityTable activity={activity} filter={filter} onFilterChange={setFilter} onRetry={retryActivity} />
        ) : (
          <UpgradePrompt header="Links and recipient activity" />
        )}
      </>
    );
  }

  return (
    <PageShell title="Analytics" description="Opens, clicks and unsubscribes across your campaigns. Days are Pacific time." actions={actions}>
      {exportError && (
        <Alert type="error" data-testid="analytics-export-error" dismissible onDismiss={() => setExportError(null)}>
          {exportError}
        </Alert>
      )}
      {content}
    </PageShell>
  );
}
