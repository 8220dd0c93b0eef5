import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import Popover from '@cloudscape-design/components/popover';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import type { DashboardStats } from '../../../../schema/api/insights';
import { insightsMessages, WEEKLY_STAT_DAYS } from '../../../../schema/api/insightsValues';
import type { Profile } from '../../../../schema/api/profile';
import { useAuth } from '../../auth/AuthContext';
import { StatCard, StatGrid } from '../../components/StatCard';
import { useFollow } from '../../components/useFollow';
import { plural } from '../../../../schema/plural';
import { shouldAutoStartTour } from '../../tour/tourRules';
import { emailLimitText, emailsRemaining, tierLabels } from './format';
import { PageShell } from './PageShell';
import { RecentSends } from './RecentSends';
import { TodosCard } from './TodosCard';
import { useDashboardStats, type DashboardStatsState } from './useDashboardStats';
import styles from './dashboard.module.css';

function MailboxCard({ profile, profileError }: { profile: Profile | null; profileError: string | null }) {
  const follow = useFollow();
  let body;
  if (profile?.gmail_connected) {
    // The status on one line (a wrapping StatusIndicator breaks anywhere: 'Gmail connec|ted' on a phone);
    // the address after it wraps where it must.
    body = (
      <div data-testid="mailbox-status">
        <StatusIndicator type="success" wrapText={false}>
          Gmail connected
        </StatusIndicator>
        {profile.gmail_email && (
          <Box variant="span" color="text-body-secondary">
            <span className={styles.address}>{` (${profile.gmail_email})`}</span>
          </Box>
        )}
      </div>
    );
  } else if (profile) {
    body = (
      <>
        <StatusIndicator type="warning" wrapText={false}>
          Gmail not connected
        </StatusIndicator>
        <Box variant="small" color="text-body-secondary" display="block">
          Connect Gmail in{' '}
          <Link href="/dashboard/settings" onFollow={follow} variant="primary" fontSize="body-s">
            Settings
          </Link>{' '}
          before sending a campaign.
        </Box>
      </>
    );
  } else if (profileError) {
    body = <Box color="text-body-secondary">Your mailbox status is not available right now.</Box>;
  } else {
    body = <StatusIndicator type="loading">Loading your mailbox</StatusIndicator>;
  }
  return (
    <Container data-testid="mailbox-card" header={<Header variant="h2">Mailbox</Header>}>
      {body}
    </Container>
  );
}

