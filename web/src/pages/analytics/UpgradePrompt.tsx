import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import { useNavigate } from 'react-router-dom';
import { insightsMessages } from '../../../../schema/api/insights';

/** Where Free's basic analytics stops (spec §8; DESIGN §6): what the rest is and the way to it. */
export function UpgradePrompt({ header }: { header: string }) {
  const navigate = useNavigate();
  return (
    <Alert
      type="info"
      header={header}
      data-testid="analytics-upgrade"
      action={<Button onClick={() => void navigate('/dashboard/subscription')}>Upgrade</Button>}
    >
      {insightsMessages.upgradeForAnalytics}
    </Alert>
  );
}
