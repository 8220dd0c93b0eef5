/**
 * A campaign's own rules, kept apart from compose.ts (which renders emails): the campaign store imports
 * this, and a function that builds the store must not pull in the email renderer with it. Pure.
 */
import type { Campaign } from '../../schema/api/campaigns';
import type { DraftContent } from '../ports';
import { NO_FOLLOW_UPS } from '../../schema/api/followUpValues';
import { listenDaysOf } from './listen';

const LISTEN_COUNTERS_ZERO = { emails_listened: 0, emails_answered: 0, emails_downloaded: 0 } as const;

/**
 * A stored campaign as the API answers it: items written before the listen page (issue 16) have no
 * listen fields, and read as a campaign without an uploaded track and with nothing listened; items
 * written before follow-ups and send windows (issue 27) have no steps and go any time.
 */
export function withListenDefaults(campaign: Campaign): Campaign {
  const stored: Partial<Campaign> = campaign;
  return {
    ...campaign,
    track_id: stored.track_id ?? null,
    allow_download: stored.allow_download ?? false,
    listen_days: listenDaysOf(stored.listen_days),
    // Campaigns stored before the pre-send check (issue 28 §2) did not say: not released.
    released: stored.released ?? false,
    emails_listened: stored.emails_listened ?? 0,
    emails_answered: stored.emails_answered ?? 0,
    emails_downloaded: stored.emails_downloaded ?? 0,
    follow_ups: stored.follow_ups ?? NO_FOLLOW_UPS,
    // Campaigns stored before send windows (issue 27) went any time.
    send_window: stored.send_window ?? null,
  };
}

/** A new draft campaign with this content: status draft, nothing sent, no sending times. */
export function newDraftCampaign(id: string, content: DraftContent, at: string): Campaign {
  return {
    id,
    ...content,
    status: 'draft',
    sending_status: null,
    total_queued: 0,
    next_send_at: null,
    emails_sent: 0,
    emails_opened: 0,
    emails_clicked: 0,
    emails_unsubscribed: 0,
    emails_failed: 0,
    emails_skipped: 0,
    emails_unknown: 0,
    emails_machine_opened: 0,
    ...LISTEN_COUNTERS_ZERO,
    send_after: null,
    pause_reason: null,
    follow_ups: NO_FOLLOW_UPS,
    send_window: null,
    started_sending_at: null,
    completed_sending_at: null,
    created_at: at,
    updated_at: at,
  };
}
