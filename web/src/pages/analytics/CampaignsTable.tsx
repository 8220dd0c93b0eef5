import { useCollection } from '@cloudscape-design/collection-hooks';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { useEffect, useState } from 'react';
import type { AnalyticsCampaign, LinkClicks } from '../../../../schema/api/insights';
import { isHttpLink } from '../../../../schema/api/links';
import { errorMessage } from '../../api/client';
import { getCampaignLinks } from '../../api/insights';
import { useAuth } from '../../auth/AuthContext';
import { useFollow } from '../../components/useFollow';
import { useKeyedState } from '../../lib/useKeyedState';
import { formatPercent } from './analyticsView';

/**
 * The campaigns' own figures (since each started), sortable by sent, open rate, click rate and
 * unsubscribes; on full analytics a campaign's 'Links' shows its links' clicks in a table below.
 */

type SortableField = 'emails_sent' | 'open_rate' | 'click_rate' | 'emails_unsubscribed';

/** Sorting that puts a missing figure (null) below every number; one instance per field, as the table requires. */
const byFigure =
  (field: SortableField) =>
  (a: AnalyticsCampaign, b: AnalyticsCampaign): number =>
    (a[field] ?? -1) - (b[field] ?? -1);
const comparators: Record<SortableField, ReturnType<typeof byFigure>> = {
  emails_sent: byFigure('emails_sent'),
  open_rate: byFigure('open_rate'),
  click_rate: byFigure('click_rate'),
  emails_unsubscribed: byFigure('emails_unsubscribed'),
};

const sortLabel =
  (name: string) =>
  ({ sorted, descending }: TableProps.LabelData) =>
    `${name}, ${sorted ? `sorted ${descending ? 'descending' : 'ascending'}` : 'not sorted'}`;

const count = (value: number | null) => (value === null ? '–' : value.toLocaleString('en-US'));

function campaignColumns(
  full: boolean,
  onLinks: (campaign: AnalyticsCampaign) => void,
  follow: ReturnType<typeof useFollow>,
): TableProps.ColumnDefinition<AnalyticsCampaign>[] {
  const sortable = (id: SortableField, header: string, cell: (campaign: AnalyticsCampaign) => string): TableProps.ColumnDefinition<AnalyticsCampaign> => ({
    id,
    header,
    cell,
    sortingField: id,
    sortingComparator: comparators[id],
    ariaLabel: sortLabel(header),
  });
  const columns: TableProps.ColumnDefinition<AnalyticsCampaign>[] = [
    {
      id: 'track',
      header: 'Campaign',
      cell: (campaign) => (
        <Link href={`/dashboard/campaigns/${campaign.id}`} onFollow={follow}>
          {campaign.track_name}
        </Link>
      ),
      isRowHeader: true,
    },
    sortable('emails_sent', 'Sent', (campaign) => count(campaign.emails_sent)),
    { id: 'opened', header: 'Opened', cell: (campaign) => count(campaign.emails_opened) },
    sortable('open_rate', 'Open rate', (campaign) => formatPercent(campaign.open_rate)),
    { id: 'machine', header: 'Machine opens', cell: (campaign) => count(campaign.emails_machine_opened) },
  ];
  if (!full) return columns;
  return [
    ...columns,
    { id: 'clicked', header: 'Clicked', cell: (campaign) => count(campaign.emails_clicked) },
    sortable('click_rate', 'Click rate', (campaign) => formatPercent(campaign.click_rate)),
    sortable('emails_unsubscribed', 'Unsubscribes', (campaign) => count(campaign.emails_unsubscribed)),
    { id: 'listened', header: 'Listened', cell: (campaign) => count(campaign.emails_listened) },
    { id: 'answered', header: 'Answered', cell: (campaign) => count(campaign.emails_answered) },
    {
      id: 'links',
      header: 'Links',
      cell: (campaign) => (
        <Button variant="inline-link" ariaLabel={`Links of ${campaign.track_name}`} onClick={() => onLinks(campaign)}>
          Links
        </Button>
      ),
    },
  ];
}

type LinksState = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; links: LinkClicks[] };

function LinksTable({ campaign, onClose }: { campaign: AnalyticsCampaign; onClose: () => void }) {
  const { api } = useAuth();
  const [attempt, setAttempt] = useState(0);
  const key = `${campaign.id}#${attempt}`;
  const [current, setFor] = useKeyedState<string, LinksState>(key, { status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    getCampaignLinks(api, campaign.id, controller.signal).then(
      (links) => setFor(key, { status: 'loaded', links }),
      (error: unknown) => {
        if (!controller.signal.aborted) setFor(key, { status: 'failed', message: errorMessage(error, 'Failed to load links.') });
      },
    );
    return () => controller.abort();
  }, [api, campaign.id, key, setFor]);

  const header = (
    <Header variant="h3" actions={<Button onClick={onClose}>Close links</Button>}>
      {`Links in ${campaign.track_name}`}
    </Header>
  );
  if (current.status === 'failed') {
    return (
      <Alert type="error" header={`Links in ${campaign.track_name}`} action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}>
        {current.message}
      </Alert>
    );
  }
  return (
    <Table
      data-testid="campaign-links"
      variant="embedded"
      header={header}
      ariaLabels={{ tableLabel: `Links in ${campaign.track_name}` }}
      loading={current.status === 'loading'}
      loadingText="Loading links"
      items={current.status === 'loaded' ? current.links : []}
      trackBy="index"
      empty={<Box color="text-body-secondary">This campaign's email has no links.</Box>}
      columnDefinitions={[
        {
          id: 'url',
          header: 'Link',
          isRowHeader: true,
          cell: (link) =>
            isHttpLink(link.url) ? (
              <Link href={link.url} external target="_blank" rel="noopener noreferrer" externalIconAriaLabel="(opens in a new tab)">
                {link.url}
              </Link>
            ) : (
              link.url
            ),
        },
        { id: 'clicks', header: 'Clicks', cell: (link) => link.click_count.toLocaleString('en-US') },
      ]}
    />
  );
}

export function CampaignsTable({ campaigns, full }: { campaigns: readonly AnalyticsCampaign[]; full: boolean }) {
  const [linksOf, setLinksOf] = useState<AnalyticsCampaign | null>(null);
  const follow = useFollow();
  const { items, collectionProps } = useCollection(campaigns, {
    sorting: { defaultState: { sortingColumn: { sortingField: 'emails_sent', sortingComparator: comparators.emails_sent }, isDescending: true } },
  });
  // A campaign no longer in the list (another period) closes its links.
  const shownLinks = linksOf && campaigns.some((campaign) => campaign.id === linksOf.id) ? linksOf : null;
  return (
    <SpaceBetween size="m">
      <Table
        {...collectionProps}
        data-testid="analytics-campaigns"
        header={
          <Header variant="h2" counter={`(${campaigns.length})`} description="Each campaign's figures since it started sending.">
            Campaigns
          </Header>
        }
        ariaLabels={{ tableLabel: 'Campaigns' }}
        columnDefinitions={campaignColumns(full, setLinksOf, follow)}
        items={items}
        trackBy="id"
        wrapLines
        empty={<Box color="text-body-secondary">No campaign has sent anything yet.</Box>}
      />
      {full && shownLinks && <LinksTable campaign={shownLinks} onClose={() => setLinksOf(null)} />}
    </SpaceBetween>
  );
}
