import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SideNavigation, { type SideNavigationProps } from '@cloudscape-design/components/side-navigation';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { useContext } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { BRAND_NAME, brandLogoDataUri } from '../../../../schema/brand';
import { useAuth } from '../../auth/AuthContext';
import { useSignOut } from '../../auth/useSignOut';
import { ConfigContext } from '../../config/ConfigContext';
import { ACCOUNT_AREA, SIDEBAR_AREA, useTour } from '../../tour/TourContext';
import styles from './dashboard.module.css';
import { monthUsage } from '../../lib/monthUsage';
import { useUsage } from '../../usage/UsageContext';
import { monthlyLimitReached, tierLabels, usageText } from './format';
import { accountNavItems, activeNavHref, localNavItems, mainNavItems, type NavItem } from './navigation';

/** A sidebar link; a description goes in `info`, next to the link rather than inside it. */
function navLink(item: NavItem): SideNavigationProps.Link {
  return {
    type: 'link',
    text: item.text,
    href: item.href,
    ...(item.description
      ? {
          info: (
            <span className={styles.navDescription}>
              <Box variant="small" color="text-body-secondary">
                {item.description}
              </Box>
            </span>
          ),
        }
      : {}),
  };
}

const navItems: SideNavigationProps.Item[] = [...mainNavItems.map(navLink), { type: 'divider' }, ...accountNavItems.map(navLink)];

/** The local runtime's own pages, in a list of their own under the product's sections. */
const localItems: SideNavigationProps.Item[] = localNavItems.map(navLink);

/** The app's one branded element (issue 25 §5): the product's logo beside its name; the rest is stock Cloudscape. */
const navHeader: SideNavigationProps.Header = { text: BRAND_NAME, href: '/dashboard', logo: { src: brandLogoDataUri, alt: '' } };

const tierColors = { free: 'grey', pro: 'blue', label: 'green' } as const;

/** Sidebar content: the section links, plan and mailbox badges, usage, the user, Show Tour and Sign out. */
export function DashboardNav({ onNavigate }: { onNavigate?: () => void }) {
  const { user, profile, profileError, refreshProfile } = useAuth();
  const { open: tourOpen, start, canStart } = useTour();
  const navigate = useNavigate();
  const location = useLocation();
  const { signOut: handleSignOut, signingOut } = useSignOut();
  const { state: usageState } = useUsage();

  // Read without useConfig: the sidebar also renders where no runtime config is provided.
  const local = useContext(ConfigContext)?.mode === 'local';
  const activeHref = activeNavHref(location.pathname);
  const follow: SideNavigationProps['onFollow'] = (event) => {
    if (event.detail.external) return;
    event.preventDefault();
    void navigate(event.detail.href);
    onNavigate?.();
  };

  // The month's figure follows sending (the shared usage source); the profile's, read at sign-in, until it answers.
  const usage =
    usageState.kind === 'ready'
      ? { emails_used: usageState.status.month.used, email_limit: usageState.status.month.limit }
      : profile && { emails_used: profile.emails_used, email_limit: profile.email_limit };

  const name = user?.name || profile?.full_name || '';
  const email = user?.email || profile?.email || '';

  return (
    <div className={styles.nav} data-tour-area={SIDEBAR_AREA}>
      <SideNavigation header={navHeader} activeHref={activeHref} items={navItems} onFollow={follow} />
      {local && <SideNavigation activeHref={activeHref} items={localItems} onFollow={follow} />}
      <div className={styles.account} data-tour-area={ACCOUNT_AREA}>
        <SpaceBetween size="m">
          {profile ? (
            <>
              <SpaceBetween direction="horizontal" size="xs">
                <Badge color={tierColors[profile.tier]}>{tierLabels[profile.tier]}</Badge>
                <Badge color={profile.gmail_connected ? 'green' : 'severity-medium'}>
                  {profile.gmail_connected ? 'Gmail connected' : 'Gmail not connected'}
                </Badge>
              </SpaceBetween>
              {usage && (
                <ProgressBar
                  value={monthUsage({ used: usage.emails_used, limit: usage.email_limit }).percent}
                  label="Emails this month"
                  description={usageText(usage)}
                  additionalInfo={monthlyLimitReached(usage) ? 'Monthly limit reached. Upgrade to send more.' : undefined}
                />
              )}
            </>
          ) : profileError ? (
            <Alert type="warning" header="Could not load your plan" action={<Button onClick={() => void refreshProfile()}>Retry</Button>}>
              {profileError}
            </Alert>
          ) : (
            <Box color="text-body-secondary">
              <Spinner /> Loading your plan…
            </Box>
          )}
          <div>
            {name && (
              <Box fontWeight="bold">
                <span className={styles.truncate}>{name}</span>
              </Box>
            )}
            <Box variant="small" color="text-body-secondary">
              <span className={styles.truncate}>{email}</span>
            </Box>
          </div>
          <SpaceBetween direction="horizontal" size="xs">
            <Button
              iconName="status-info"
              disabled={!canStart}
              disabledReason={tourOpen ? 'The tour is open.' : 'The tour was shown in this session. Reload the page to see it again.'}
              onClick={() => {
                onNavigate?.();
                start();
              }}
            >
              Show Tour
            </Button>
            <Button iconName="undo" onClick={() => void handleSignOut()} loading={signingOut}>
              Sign out
            </Button>
          </SpaceBetween>
        </SpaceBetween>
      </div>
    </div>
  );
}