/** Spec §2 Dashboard home, §9: the nine figures; plan and this month's usage come from the profile the shell holds. */
function StatCards({ state, profile, profileError }: { state: DashboardStatsState; profile: Profile | null; profileError: string | null }) {
  const stats = state.kind === 'ready' ? state.stats : null;
  const loading = state.kind === 'loading';
  const figure = (value: (stats: DashboardStats) => number) => (stats ? value(stats).toLocaleString() : '—');
  const profileLoading = !profile && !profileError;
  const remaining = profile ? emailsRemaining(profile) : null;
  const machineOpens = stats?.emails_machine_opened ?? 0;

  return (
    // Three rows of three on a wide screen, two to a row on a phone.
    <StatGrid minWidth={140} maxColumns={3}>
      <StatCard label="Total Contacts" loading={loading} description="In your contacts">
        {figure((s) => s.total_contacts)}
      </StatCard>
      <StatCard label="Emails Sent" loading={loading} description="All time">
        {figure((s) => s.emails_sent)}
      </StatCard>
      <StatCard
        label="Emails Remaining"
        loading={profileLoading}
        description={
          profile
            ? profile.email_limit === null
              ? `${profile.emails_used.toLocaleString()} sent this month`
              : `${profile.emails_used.toLocaleString()} of ${emailLimitText(profile)} this month`
            : 'Not available'
        }
      >
        {!profile ? '—' : remaining === null ? 'Unlimited' : Math.max(0, remaining).toLocaleString()}
      </StatCard>
      <StatCard label="Total Campaigns" loading={loading} description="All time">
        {figure((s) => s.total_campaigns)}
      </StatCard>
      <StatCard label="Campaigns This Month" loading={loading} description="Sent this month">
        {figure((s) => s.campaigns_this_month)}
      </StatCard>
      <StatCard label="Emails This Week" loading={loading} description={`Sent in the last ${WEEKLY_STAT_DAYS} days`}>
        {figure((s) => s.emails_this_week)}
      </StatCard>
      <StatCard
        label="Emails Opened"
        loading={loading}
        description={
          machineOpens > 0 ? (
            <>
              + {plural(machineOpens, 'machine open')}{' '}
              <Popover header="Machine opens" content={insightsMessages.machineOpensWhy} triggerType="custom" dismissAriaLabel="Close">
                <Button variant="inline-icon" iconName="status-info" ariaLabel="Why machine opens are apart" />
              </Popover>
            </>
          ) : (
            'By people'
          )
        }
      >
        {figure((s) => s.emails_opened)}
      </StatCard>
      <StatCard
        label="Average Open Rate"
        loading={loading}
        description={stats?.average_open_rate === null ? insightsMessages.empty : 'Opened by people, of emails sent'}
      >
        {stats?.average_open_rate == null ? '—' : `${stats.average_open_rate}%`}
      </StatCard>
      <StatCard
        label="Current Plan"
        loading={profileLoading}
        description={profile ? (profile.email_limit === null ? 'Unlimited emails' : `${emailLimitText(profile)} emails a month`) : 'Not available'}
      >
        {profile ? tierLabels[profile.tier] : '—'}
      </StatCard>
    </StatGrid>
  );
}

/** Dashboard home: the to-dos the labels' answers call for, the mailbox, the nine figures and the last sends. */
export default function DashboardHome() {
  const { user, profile, profileError, refreshProfile } = useAuth();
  const navigate = useNavigate();
  const { state, retry } = useDashboardStats();
  const firstName = (user?.name || profile?.full_name || '').split(' ')[0];
  const remaining = profile ? emailsRemaining(profile) : 0;
  // A first visit is the tour's (a new profile, tour not yet taken). Decided from the profile as loaded,
  // so skipping the tour does not turn "Welcome" into "Welcome back" while the user reads it.
  const userId = user?.userId;
  const createdAt = profile?.created_at;
  const tourCompleted = profile?.tour_completed;
  const firstVisit = useMemo(
    () => !!userId && !!createdAt && shouldAutoStartTour({ userId, profileCreatedAt: createdAt, profileTourCompleted: tourCompleted }),
    [userId, createdAt, tourCompleted],
  );
  const welcome = firstVisit ? 'Welcome' : 'Welcome back';

  return (
    <PageShell title="Dashboard" description={firstName ? `${welcome}, ${firstName}.` : `${welcome}.`}>
      {profileError && !profile && (
        <Alert data-testid="profile-error" type="error" header="Failed to load profile" action={<Button onClick={() => void refreshProfile()}>Retry</Button>}>
          {profileError}
        </Alert>
      )}
      {state.kind === 'failed' && (
        <Alert data-testid="dashboard-error" type="error" header={insightsMessages.dashboardFailed} action={<Button onClick={retry}>Retry</Button>}>
          {state.message}
        </Alert>
      )}
      {profile && profile.tier === 'free' && remaining !== null && remaining <= 0 && (
        <Alert type="warning" header="Email Limit Reached" action={<Button onClick={() => void navigate('/dashboard/subscription')}>Upgrade</Button>}>
          You have used all {profile.email_limit} emails of your Free plan this month. Upgrade your plan to continue sending.
        </Alert>
      )}
      <TodosCard />
      <MailboxCard profile={profile} profileError={profileError} />
      <StatCards state={state} profile={profile} profileError={profileError} />
      <RecentSends state={state} />
    </PageShell>
  );
}
