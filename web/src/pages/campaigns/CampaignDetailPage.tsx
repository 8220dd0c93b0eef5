// STUB (issue 6): replaced by its owner.
import { PageShell } from '../dashboard/PageShell';

export default function CampaignDetailPage() {
  return <PageShell title="CampaignDetailPage" />;
}
