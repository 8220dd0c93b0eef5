import Button from '@cloudscape-design/components/button';
import { useNavigate, useParams } from 'react-router-dom';
import { PageShell } from './PageShell';

/** Dashboard sections that later issues build: the spec's title and a plain 'coming later' state. */

export function CampaignsPage() {
  return <PageShell title="Campaigns" description="Follow your campaigns' progress, opens and clicks." />;
}

export function CampaignDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  return (
    <PageShell
      title="Campaign details"
      description={id ? `Campaign ${id}` : undefined}
      actions={
        <Button iconName="arrow-left" onClick={() => navigate('/dashboard/campaigns')}>
          Back to Campaigns
        </Button>
      }
    />
  );
}

export function AnalyticsPage() {
  return <PageShell title="Analytics" description="Opens, clicks and unsubscribes across your campaigns." />;
}

export function SettingsPage() {
  return <PageShell title="Settings" description="Your account, mailbox connection and profile." />;
}

export function SubscriptionPage() {
  const navigate = useNavigate();
  return (
    <PageShell
      title="Subscription"
      description="Manage your subscription and upgrade for more features"
      actions={<Button onClick={() => navigate('/dashboard')}>Back to Dashboard</Button>}
    />
  );
}
