/**
 * The sender (DESIGN §4; the pipeline design): fed by the FIFO queue, one tick per due user. For each
 * tick: read the user's view (one request), decide (lambdas/core/sender.ts), and either write the
 * decision (a wait, a skip, a completion) and maybe take the next step, or render the email, claim it
 * (one transaction), hand it to the mailbox, and record the outcome (one transaction).
 *
 * A DynamoDB error is thrown and the tick reported in batchItemFailures (SQS retries it; a retried tick
 * whose cursor has moved on is stale and dropped). A mailer failure other than a MailerError (a timeout
 * after the request left) leaves the recipient `sending`: the stale-claim rule records it unknown later,
 * and it is never sent again.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { MetricNames, MetricUnits, type MetricName } from '../../schema/metrics';
import { appMetrics } from '../adapters/metrics';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { senderDeps } from '../composition/sender';
import { artistDetails, recipientEmail } from '../core/compose';
import { addressId } from '../core/contacts';
import { queueLagSeconds, type SendTick } from '../core/dispatch';
import { newEmailToken } from '../core/emailToken';
import {
  backoffMs,
  decide,
  emailTokenFor,
  MAX_ATTEMPTS,
  MAX_POSTPONES,
  MAX_STEPS,
  outgoingEmail,
  pitchKey,
  recipientDetails,
  type Decision,
} from '../core/sender';
import { leavesSlotFree, withFollowUp } from '../core/followUpSender';
import { FOLLOW_UP_DAY_MS, followUpItemsFor } from '../core/followUps';
import { pitchSnapshotOf } from '../core/pipeline';
import { deliver } from './delivery';
import { makeFollowUpSender } from './followUpSend';
import { listenPageUrl } from '../core/listen';
import { unsubscribePageUrl } from '../core/tracking';
import type { AppMetrics, Clock, EmailWriter, HtmlSanitizer, Mailer, SecretBox, SenderHead, SenderStore, WrittenEmailStore } from '../ports';

export interface SenderDeps {
  store: SenderStore;
  mailer: Mailer;
  clock: Clock;
  secrets: SecretBox;
  writer: EmailWriter;
  sanitizer: HtmlSanitizer;
  written: WrittenEmailStore;
  /** New email tokens (default: 32 random bytes); replaceable for seeded tests. */
  tokens?: () => string;
  appUrl: string;
  intervalMs: number;
  /** A follow-up day (FOLLOW_UP_DAY_SECONDS locally makes it shorter for a demo). */
  followUpDayMs?: number;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  metrics?: AppMetrics;
}

/** How one tick ended (logged; the tests read it). */
export type TickOutcome =
  | 'stale'
  | 'idle'
  | 'waiting'
  | 'paused'
  | 'monthly_limit'
  | 'sent'
  | 'retrying'
  | 'failed'
  | 'daily_limit'
  | 'disconnected'
  | 'unknown'
  | 'steps_exhausted'
  | 'out_of_time';

/** The tick a message carries; anything else is dropped (redelivery could not make it valid). */
export function parseTick(body: string): SendTick | undefined {
  try {
    const value = JSON.parse(body) as Partial<SendTick>;
    if (typeof value.userId !== 'string' || value.userId === '' || typeof value.dueAt !== 'string') return undefined;
    const head = value.head;
    const validHead =
      head && typeof head.campaignId === 'string' && Number.isInteger(head.position)
        ? { campaignId: head.campaignId, position: head.position, ...(head.waited === true ? { waited: true } : {}) }
        : undefined;
    // A tick queued before ticks carried their slot: its due time is the slot it was listed at or before.
    const slot = typeof value.slot === 'string' && !Number.isNaN(Date.parse(value.slot)) ? value.slot : value.dueAt;
    return { userId: value.userId, dueAt: value.dueAt, slot, ...(validHead ? { head: validHead } : {}) };
  } catch {
    return undefined;
  }
}

