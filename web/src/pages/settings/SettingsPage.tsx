import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { Profile } from '../../../../schema/api/profile';
import { monthlyEmailsLabel, planOf, priceLabel } from '../../../../schema/plans';
import { mailboxErrorMessage, mailboxMessages } from '../../../../schema/api/sending';
import { NOT_CONFIGURED } from '../../../../schema/api/serverMessages';
import { ApiError, errorMessage } from '../../api/client';
import { consentNavigation, disconnectMailbox, startMailboxConnection } from '../../api/mailbox';
import { useAuth } from '../../auth/AuthContext';
import { useSignOut } from '../../auth/useSignOut';
import { useNotifications } from '../../notifications/NotificationsContext';
import { emailLimitText, tierLabels } from '../dashboard/format';
import { PageShell } from '../dashboard/PageShell';
import { periodText } from '../subscription/subscriptionView';
import { AccountDataCard } from './AccountDataCard';
import { ProfileForm } from './ProfileForm';

const tierColors = { free: 'grey', pro: 'blue', label: 'green' } as const;

/** Spec §3: the workspace type is shown as a business workspace account. */
export const accountTypeLabels: Record<Profile['gmail_account_type'], string> = {
  free: 'Personal Gmail account',
  workspace: 'Business workspace account',
};

/** The query flags the mailbox callback redirects with (spec §2 Settings). */
const CONNECTED_FLAG = 'gmail_connected';
const ERROR_FLAG = 'gmail_error';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Box variant="awsui-key-label">{label}</Box>
      <Box tagOverride="div">{children}</Box>
    </div>
  );
}

