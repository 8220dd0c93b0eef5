/**
 * One follow-up step sent (issue 27 §1; DESIGN §14), as the sender sends a first email: claimed first (the
 * stop rules, the pace and the limits checked in the claim's transaction), then written, handed to the
 * mailbox in the first email's thread, and recorded. A failure after the request may have left is never
 * retried: the step's claim goes stale and its outcome is recorded unknown.
 */
import { MetricNames, type MetricName } from '../../schema/metrics';
import { artistDetails } from '../core/compose';
import { newEmailToken } from '../core/emailToken';
import { followUpEmail } from '../core/followUpEmail';
import type { FollowUpDecision } from '../core/followUpSender';
import { listenPageUrl } from '../core/listen';
import { backoffMs, emailTokenFor, MAX_ATTEMPTS, outgoingEmail } from '../core/sender';
import { firstEmailOf } from '../core/thread';
import { unsubscribePageUrl } from '../core/tracking';
import { deliver } from './delivery';
import type { SenderDeps, TickOutcome } from './sender';

type SendDecision = Extract<FollowUpDecision, { kind: 'follow_up_send' }>;

export function makeFollowUpSender(deps: SenderDeps, count: (name: MetricName) => void) {
  const { store, secrets, appUrl } = deps;
  const newToken = deps.tokens ?? newEmailToken;

  /** 'continue': the claim found the step changed (a stop event, a pause); read again. */
  return async function sendFollowUp(userId: string, tickDueAt: string, decision: SendDecision, now: Date): Promise<TickOutcome | 'continue'> {
    const { cursor, item, campaign, recipient, profile, mailbox, dailyLimit, monthlyLimit, slot, nextDueAt } = decision;
    const step = campaign.follow_ups.steps[item.step - 1];
    if (!step) {
      // The campaign's steps are fixed when it starts: a step it does not have is dropped, never sent.
      await store.settleFollowUp(userId, { item, outcome: null });
      return 'continue';
    }
    const refreshToken = await secrets.open(mailbox.sealedRefreshToken, { userId });
    const token = newToken();
    const claimed = await store.claimFollowUp(userId, {
      tickDueAt,
      now,
      item,
      token: { ...emailTokenFor({ userId, campaign, recipient, profile, token, now }), step: item.step, track_key: item.track_key },
      condition: campaign.follow_ups.condition,
      dailyLimit,
      monthlyLimit,
      tier: profile.tier,
      slot,
      nextDueAt,
    });
    if (!claimed) return 'continue';

    const base = { item, token, claimedAt: now, now };
    const retryLater = async (message: string): Promise<TickOutcome> => {
      const attempts = item.attempts + 1;
      if (attempts >= MAX_ATTEMPTS) {
        await store.recordFollowUp(userId, { ...base, kind: 'failed', detail: message });
        count(MetricNames.EmailsFailed);
        return 'failed';
      }
      await store.recordFollowUp(userId, { ...base, kind: 'retry', attempts, retryAt: new Date(now.getTime() + backoffMs(attempts)) });
      return 'retrying';
    };

    // In the first email's thread (its Gmail thread, In-Reply-To and References), when it was recorded.
    const replyingTo = firstEmailOf(recipient);
    return deliver({
      deps,
      count,
      now,
      dailyLimitRefusals: cursor.daily_limit_refusals,
      credentials: { refreshToken, mailboxEmail: mailbox.email },
      write: () =>
        followUpEmail({
          campaign,
          recipient,
          step,
          stepNumber: item.step,
          artist: artistDetails(profile),
          writer: deps.writer,
          sanitizer: deps.sanitizer,
          written: deps.written,
          unsubscribeUrl: unsubscribePageUrl(appUrl, token),
          ...(campaign.track_id ? { trackUrl: listenPageUrl(appUrl, token) } : {}),
          now,
        }),
      writeFailure: 'The follow-up could not be written.',
      outgoing: (rendered) =>
        outgoingEmail({ userId, campaign, recipient, profile, mailbox, rendered, token, appUrl, step: item.step, ...(replyingTo ? { replyingTo } : {}) }),
      log: { userId, campaignId: campaign.id, position: item.position, step: item.step },
      outcomes: {
        retryLater,
        dailyLimit: (until) => store.recordFollowUp(userId, { ...base, kind: 'daily_limit', until }),
        auth: () => store.recordFollowUp(userId, { ...base, kind: 'auth' }),
        rejected: (detail) => store.recordFollowUp(userId, { ...base, kind: 'failed', detail }),
        sent: (outgoing) =>
          store.recordFollowUp(userId, {
            ...base,
            kind: 'sent',
            messageId: outgoing.email.messageId,
            subject: outgoing.email.subject,
            html: outgoing.email.html,
            text: outgoing.email.text,
            links: outgoing.links,
          }),
      },
    });
  };
}
