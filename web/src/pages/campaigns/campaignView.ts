import type { BadgeProps } from '@cloudscape-design/components/badge';
import type { CampaignStatus, CampaignSummary } from '../../../../schema/api/campaigns';
// Values from the zod-free module, so the dashboard home can format with this file without loading zod.
import { pendingEmails } from '../../../../schema/api/campaignValues';
import { genreLabels } from '../../../../schema/api/options';
import type { RecipientStatus } from '../../../../schema/api/sending';

/**
 * What the campaigns list and the campaign detail show about a campaign, as pure functions of its
 * counters: the badge (spec §4), the progress, the queue ETA and the usage level (spec §9).
 */

export type BadgeLabel = 'Draft' | 'Complete' | 'Sending' | 'Paused' | 'Scheduled';

const rawStatusLabels: Record<CampaignStatus, BadgeLabel> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  // "Complete" like the counter rule, so a campaign that ended with failures reads the same.
  completed: 'Complete',
};

export const badgeColors: Record<BadgeLabel, BadgeProps['color']> = {
  Draft: 'grey',
  Complete: 'green',
  Sending: 'blue',
  Paused: 'severity-medium',
  Scheduled: 'severity-neutral',
};

type Counters = Pick<
  CampaignSummary,
  'status' | 'sending_status' | 'total_queued' | 'total_recipients' | 'emails_sent' | 'emails_failed' | 'emails_skipped' | 'emails_unknown'
>;

/** The number the progress is measured against: what was queued, or before queueing the recipients chosen. */
export const campaignTotal = (c: Pick<CampaignSummary, 'total_queued' | 'total_recipients'>) => (c.total_queued > 0 ? c.total_queued : c.total_recipients);

/**
 * Spec §4 badge (the card's and the detail's rules agree; the detail's are the card's without Draft's
 * special case, which the raw status gives anyway): Draft if draft; Complete when sent ≥ total and
 * total > 0; Sending when some are sent and some remain; otherwise the raw status. One deliberate
 * refinement: a paused campaign reads 'Paused' even with some sent, since nothing is going out and its
 * card offers 'Resume (n)'. "Remain" counts only emails still to be tried (pendingEmails), so a finished
 * campaign with failures is not shown as still sending.
 */
export function campaignBadge(c: Counters): BadgeLabel {
  if (c.status === 'draft') return 'Draft';
  const total = c.total_queued;
  if (total > 0 && c.emails_sent >= total) return 'Complete';
  if (c.sending_status === 'paused' || c.status === 'paused') return 'Paused';
  if (c.emails_sent > 0 && pendingEmails(c) > 0) return 'Sending';
  return rawStatusLabels[c.status];
}

/** Sent as a whole percentage of the total (0 when there is nothing to send). */
export function progressPercent(c: Pick<CampaignSummary, 'emails_sent' | 'total_queued' | 'total_recipients'>): number {
  const total = campaignTotal(c);
  if (total <= 0) return 0;
  return Math.min(100, Math.round((c.emails_sent / total) * 100));
}

export { queueEta } from '../../lib/queueEta';

export { monthUsage, type UsageLevel } from '../../lib/monthUsage';

export const recipientStatusLabels: Record<RecipientStatus, { label: string; color: BadgeProps['color'] }> = {
  pending: { label: 'Pending', color: 'grey' },
  sending: { label: 'Sending', color: 'blue' },
  sent: { label: 'Sent', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  skipped: { label: 'Skipped', color: 'grey' },
  unknown: { label: 'Unknown', color: 'severity-medium' },
};

/** An AI campaign stores a genre key ('techno'); an HTML one free text ('Electronic'). */
export const genreLabel = (genre: string) => (genreLabels as Partial<Record<string, string>>)[genre] ?? genre;

/** A date and time in the reader's locale and zone, or '—' when there is none. */
/** A time of day as the reader's locale writes it ('14:05', '2:05 PM'). */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleTimeString(undefined, { timeStyle: 'short' });
}

/** When the next email goes, only while that is still ahead: a time already past reads '—'. */
export function nextSendText(iso: string | null | undefined, now: number): string {
  return iso && Date.parse(iso) > now ? formatDateTime(iso) : '—';
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Where the detail page's statistics start: the card's 'Stats' button links here. */
export const STATISTICS_ANCHOR = 'statistics';
export const campaignPath = (id: string) => `/dashboard/campaigns/${encodeURIComponent(id)}`;

/** Beyond the spec: why a campaign paused itself, and what the artist does about it. */
export const mailboxDisconnectedText = 'Sending paused because your Gmail connection stopped working. Reconnect your mailbox in Settings, then resume sending.';

/**
 * Beyond the spec: a campaign the sender paused at the plan's monthly limit (after a downgrade, or the
 * month's emails used). It goes on by itself (an upgrade wakes the sender, or the next Pacific month); the
 * card says why it is paused, the detail page what next.
 */
export const monthlyLimitPauseTexts = {
  header: 'Monthly plan limit reached',
  card: "Paused at your plan's monthly limit",
  /** `resetDay`: 'December 1' (schema/sendingLimits.ts resetDayWords of the status's month.resets_at); null before the status is read. */
  detail: (resetDay: string | null) =>
    `Sending paused: no sending capacity left this month. Your plan's limit resets on ${resetDay ?? 'the 1st (Pacific Time)'}; sending goes on by itself then, or as soon as you upgrade your plan.`,
} as const;
