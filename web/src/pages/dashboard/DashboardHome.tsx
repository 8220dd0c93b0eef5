import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import { ComingSoon } from '../../components/ComingSoon';
import { emailLimitText, emailsRemaining, tierLabels } from './format';
import { PageShell } from './PageShell';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Box variant="awsui-key-label">{label}</Box>
      <Box variant="awsui-value-large" tagOverride="div">
        {children}
      </Box>
    </div>
  );
}

/** Dashboard home: the real facts the profile holds; the statistics cards come in a later release. */
export default function DashboardHome() {
  const { user, profile, profileError, refreshProfile } = useAuth();
  const navigate = useNavigate();
  const firstName = (user?.name || profile?.full_name || '').split(' ')[0];
  const remaining = profile ? emailsRemaining(profile) : 0;

  return (
    <PageShell title="Dashboard" description={firstName ? `Welcome back, ${firstName}.` : 'Welcome back.'}>
      {profileError && !profile && (
        <Alert type="error" header="Failed to load profile" action={<Button onClick={() => void refreshProfile()}>Retry</Button>}>
          {profileError}
        </Alert>
      )}
      {profile && profile.tier === 'free' && remaining !== null && remaining <= 0 && (
        <Alert type="warning" header="Email Limit Reached" action={<Button onClick={() => void navigate('/dashboard/subscription')}>Upgrade</Button>}>
          You have used all {profile.email_limit} emails of your Free plan this month. Upgrade your plan to continue sending.
        </Alert>
      )}
      <Container header={<Header variant="h2">Your account</Header>}>
        {profile ? (
          <ColumnLayout columns={4} variant="text-grid" minColumnWidth={150}>
            <Fact label="Current Plan">{tierLabels[profile.tier]}</Fact>
            <Fact label="Emails Sent">
              {profile.emails_used}{' '}
              <Box variant="span" color="text-body-secondary" fontSize="body-m">
                of {emailLimitText(profile)}
              </Box>
            </Fact>
            <Fact label="Emails Remaining">{remaining === null ? 'Unlimited' : Math.max(0, remaining)}</Fact>
            <div>
              <Box variant="awsui-key-label">Mailbox</Box>
              <StatusIndicator type={profile.gmail_connected ? 'success' : 'warning'}>
                {profile.gmail_connected ? 'Gmail connected' : 'Gmail not connected'}
              </StatusIndicator>
              {!profile.gmail_connected && (
                <Box variant="small" color="text-body-secondary" display="block">
                  Connect Gmail in Settings before sending a campaign.
                </Box>
              )}
            </div>
          </ColumnLayout>
        ) : profileError ? (
          <Box color="text-body-secondary">Your plan and usage are not available right now.</Box>
        ) : (
          <StatusIndicator type="loading">Loading your account</StatusIndicator>
        )}
      </Container>
      <ComingSoon detail="Contact, campaign and open-rate statistics will appear here once those features are released." />
    </PageShell>
  );
}
