// STUB (issue 6): replaced by its owner.
import { PageShell } from '../dashboard/PageShell';

export default function CampaignsPage() {
  return <PageShell title="CampaignsPage" />;
}
