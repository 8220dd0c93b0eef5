import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { Profile } from '../../../../schema/api/profile';
import { planOf, type PaidTier } from '../../../../schema/plans';
import { openBillingPortal, startCheckout, syncSubscription } from '../../api/billing';
import { useAuth } from '../../auth/AuthContext';
import { browser } from '../../lib/browser';
import { useNotifications } from '../../notifications/NotificationsContext';
import { emailLimitText, emailsRemaining } from '../dashboard/format';
import { PageShell } from '../dashboard/PageShell';
import { PlanCards, type Redirect } from './PlanCards';
import styles from './subscription.module.css';
import { CANCELED_FLAG, paymentFailed, paysForPlan, periodText, profilePatchOf, subscriptionMessages, SUCCESS_FLAG } from './subscriptionView';

type SyncState = 'syncing' | 'synced' | 'failed';

function StatCard({ label, value, detail }: { label: string; value: ReactNode; detail: string }) {
  return (
    <div role="group" aria-label={label} className={styles.fill}>
      <Container fitHeight>
        <Box variant="awsui-key-label">{label}</Box>
        <Box variant="awsui-value-large" tagOverride="div">
          {value}
        </Box>
        <Box variant="small" color="text-body-secondary">
          {detail}
        </Box>
      </Container>
    </div>
  );
}

function StatCards({ profile }: { profile: Profile }) {
  const plan = planOf(profile.tier);
  const fullDirectory = plan.tier !== 'free';
  return (
    <ColumnLayout columns={3} minColumnWidth={200}>
      <StatCard label="Emails Used" value={profile.emails_used} detail={`of ${emailLimitText(profile)} this month`} />
      <StatCard
        label="LabelFinder Access"
        value={fullDirectory ? 'Full' : 'Limited'}
        detail={`${profile.labelfinder_additions_count} of ${plan.directoryAdditions.toLocaleString('en-US')} contacts added`}
      />
      <StatCard
        label="Analytics"
        value={plan.analytics === 'full' ? 'Advanced' : 'Basic'}
        detail={plan.analytics === 'full' ? 'Opens, clicks and campaign tracking' : 'Open tracking only'}
      />
    </ColumnLayout>
  );
}

/**
 * The Subscription page (spec §2, §4 Subscription and Plan card actions, §8). On load it syncs the plan
 * with the billing provider (POST /api/billing/sync) and puts the answer into the shared profile, so the
 * sidebar changes with it; when the sync fails it shows the profile's data and says so. Checkout and the
 * billing portal are pages of the provider: the server gives their address and the browser goes there.
 */
export default function SubscriptionPage() {
  const { profile, profileError, refreshProfile, patchProfile, api } = useAuth();
  const { notify } = useNotifications();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const [sync, setSync] = useState<SyncState>('syncing');
  const [redirecting, setRedirecting] = useState<Redirect | null>(null);
  const handledFlags = useRef<string | null>(null);
  const patchProfileRef = useRef(patchProfile);
  useLayoutEffect(() => {
    patchProfileRef.current = patchProfile;
  });

  // One sync per visit: the return from Checkout (success=true) is a visit of its own.
  useEffect(() => {
    let active = true;
    syncSubscription(api).then(
      (state) => {
        if (!active) return;
        patchProfileRef.current(profilePatchOf(state));
        setSync('synced');
      },
      (error: unknown) => {
        console.error('Could not sync the subscription; showing the profile', error);
        if (active) setSync('failed');
      },
    );
    return () => {
      active = false;
    };
  }, [api]);

  // The flags Checkout returns with: one toast, then they leave the URL (a reload must not repeat it).
  useEffect(() => {
    const success = searchParams.get(SUCCESS_FLAG);
    const canceled = searchParams.get(CANCELED_FLAG);
    if (success === null && canceled === null) return;
    const seen = `${success}|${canceled}`;
    if (handledFlags.current === seen) return;
    handledFlags.current = seen;
    if (success === 'true') notify({ type: 'success', title: subscriptionMessages.activated });
    else if (canceled === 'true') notify({ type: 'info', title: subscriptionMessages.canceled });
    const rest = new URLSearchParams(searchParams);
    rest.delete(SUCCESS_FLAG);
    rest.delete(CANCELED_FLAG);
    setSearchParams(rest, { replace: true });
  }, [searchParams, setSearchParams, notify]);

  // Back from the provider's page through the browser's back/forward cache: the buttons work again.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setRedirecting(null);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  async function leaveFor(target: Redirect, address: () => Promise<string>, failure: string) {
    if (redirecting) return;
    setRedirecting(target);
    try {
      // The buttons stay busy until the browser has left.
      browser.leaveFor(await address());
    } catch (error) {
      console.error(failure, error);
      notify({ type: 'error', title: failure });
      setRedirecting(null);
    }
  }

  const upgrade = (tier: PaidTier) => void leaveFor(tier, () => startCheckout(api, tier), subscriptionMessages.checkoutFailed);
  const manageBilling = () => void leaveFor('portal', () => openBillingPortal(api), subscriptionMessages.portalFailed);

  const manageBillingButton = (
    <Button iconName="external" iconAlign="right" onClick={manageBilling} loading={redirecting === 'portal'} disabled={redirecting !== null}>
      Manage Billing
    </Button>
  );

  let content: ReactNode;
  if (!profile) {
    content = profileError ? (
      <Alert data-testid="profile-error" type="error" header="Error" action={<Button onClick={() => void refreshProfile()}>Retry</Button>}>
        Failed to load profile
      </Alert>
    ) : (
      <StatusIndicator type="loading">Loading your subscription</StatusIndicator>
    );
  } else if (sync === 'syncing') {
    content = <StatusIndicator type="loading">Checking your subscription with the payment provider</StatusIndicator>;
  } else {
    const plan = planOf(profile.tier);
    const remaining = emailsRemaining(profile);
    const period = periodText(profile);
    content = (
      <SpaceBetween size="l">
        {sync === 'failed' && <Alert type="warning">{subscriptionMessages.syncFailed}</Alert>}
        {paysForPlan(profile) && paymentFailed(profile.subscription_status) && (
          <Alert data-testid="payment-failed" type="warning" header={subscriptionMessages.paymentFailedTitle} action={manageBillingButton}>
            We could not take the payment for your {plan.name} plan. Update your payment method in the billing portal to keep it.
          </Alert>
        )}
        <Alert data-testid="plan-banner" type="success" header={`You're on the ${plan.name} plan`}>
          <SpaceBetween size="xxs">
            {period && <span>{period}</span>}
            <span>
              Emails remaining: <strong>{remaining === null ? 'Unlimited' : Math.max(0, remaining).toLocaleString('en-US')}</strong>
            </span>
          </SpaceBetween>
        </Alert>
        <StatCards profile={profile} />
        <PlanCards currentTier={profile.tier} redirecting={redirecting} onUpgrade={upgrade} onOpenPortal={manageBilling} />
      </SpaceBetween>
    );
  }

  return (
    <PageShell
      title="Subscription"
      description="Manage your subscription and upgrade for more features"
      actions={
        <SpaceBetween direction="horizontal" size="xs">
          <Button onClick={() => void navigate('/dashboard')}>Back to Dashboard</Button>
          {profile && sync !== 'syncing' && paysForPlan(profile) && manageBillingButton}
        </SpaceBetween>
      }
    >
      {content}
    </PageShell>
  );
}