export function makeProcessor(deps: SenderDeps) {
  const { store, clock, secrets, appUrl, intervalMs } = deps;
  const newToken = deps.tokens ?? newEmailToken;
  const count = (name: MetricName) => deps.metrics?.addMetric(name, MetricUnits[name], 1);
  const sendFollowUp = makeFollowUpSender(deps, count);

  /**
   * Claims, writes, sends and records one email. The claim comes first, so the writer is paid only for
   * a recipient that is sent to (DESIGN §13). 'continue': the claim found a reason not to send; read again.
   */
  async function send(userId: string, tickDueAt: string, decision: Extract<Decision, { kind: 'send' }>, now: Date): Promise<TickOutcome | 'continue'> {
    const { cursor, head, campaign, recipient, profile, mailbox, completes, dailyLimit, monthlyLimit, slot, nextDueAt } = decision;
    const { position } = head;
    // The token is made at the first claim and kept by retries, so a retried email's links stay the same.
    const token = recipient.token ?? newToken();
    // Opened before the claim: a key service that is down fails the tick without holding a claim.
    const refreshToken = await secrets.open(mailbox.sealedRefreshToken, { userId });
    const recipientAddress = addressId(userId, recipient.recipient_email);
    const trackKey = pitchKey(campaign);

    const claim = await store.claim(userId, {
      tickDueAt,
      now,
      head,
      token: { ...emailTokenFor({ userId, campaign, recipient, profile, token, now }), track_key: trackKey },
      addressId: recipientAddress,
      trackKey,
      sendAgain: recipient.send_again === true,
      pitch: pitchSnapshotOf(campaign, recipient),
      dailyLimit,
      monthlyLimit,
      tier: profile.tier,
      slot,
      nextDueAt,
    });
    if (claim === 'unsubscribed' || claim === 'already_pitched' || claim === 'duplicate') {
      const detail = { unsubscribed: recipientDetails.unsubscribed, already_pitched: recipientDetails.alreadyPitched, duplicate: recipientDetails.duplicate }[
        claim
      ];
      const mark = { status: 'skipped' as const, from: 'pending' as const, detail };
      await store.advance(userId, { tickDueAt, head, mark, completes, now });
      return 'continue';
    }
    // Something changed since the read (the cursor, the campaign, the plan): read again, nothing sent.
    if (claim === 'conflict') return 'continue';

    const base = { head, token, claimedAt: now, now };
    const pitched = { trackKey, addressId: recipientAddress };
    /** A failure worth trying again: the recipient waits alone (back-off), or fails for good after MAX_ATTEMPTS. */
    const retryLater = async (message: string): Promise<TickOutcome> => {
      const attempts = recipient.attempts + 1;
      if (attempts >= MAX_ATTEMPTS) {
        await store.record(userId, { ...base, ...pitched, kind: 'failed', attempts, detail: recipientDetails.gaveUp(message), retryable: true, completes });
        count(MetricNames.EmailsFailed);
        return 'failed';
      }
      const retryAt = new Date(now.getTime() + backoffMs(attempts));
      const hasWaiting = cursor.queue[campaign.id]?.waiting !== undefined;
      await store.record(userId, { ...base, kind: 'retry', attempts, retryAt, detail: message, hasWaiting });
      return 'retrying';
    };

    return deliver({
      deps,
      count,
      now,
      dailyLimitRefusals: cursor.daily_limit_refusals,
      credentials: { refreshToken, mailboxEmail: mailbox.email },
      write: () =>
        recipientEmail({
          campaign,
          contact: recipient.contact,
          artist: artistDetails(profile),
          writer: deps.writer,
          sanitizer: deps.sanitizer,
          written: deps.written,
          unsubscribeUrl: unsubscribePageUrl(appUrl, token),
          // An uploaded track: the recipient's own listen page, found by the email's token (issue 16).
          ...(campaign.track_id ? { trackUrl: listenPageUrl(appUrl, token) } : {}),
          now,
        }),
      writeFailure: 'The email could not be written.',
      outgoing: (rendered) => outgoingEmail({ userId, campaign, recipient, profile, mailbox, rendered, token, appUrl }),
      log: { userId, campaignId: campaign.id, position },
      outcomes: {
        retryLater,
        dailyLimit: (until) => store.record(userId, { ...base, kind: 'daily_limit', until }),
        // The mailbox is disconnected and the cursor left due at `now`: processTick goes on and pauses
        // every campaign on it from a fresh read (one resumed since this tick's read too).
        auth: () => store.record(userId, { ...base, kind: 'auth', queue: cursor.queue }),
        rejected: (message) =>
          store.record(userId, { ...base, ...pitched, kind: 'failed', attempts: recipient.attempts + 1, detail: message, retryable: false, completes }),
        sent: (outgoing, sent) =>
          store.record(userId, {
            ...base,
            ...pitched,
            kind: 'sent',
            messageId: outgoing.email.messageId,
            sent,
            contactId: recipient.contact.id,
            subject: outgoing.email.subject,
            html: outgoing.email.html,
            text: outgoing.email.text,
            links: outgoing.links,
            completes,
            nextDueAt,
            followUps: followUpItemsFor({
              steps: campaign.follow_ups.steps,
              campaignId: campaign.id,
              position,
              sentAt: now,
              addressId: recipientAddress,
              trackKey,
              dayMs: deps.followUpDayMs ?? FOLLOW_UP_DAY_MS,
            }),
          }),
      },
    });
  }

  /**
   * One tick: steps until an email goes out, the cursor waits, or the tick turns out stale. `hasTime`
   * says whether a send (the writer and the mailbox) still fits in the invocation: when it does not,
   * the tick ends with the cursor still due, and the next slot's tick goes on.
   */
  return async function processTick(tick: SendTick, hasTime: () => boolean = () => true): Promise<TickOutcome> {
    const { userId, slot } = tick;
    let dueAt = tick.dueAt;
    let hint: SenderHead | undefined = tick.head;
    let disconnected = false;
    let postponed = 0;
    for (let step = 0; step < MAX_STEPS; step++) {
      if (!hasTime()) return 'out_of_time';
      const now = clock.now();
      const view = await store.read(userId, now, hint);
      const tickTime = { dueAt, slot };
      const first = decide(view, tickTime, now, intervalMs);
      // Follow-up steps are read only when the slot is free of first emails (first emails go first).
      const followUp = leavesSlotFree(first) ? await store.readFollowUp(userId, now) : undefined;
      const decision = followUp ? withFollowUp(first, { ...view, followUp }, tickTime, now, intervalMs) : first;
      hint = undefined;
      switch (decision.kind) {
        case 'stale':
          return 'stale';
        case 'idle':
          await store.goIdle(userId, dueAt);
          return 'idle';
        case 'wait':
          await store.reschedule(userId, dueAt, decision.until);
          return 'waiting';
        case 'pause':
          await store.pauseAll(userId, { tickDueAt: dueAt, queue: view.cursor?.queue ?? {}, now });
          return disconnected ? 'disconnected' : 'paused';
        case 'hold':
          // Refused when the queue changed since the read (a pause, a resume, a new campaign): the tick stays due, and is read again.
          return (await store.holdAtMonthlyLimit(userId, { tickDueAt: dueAt, queue: view.cursor?.queue ?? {}, until: decision.until, now }))
            ? 'monthly_limit'
            : 'stale';
        case 'release':
          if (!(await store.releaseFromMonthlyLimit(userId, { tickDueAt: dueAt, queue: view.cursor?.queue ?? {}, now }))) return 'stale';
          continue;
        case 'complete':
          await store.complete(userId, { tickDueAt: dueAt, campaignId: decision.campaignId, now });
          continue;
        case 'defer':
          await store.defer(userId, { tickDueAt: dueAt, campaignId: decision.campaignId, until: decision.until });
          continue;
        case 'forget':
          await store.forget(userId, { tickDueAt: dueAt, campaignId: decision.campaignId });
          continue;
        case 'postpone': {
          const { head, until, hasWaiting, warning } = decision;
          if (warning)
            deps.logger?.warn('recipient time zone not usable; using the fallback', { userId, campaignId: head.campaignId, position: head.position, warning });
          await store.postpone(userId, { tickDueAt: dueAt, head, until, hasWaiting, detail: recipientDetails.outsideWindow });
          // A postponement takes no slot: it does not use up the tick's steps, within its own bound.
          if (++postponed < MAX_POSTPONES) step--;
          continue;
        }
        case 'advance': {
          const { head, mark, completes } = decision;
          const moved = await store.advance(userId, { tickDueAt: dueAt, head, completes, now, ...(mark ? { mark } : {}) });
          if (moved && mark?.status === 'unknown') count(MetricNames.EmailsUnknownOutcome);
          if (moved && !completes && !head.waited) hint = { campaignId: head.campaignId, position: head.position + 1 };
          continue;
        }
        case 'follow_up_stop':
          await store.settleFollowUp(userId, { item: decision.item, outcome: { state: 'stopped', at: now.toISOString(), reason: decision.reason } });
          continue;
        case 'follow_up_drop':
          await store.settleFollowUp(userId, { item: decision.item, outcome: null });
          continue;
        case 'follow_up_unknown':
          if (await store.settleFollowUp(userId, { item: decision.item, outcome: { state: 'unknown', at: now.toISOString(), token: decision.item.token } }))
            count(MetricNames.EmailsUnknownOutcome);
          continue;
        case 'follow_up_delay':
          await store.delayFollowUp(userId, { item: decision.item, until: decision.until });
          continue;
        case 'follow_up_send':
        case 'send': {
          if (decision.kind === 'send' && decision.warning) {
            deps.logger?.warn('recipient time zone not usable; using the fallback', {
              userId,
              campaignId: decision.head.campaignId,
              position: decision.head.position,
              warning: decision.warning,
            });
          }
          const outcome = decision.kind === 'send' ? await send(userId, dueAt, decision, now) : await sendFollowUp(userId, dueAt, decision, now);
          if (outcome === 'disconnected') {
            // The auth record left the cursor due at the claim's time: the next step pauses (no mailbox).
            dueAt = now.toISOString();
            disconnected = true;
            continue;
          }
          if (outcome !== 'continue') return outcome;
          continue;
        }
      }
    }
    // Bounded work per tick: the cursor is still due, so the next dispatcher run picks it up again.
    return 'steps_exhausted';
  };
}