/** The Subscription card: the plan, and 'Upgrade Plan' for the free tier only (spec §2, §6). */
function SubscriptionCard({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const plan = planOf(profile.tier);
  const period = periodText(profile);
  return (
    <Container
      header={
        <Header
          variant="h2"
          actions={
            profile.tier === 'free' && (
              <Button variant="primary" onClick={() => void navigate('/dashboard/subscription')}>
                Upgrade Plan
              </Button>
            )
          }
        >
          Subscription
        </Header>
      }
    >
      <ColumnLayout columns={3} variant="text-grid" minColumnWidth={150}>
        <Fact label="Current Plan">{plan.name}</Fact>
        <Fact label="Price">
          {priceLabel(plan)} {plan.period}
        </Fact>
        <Fact label="Emails">{monthlyEmailsLabel(plan)}</Fact>
      </ColumnLayout>
      {period && (
        <Box variant="p" color="text-body-secondary" padding={{ top: 's' }}>
          {period}
        </Box>
      )}
    </Container>
  );
}

/** Settings (spec §2): Account Overview, Mailbox Integration, Profile Information, Subscription and Your data (issue 26 §3). */
export default function SettingsPage() {
  const { user, profile, profileError, refreshProfile, api } = useAuth();
  const { notify } = useNotifications();
  const [searchParams, setSearchParams] = useSearchParams();
  const { signOut: handleSignOut, signingOut } = useSignOut();
  const [connecting, setConnecting] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const [confirmingDisconnect, setConfirmingDisconnect] = useState(false);
  /** The server's word that this deployment cannot connect a mailbox at all: shown on the card, Connect off. */
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const handledFlags = useRef<string | null>(null);

  // After the consent redirect: one toast for the outcome, then the flags leave the URL (a reload must not repeat it).
  useEffect(() => {
    const connected = searchParams.get(CONNECTED_FLAG);
    const error = searchParams.get(ERROR_FLAG);
    if (connected === null && error === null) return;
    const seen = `${connected}|${error}`;
    if (handledFlags.current === seen) return;
    handledFlags.current = seen;
    if (error !== null) {
      notify({ type: 'error', title: mailboxMessages.connectionFailed, message: mailboxErrorMessage(error) });
    } else if (connected === 'true') {
      notify({ type: 'success', title: mailboxMessages.connected });
      void refreshProfile();
    }
    const rest = new URLSearchParams(searchParams);
    rest.delete(CONNECTED_FLAG);
    rest.delete(ERROR_FLAG);
    setSearchParams(rest, { replace: true });
  }, [searchParams, setSearchParams, notify, refreshProfile]);

  async function connect() {
    setConnecting(true);
    try {
      const authUrl = await startMailboxConnection(api);
      if (!authUrl) {
        notify({ type: 'error', title: mailboxMessages.connectionFailed, message: mailboxMessages.noAuthUrl });
        setConnecting(false);
        return;
      }
      // Leaves the app for the consent screen; the button stays busy until the page goes.
      consentNavigation.go(authUrl);
    } catch (error) {
      // Not a failure to retry: the deployment has no Gmail client until its operator sets one up.
      if (error instanceof ApiError && error.code === NOT_CONFIGURED) setUnavailable(error.message);
      else notify({ type: 'error', title: mailboxMessages.connectionFailed, message: errorMessage(error) });
      setConnecting(false);
    }
  }

  async function disconnect() {
    setDisconnecting(true);
    try {
      await disconnectMailbox(api);
      await refreshProfile();
      notify({ type: 'success', title: mailboxMessages.disconnected });
    } catch (error) {
      notify({ type: 'error', title: mailboxMessages.disconnectionFailed, message: errorMessage(error) });
    } finally {
      setDisconnecting(false);
      setConfirmingDisconnect(false);
    }
  }

  const email = profile?.email || user?.email || '';

  return (
    <PageShell title="Settings">
      <Container
        header={
          <Header
            variant="h2"
            actions={
              <Button iconName="undo" onClick={() => void handleSignOut()} loading={signingOut}>
                Sign Out
              </Button>
            }
          >
            Account Overview
          </Header>
        }
      >
        {profile ? (
          <ColumnLayout columns={4} variant="text-grid" minColumnWidth={150}>
            <Fact label="Email">
              <span style={{ overflowWrap: 'anywhere' }}>{email}</span>
            </Fact>
            <Fact label="Plan">
              <Badge color={tierColors[profile.tier]}>{tierLabels[profile.tier]}</Badge>
            </Fact>
            <Fact label="Emails Used">{profile.emails_used}</Fact>
            <Fact label="Email Limit">{emailLimitText(profile)}</Fact>
          </ColumnLayout>
        ) : profileError ? (
          <Box color="text-body-secondary">{profileError}</Box>
        ) : (
          <StatusIndicator type="loading">Loading your account</StatusIndicator>
        )}
      </Container>

      <Container
        header={
          <Header
            variant="h2"
            description="A mailbox must be connected before any campaign is sent. Trackpitch only asks to send email and to see your address."
          >
            Mailbox Integration
          </Header>
        }
      >
        {/* Spec §4 Mailbox token status: while loading, nothing is shown. */}
        {profile &&
          (profile.gmail_connected ? (
            <SpaceBetween size="m">
              <StatusIndicator type="success" wrapText={false}>
                Gmail connected
              </StatusIndicator>
              <ColumnLayout columns={3} variant="text-grid" minColumnWidth={150}>
                <Fact label="Mailbox">
                  <span style={{ overflowWrap: 'anywhere' }}>{profile.gmail_email ?? '—'}</span>
                </Fact>
                <Fact label="Account type">{accountTypeLabels[profile.gmail_account_type]}</Fact>
                <Fact label="Daily limit">{profile.gmail_daily_limit} emails per day</Fact>
              </ColumnLayout>
              <Button onClick={() => setConfirmingDisconnect(true)}>Disconnect</Button>
              {confirmingDisconnect && (
                <Modal
                  visible
                  header="Disconnect Gmail?"
                  onDismiss={() => !disconnecting && setConfirmingDisconnect(false)}
                  footer={
                    <Box float="right">
                      <SpaceBetween direction="horizontal" size="xs">
                        <Button variant="link" disabled={disconnecting} onClick={() => setConfirmingDisconnect(false)}>
                          Cancel
                        </Button>
                        <Button variant="primary" loading={disconnecting} onClick={() => void disconnect()}>
                          Disconnect
                        </Button>
                      </SpaceBetween>
                    </Box>
                  }
                >
                  {/* What the sender does without a mailbox (core/sender.ts: pause, reason mailbox_disconnected). */}
                  Trackpitch will no longer send from {profile.gmail_email ?? 'this mailbox'}. Emails waiting in your queue will not be sent: their campaigns
                  pause until you connect a mailbox again and resume them.
                </Modal>
              )}
            </SpaceBetween>
          ) : (
            <SpaceBetween size="m">
              <StatusIndicator type="warning" wrapText={false}>
                Gmail not connected
              </StatusIndicator>
              <Box variant="p">Connect your Gmail account to send campaigns from your own address.</Box>
              {unavailable && <Alert type="warning">{unavailable}</Alert>}
              <Button variant="primary" onClick={() => void connect()} loading={connecting} disabled={unavailable !== null}>
                Connect Gmail
              </Button>
            </SpaceBetween>
          ))}
      </Container>

      {profile && <ProfileForm key={profile.id} profile={profile} />}
      {profile && <SubscriptionCard profile={profile} />}
      {profile && <AccountDataCard email={email} />}
    </PageShell>
  );
}
