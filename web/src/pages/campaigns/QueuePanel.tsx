import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useMemo } from 'react';
import { pendingEmails, type CampaignSummary } from '../../../../schema/api/campaigns';
import { durationWords } from '../../../../schema/sendingLimits';
import { artistClock, windowedQueueEstimate, zonePlace } from '../../lib/queueEta';
import { useNow } from '../../lib/useNow';
import { formatDateTime, nextSendText, queueEta } from './campaignView';
import { Figures } from './Figures';

export const QUEUE_PANEL_TITLE = 'Sending Queue';

/** How often 'Starts after' is checked against the clock, between the page's re-reads. */
const CLOCK_MS = 1000;

/** How often a working-hours estimate is counted again: it moves with the clock, not with every second. */
const ESTIMATE_MS = 60_000;

/**
 * The live queue panel (spec §2), shown while the campaign is sending: the detail page re-reads the
 * campaign every few seconds and this panel follows. ETA: pending × the server's send interval (spec §9:
 * one a minute, 60 an hour); '—' until the pace is known. A campaign sent in the recipients' working
 * hours (issue 27 §2) counts their windows instead, from the pending recipients' zones (`pendingZones`,
 * null until the emails are read), and says when the later zones start, in the artist's time.
 */
export function QueuePanel({
  campaign,
  intervalMs,
  now,
  pendingZones = null,
  artistZone,
}: {
  campaign: CampaignSummary;
  intervalMs: number | null;
  now?: number;
  pendingZones?: readonly (string | null)[] | null;
  artistZone: string;
}) {
  const clock = useNow(CLOCK_MS);
  const estimateAt = Math.floor((now ?? clock) / ESTIMATE_MS) * ESTIMATE_MS;
  const window = campaign.send_window;
  const windowed = useMemo(
    () =>
      window && pendingZones && intervalMs !== null && pendingZones.length > 0
        ? windowedQueueEstimate({ window, zones: pendingZones, artistZone, intervalMs, now: new Date(estimateAt) })
        : null,
    [window, pendingZones, artistZone, intervalMs, estimateAt],
  );
  const laterZones = windowed?.zones.filter((zone) => zone.opensAt.getTime() > estimateAt) ?? [];
  const pending = pendingEmails(campaign);
  const processed = campaign.total_queued - pending;
  const waitsUntil = campaign.send_after && Date.parse(campaign.send_after) > (now ?? clock) ? campaign.send_after : null;
  return (
    <Container header={<Header variant="h2">{QUEUE_PANEL_TITLE}</Header>}>
      <SpaceBetween size="m">
        <ProgressBar
          value={campaign.total_queued > 0 ? Math.round((processed / campaign.total_queued) * 100) : 0}
          label="Queue progress"
          additionalInfo={`${processed} of ${campaign.total_queued} processed`}
        />
        <Figures
          items={[
            { label: 'Pending', value: pending.toLocaleString() },
            { label: 'Sent', value: campaign.emails_sent.toLocaleString() },
            { label: 'Failed', value: campaign.emails_failed.toLocaleString() },
            { label: 'Skipped', value: campaign.emails_skipped.toLocaleString() },
            { label: 'Unknown', value: campaign.emails_unknown.toLocaleString() },
            { label: 'Next send', value: nextSendText(campaign.next_send_at, now ?? clock) },
            {
              label: 'Estimated time left',
              value:
                intervalMs === null
                  ? '—'
                  : windowed?.finishAt
                    ? durationWords(Math.max(0, windowed.finishAt.getTime() - estimateAt))
                    : queueEta(pending, intervalMs),
            },
            ...(windowed?.finishAt ? [{ label: 'Last email around', value: artistClock(windowed.finishAt, new Date(estimateAt), artistZone) }] : []),
            ...laterZones.map((zone) => ({
              label: `${zonePlace(zone.zone)} recipients start`,
              value: `${artistClock(zone.opensAt, new Date(estimateAt), artistZone)} your time`,
            })),
            ...(waitsUntil ? [{ label: 'Starts after', value: formatDateTime(waitsUntil) }] : []),
          ]}
        />
      </SpaceBetween>
    </Container>
  );
}