/**
 * The SQS handler: ticks of different users in parallel, a user's ticks in order. When a tick fails,
 * it and every later tick of the same user are reported (FIFO order within a message group).
 */
/**
 * The time one send step may take (the writer's 20 s timeout, the mailbox, the writes): a step starts only
 * while this much of the invocation is left, so a tick never runs past the Lambda's timeout.
 */
export const SEND_STEP_MS = 30_000;

export function makeHandler(deps: SenderDeps) {
  const processTick = makeProcessor(deps);
  return async (event: SQSEvent, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<SQSBatchResponse> => {
    const endsAt = context ? Date.now() + context.getRemainingTimeInMillis() - SEND_STEP_MS : Number.POSITIVE_INFINITY;
    const hasTime = () => Date.now() < endsAt;
    const groups = new Map<string, SQSRecord[]>();
    for (const record of event.Records) {
      const group = record.attributes.MessageGroupId ?? record.messageId;
      groups.set(group, [...(groups.get(group) ?? []), record]);
    }
    const failures: string[] = [];
    await Promise.all(
      [...groups.values()].map(async (records) => {
        for (const [i, record] of records.entries()) {
          const tick = parseTick(record.body);
          if (!tick) {
            deps.logger?.warn('malformed tick dropped', { messageId: record.messageId });
            continue;
          }
          // Every tick taken up, whatever becomes of it: how far behind its slot the queue delivered it.
          deps.metrics?.addMetric(MetricNames.QueueLagSeconds, MetricUnits.QueueLagSeconds, queueLagSeconds(tick, deps.clock.now()));
          try {
            const outcome = await processTick(tick, hasTime);
            deps.logger?.info('tick', { userId: tick.userId, dueAt: tick.dueAt, outcome });
          } catch (error) {
            deps.logger?.error('tick failed', { userId: tick.userId, dueAt: tick.dueAt, error: String(error) });
            failures.push(...records.slice(i).map((r) => r.messageId));
            return;
          }
        }
      }),
    );
    deps.metrics?.publishStoredMetrics();
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

/** The sender over its own adapters for `config`: the Lambda's, or a local stack's ticker. */
export const handlerFor = (config: ServerConfig, observers: Pick<SenderDeps, 'logger' | 'metrics'> = {}) =>
  makeHandler({ ...senderDeps(config), ...observers });

/** The sender's Powertools logger and metrics (the Lambda's, and the local ticker's as in AWS). */
export const senderObservers = (): Pick<SenderDeps, 'logger' | 'metrics'> => ({
  logger: new Logger({ serviceName: 'trackpitch-sender' }),
  metrics: appMetrics(),
});

let built: ReturnType<typeof makeHandler> | undefined;
/** The Lambda entry: reads the environment once, on the first batch. */
export const handler = (event: SQSEvent, context: Context) => {
  built ??= handlerFor(readServerConfig(process.env), senderObservers());
  return built(event, context);
};
