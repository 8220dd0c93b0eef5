import Button from '@cloudscape-design/components/button';
import { useNavigate } from 'react-router-dom';
import { PageShell } from './PageShell';

/** Dashboard sections that later issues build: the spec's title and a plain 'coming later' state. */

export function AnalyticsPage() {
  return <PageShell title="Analytics" description="Opens, clicks and unsubscribes across your campaigns." />;
}

export function SubscriptionPage() {
  const navigate = useNavigate();
  return (
    <PageShell
      title="Subscription"
      description="Manage your subscription and upgrade for more features"
      actions={<Button onClick={() => void navigate('/dashboard')}>Back to Dashboard</Button>}
    />
  );
}
