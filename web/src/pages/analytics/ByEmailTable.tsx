import Header from '@cloudscape-design/components/header';
import Table from '@cloudscape-design/components/table';
import { emailStepLabel, type AnalyticsCampaign, type EmailStepFigures } from '../../../../schema/api/insights';

/** One row: a campaign's email (the first, or a follow-up step) and what came through its link. */
interface EmailRow extends EmailStepFigures {
  id: string;
  track_name: string;
}

/** The rows of the campaigns with follow-ups, each campaign's emails in order. */
export const byEmailRows = (campaigns: readonly AnalyticsCampaign[]): EmailRow[] =>
  campaigns.flatMap((campaign) =>
    (campaign.by_email ?? []).map((figures) => ({ ...figures, id: `${campaign.id}#${figures.step}`, track_name: campaign.track_name })),
  );

/**
 * Issue 27 §1: for the campaigns with follow-ups, the listens and answers by the email whose link brought
 * them (the first email, then each follow-up). Nothing shows for an artist without follow-ups.
 */
export function ByEmailTable({ campaigns }: { campaigns: readonly AnalyticsCampaign[] }) {
  const rows = byEmailRows(campaigns);
  if (rows.length === 0) return null;
  return (
    <Table
      data-testid="analytics-by-email"
      header={
        <Header variant="h2" description="Each listen and answer is counted on the email whose link the recipient followed.">
          Listens and answers by email
        </Header>
      }
      ariaLabels={{ tableLabel: 'Listens and answers by email' }}
      items={rows}
      trackBy="id"
      wrapLines
      columnDefinitions={[
        { id: 'track', header: 'Campaign', cell: (row) => row.track_name },
        { id: 'email', header: 'Email', cell: (row) => emailStepLabel(row.step), isRowHeader: true },
        { id: 'listened', header: 'Listened', cell: (row) => row.emails_listened.toLocaleString('en-US') },
        { id: 'answered', header: 'Answered', cell: (row) => row.emails_answered.toLocaleString('en-US') },
      ]}
    />
  );
}
