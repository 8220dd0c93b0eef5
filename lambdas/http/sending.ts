/**
 * The HTTP side of sending (spec §2 Compose dialogs, Campaigns, Campaign detail; §4 capacity and send
 * modes; §5 sending checks; §8 Sending and Campaigns texts; DESIGN §4): the sending status, the send
 * check before the capacity dialog, queueing a selection batch by batch, pause and resume, and a
 * campaign's emails. The pipeline (lambdas/workers/sender.ts) does the sending. The user id only comes
 * from the verified token: another user's campaign is not found under the caller's partition (404).
 * Logs carry ids and counts, never addresses or email text.
 */
import type { Campaign, CampaignSummary } from '../../schema/api/campaigns';
import { campaignLimits } from '../../schema/api/campaignValues';
import type { Contact } from '../../schema/api/contacts';
import type {
  CampaignEmail,
  CampaignEmailList,
  CampaignEmailContent,
  ContactEmailList,
  SendBatchResult,
  SendCheck,
  SendingStatus,
} from '../../schema/api/sending';
import { campaignMessages, SEND_BATCH_SIZE, sendingApiMessages, sendingMessages } from '../../schema/api/sendingValues';
import { trackMessages } from '../../schema/api/trackValues';
import { isAddressId } from '../core/contacts';
import { FOLLOW_UP_DAY_MS, followUpStepStates, followUpStepSummaries } from '../core/followUps';
import { isUlid } from '../core/ids';
import type { Identity } from '../core/profile';
import { campaignPreSendInput, leftOutByCheck, preSendWarnings } from '../core/preSendCheck';
import { allUnsubscribed, campaignSummary, capacityOf, eligibilityOf, emailsQueuedAhead, sendingStatus, sendStart, sortSelection } from '../core/queueing';
import { pitchKey } from '../core/sender';
import type {
  CampaignStore,
  Clock,
  ContactStore,
  ListedRecipient,
  PitchStore,
  ProfileStore,
  SendQueueStore,
  TrackingStore,
  TrackStore,
  UnsubscribeStore,
} from '../ports';
import { untrackedHtml } from '../core/tracking';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { sendingDeps } from '../composition/sending';
import { HttpError, httpApi, json, knownId, lazyHandler, logger, parseForm, type FormRule } from './api';
import { ensureProfile } from './ensureProfile';

export interface SendingDeps {
  campaigns: CampaignStore;
  contacts: ContactStore;
  profiles: ProfileStore;
  unsubscribes: UnsubscribeStore;
  sendQueue: SendQueueStore;
  /** Reads a sent email's token: its stored links turn the tracked HTML back into what the artist wrote. */
  tracking: Pick<TrackingStore, 'getToken'>;
  /** The track a campaign links to must still be there when it starts (never a dead listen link). */
  tracks: Pick<TrackStore, 'get'>;
  /** Who passed on a track: the pre-send check skips them unless the artist insists (issue 28 §2). */
  pitches: PitchStore;
  clock: Clock;
  /** The pace (config SEND_INTERVAL_SECONDS, 60 s by default): the status tells it so the web's times are true. */
  intervalMs: number;
  /**
   * A follow-up day (config FOLLOW_UP_DAY_SECONDS, a day by default), as the sender counts it: a waiting
   * step's due time, and the send check tells it so the dialog counts the steps due this month.
   */
  followUpDayMs?: number;
}

export { sendingApiMessages };

/** The spec's texts: a body problem worded with one of them is answered with it alone. */
const sendingSpecTexts: ReadonlySet<string> = new Set(
  Object.values(sendingMessages as Record<string, unknown>).filter((text): text is string => typeof text === 'string'),
);

const selectionNeeds: FormRule[] = [{ path: ['contact_ids'], message: sendingMessages.selectContacts }];

/**
 * The request schemas, loaded by the first send check or batch: the status, pause, resume and emails
 * routes validate no body, so a container serving only those never loads zod.
 */
const sendingSchemas = () => import('../../schema/api/sending');

/** A campaign id of the path: campaign ids are ULIDs. */
const campaignIdOf = (id: string | undefined) => knownId(id, isUlid, campaignMessages.notFound);

/** A position of the path: a non-negative whole number written plainly, within the most recipients a campaign has. */
function positionOf(value: string | undefined): number {
  const position = knownId(value, (text) => /^(0|[1-9]\d{0,5})$/.test(text), sendingApiMessages.emailNotFound);
  const number = Number(position);
  if (number >= campaignLimits.recipients) throw new HttpError(404, sendingApiMessages.emailNotFound);
  return number;
}

/**
 * The store counts a batch as covering positions [batch_start, batch_start + SEND_BATCH_SIZE) of the
 * selection (how far the selection is queued is all it keeps), so every batch but the last is full.
 */
const isWholeBatch = ({ batch_start, total, contact_ids }: { batch_start: number; total: number; contact_ids: readonly string[] }) =>
  batch_start % SEND_BATCH_SIZE === 0 && batch_start < total && contact_ids.length === Math.min(SEND_BATCH_SIZE, total - batch_start);

const blank = (text: string | null | undefined) => !text || text.trim() === '';

/**
 * A recipient as the detail page lists it: who, what became of it, opens and clicks, and its follow-up
 * steps (`followUps`: the campaign's, whose condition says which of its engagement stops them); no content.
 */
function campaignEmail(record: ListedRecipient, followUps: Campaign['follow_ups'], followUpDayMs: number): CampaignEmail {
  return {
    position: record.position,
    recipient_name: record.recipient_name ?? null,
    recipient_email: record.recipient_email,
    // A recipient item without its contact (a partial or older write) lists with no zone rather than failing the list.
    time_zone: (record.contact as Partial<Contact> | undefined)?.time_zone ?? null,
    status: record.status,
    subject: record.subject ?? null,
    sent_at: record.sent_at ?? null,
    opened_at: record.opened_at ?? null,
    open_count: record.open_count,
    machine_open_count: record.machine_open_count,
    clicked_at: record.clicked_at ?? null,
    click_count: record.click_count,
    listen_max_percent: record.listen_max_percent,
    play_count: record.play_count,
    download_count: record.download_count,
    listen_seconds: record.listen_seconds,
    first_listened_at: record.first_listened_at,
    last_listened_at: record.last_listened_at,
    answer: record.answer,
    answer_note: record.answer_note,
    answered_at: record.answered_at,
    replied_at: record.replied_at ?? null,
    detail: record.detail ?? null,
    attempts: record.attempts,
    retry_at: record.status === 'pending' ? (record.retry_at ?? null) : null,
    follow_ups: followUpStepStates(record, followUps.steps, followUpDayMs, followUps.condition),
  };
}

export const makeHandler = ({
  campaigns,
  contacts,
  profiles,
  unsubscribes,
  sendQueue,
  tracking,
  tracks,
  pitches,
  clock,
  intervalMs,
  followUpDayMs = FOLLOW_UP_DAY_MS,
}: SendingDeps) => {
  /** An email of `campaign` as the detail page shows it. */
  const emailOf = (record: ListedRecipient, campaign: Campaign) => campaignEmail(record, campaign.follow_ups, followUpDayMs);

  const profileOf = (identity: Identity) => ensureProfile(profiles, identity, clock.now());

  const campaignOf = async (userId: string, id: string): Promise<Campaign> => {
    const campaign = await campaigns.get(userId, id);
    if (!campaign) throw new HttpError(404, campaignMessages.notFound);
    return campaign;
  };

  /** Resume and Retry failed: the user's campaign (another user's id is the same 404), and a connected mailbox to send with. */
  const ownCampaignWithMailbox = async (identity: Identity, rawId: string | undefined) => {
    const id = campaignIdOf(rawId);
    const userId = identity.userId;
    const [, profile] = await Promise.all([campaignOf(userId, id), profileOf(identity)]);
    if (!profile.gmail_connected) throw new HttpError(400, sendingMessages.mailboxRequired);
    return { id, userId };
  };

  const unsubscribedIds = async (userId: string) => new Set((await unsubscribes.list(userId)).map((unsubscribe) => unsubscribe.id));

  /** Only an address id can be a contact: another string is unknown without a read. */
  const contactIdsOf = (ids: readonly string[]) => ids.filter(isAddressId);

  /**
   * A batch the store says was queued before is a retry only when its contacts are in the queue: the
   * store keeps how far the selection got, not who was in it, and another tab's selection sent to the
   * same campaign is not a retry. Rare (a lost answer), so reading the queue here costs nothing usually.
   */
  const allQueued = async (campaignId: string, contactIds: readonly string[]) => {
    if (contactIds.length === 0) return true;
    const queued = new Set((await sendQueue.listRecipients(campaignId)).map((recipient) => recipient.contact.id));
    return contactIds.every((contactId) => queued.has(contactId));
  };

  /** Marks (`at`) or unmarks (null) a sent email of the user's campaign as replied, and answers the email. */
  const markReplied = async (userId: string, params: { id?: string; position?: string }, at: Date | null) => {
    const id = campaignIdOf(params.id);
    const position = positionOf(params.position);
    const campaign = await campaignOf(userId, id);
    const result = await sendQueue.markReplied(id, position, at, { userId, trackKey: pitchKey(campaign) });
    if (result.outcome === 'not_found') throw new HttpError(404, sendingApiMessages.emailNotFound);
    if (result.outcome === 'not_sent') throw new HttpError(409, sendingApiMessages.repliedNotSent);
    logger.info(at ? 'Email marked replied' : 'Email unmarked replied', { campaignId: id, position });
    return json(200, emailOf(result.recipient, campaign) satisfies CampaignEmail);
  };

  const summaryAnswer = (campaign: Campaign | CampaignSummary) => json(200, campaignSummary(campaign) satisfies CampaignSummary);

  return httpApi('sending', {
    'GET /api/sending/status': async ({ identity }) => {
      const now = clock.now();
      const [profile, usage] = await Promise.all([profileOf(identity), sendQueue.usage(identity.userId, now)]);
      return json(200, sendingStatus(profile, usage, now, intervalMs) satisfies SendingStatus);
    },

    /** Before the capacity dialog: who of the selection would not be queued, and the capacity left. */
    'POST /api/campaigns/{id}/send-check': async ({ identity, params, body }) => {
      const id = campaignIdOf(params.id);
      const { contact_ids } = parseForm((await sendingSchemas()).sendCheckRequestSchema, body, { required: selectionNeeds, specTexts: sendingSpecTexts });
      const userId = identity.userId;
      const now = clock.now();
      const [campaign, profile, usage, unsubscribed, existing, all] = await Promise.all([
        campaignOf(userId, id),
        profileOf(identity),
        sendQueue.usage(userId, now),
        unsubscribedIds(userId),
        contacts.existingIds(userId, contactIdsOf(contact_ids)),
        campaigns.list(userId),
      ]);
      const trackKey = pitchKey(campaign);
      const { pitched, passed } = await pitches.pitchesOf(userId, trackKey);
      const facts = { unsubscribed, contacts: existing, pitched, sendAgain: false };
      const sorted = sortSelection(contact_ids, facts);
      const selected = new Set(contact_ids);
      return json(200, {
        selected: new Set(contact_ids).size,
        unsubscribed: sorted.unsubscribed,
        already_sent: sorted.alreadySent,
        unknown: sorted.unknown,
        queued_ahead: emailsQueuedAhead(all, id, now),
        status: sendingStatus(profile, usage, now, intervalMs),
        follow_up_day_seconds: followUpDayMs / 1000,
        already_sent_ids: [...selected].filter((contactId) => eligibilityOf(contactId, facts) === 'already_sent'),
        passed: [...selected].flatMap((contactId) => {
          const at = passed.get(contactId);
          return at ? [{ contact_id: contactId, passed_at: at }] : [];
        }),
      } satisfies SendCheck);
    },

    /**
     * Queues one batch of the selection. The first batch of a draft checks the preview, the mailbox and,
     * for immediate mode, the capacity, then turns the draft into a sending (or scheduled) campaign; the
     * store queues a batch only once (a retry is answered without queueing anything again).
     */
    'POST /api/campaigns/{id}/send': async ({ identity, params, body }) => {
      const id = campaignIdOf(params.id);
      const request = parseForm((await sendingSchemas()).sendBatchRequestSchema, body, { required: selectionNeeds, specTexts: sendingSpecTexts });
      if (!isWholeBatch(request)) throw new HttpError(400, sendingApiMessages.batchShape);
      const userId = identity.userId;
      const now = clock.now();
      const firstBatch = request.batch_start === 0;
      const [campaign, profile, unsubscribed, found] = await Promise.all([
        campaignOf(userId, id),
        firstBatch ? profileOf(identity) : undefined,
        unsubscribedIds(userId),
        contacts.getMany(userId, contactIdsOf(request.contact_ids)),
      ]);
      if (blank(campaign.email_subject) || blank(campaign.email_body)) throw new HttpError(400, sendingMessages.previewFirst);
      // A first batch sent again after the draft started is a retry: the store answers it, no checks again.
      // The profile (read for a first batch only) when this batch starts the campaign.
      const startingProfile = firstBatch && campaign.status === 'draft' ? profile : undefined;
      const starting = startingProfile !== undefined;
      if (starting && !startingProfile.gmail_connected) throw new HttpError(400, sendingMessages.mailboxRequired);
      // A draft whose uploaded track was deleted since it was chosen would send dead listen links.
      if (starting && campaign.track_id !== null && (await tracks.get(userId, campaign.track_id))?.status !== 'ready') {
        throw new HttpError(400, trackMessages.campaignTrackDeleted, 'track_deleted');
      }

      const byId = new Map<string, Contact>(found.map((contact) => [contact.id, contact]));
      const trackKey = pitchKey(campaign);
      const { pitched, passed } = await pitches.pitchesOf(userId, trackKey);
      // The pre-send check holds here too (issue 28 §2): a form-only label or a contact who passed on the
      // track is left out unless the artist ticked "Send anyway" for them, whatever the client did. One who
      // passed was pitched the track, so insisting sends them the track again, them alone.
      const sendAnyway = new Set(request.send_anyway_ids);
      const sendAgainIds = new Set([...sendAnyway].filter((contactId) => passed.has(contactId)));
      const selection = sortSelection(request.contact_ids, {
        unsubscribed,
        contacts: new Set(byId.keys()),
        pitched,
        sendAgain: request.send_again,
        sendAgainIds,
      });
      const checked = selection.eligible.filter((contactId) => {
        const contact = byId.get(contactId);
        const input = campaignPreSendInput(campaign, { policy: contact?.demo_policy, passedAt: passed.get(contactId) ?? null });
        return !leftOutByCheck(preSendWarnings(input), sendAnyway.has(contactId));
      });
      const skippedByCheck = selection.eligible.length - checked.length;
      const sorted = { ...selection, eligible: checked };
      const wholeSelection = firstBatch && request.contact_ids.length >= request.total;
      if (starting && wholeSelection && allUnsubscribed(selection)) throw new HttpError(400, sendingMessages.allUnsubscribed);

      let sendAfter = campaign.send_after ? new Date(campaign.send_after) : now;
      if (starting) {
        // The decision is made once, on the first batch. Later batches may skip more, so what this batch
        // skipped is the best count of the emails requested that is known now.
        const requested = request.total - (request.contact_ids.length - sorted.eligible.length);
        const usage = await sendQueue.usage(userId, now);
        const start = sendStart({ mode: request.mode, capacity: capacityOf(startingProfile, usage, requested), requested, now });
        if (start.outcome === 'insufficient') throw new HttpError(400, start.message);
        sendAfter = start.sendAfter;
      }

      const result = await sendQueue.queueBatch(userId, {
        campaignId: id,
        batchStart: request.batch_start,
        total: request.total,
        contacts: sorted.eligible.flatMap((contactId) => byId.get(contactId) ?? []), // eligible ids are all in byId
        sendAfter,
        now,
        sendAgain: request.send_again,
        sendAgainIds,
        ...(request.follow_ups ? { followUps: request.follow_ups } : {}),
        sendWindow: request.send_window,
      });
      if (result.outcome === 'not_found') throw new HttpError(404, campaignMessages.notFound);
      const refused = () => new HttpError(409, firstBatch ? sendingMessages.notADraft : sendingApiMessages.batchOutOfOrder);
      // A draft refused its first batch only because the mailbox went away meanwhile.
      if (result.outcome === 'conflict' && firstBatch && result.campaign.status === 'draft') throw new HttpError(400, sendingMessages.mailboxRequired);
      if (result.outcome === 'conflict') throw refused();
      if (result.outcome === 'already_queued' && !(await allQueued(id, sorted.eligible))) throw refused();
      const queued = result.outcome === 'queued' ? result.queued : sorted.eligible.length;
      logger.info(result.outcome === 'queued' ? 'Batch queued' : 'Batch was queued before', {
        campaignId: id,
        batchStart: request.batch_start,
        mode: request.mode,
        queued,
        skipped: request.contact_ids.length - sorted.eligible.length,
        skippedByCheck,
      });
      return json(200, {
        queued,
        skipped_unsubscribed: sorted.unsubscribed,
        skipped_already_sent: sorted.alreadySent,
        skipped_unknown: sorted.unknown,
        campaign: campaignSummary(result.campaign),
      } satisfies SendBatchResult);
    },

    'POST /api/campaigns/{id}/pause': async ({ identity, params }) => {
      const id = campaignIdOf(params.id);
      const result = await sendQueue.pause(identity.userId, id, clock.now());
      if (result.outcome === 'not_found') throw new HttpError(404, campaignMessages.notFound);
      if (result.outcome === 'conflict') throw new HttpError(409, sendingApiMessages.notSending);
      logger.info('Campaign paused', { campaignId: id });
      return summaryAnswer(result.campaign);
    },

    /** Sending needs the mailbox: without one, the campaign stays paused. Another user's id is 404 first. */
    'POST /api/campaigns/{id}/resume': async ({ identity, params }) => {
      const { id, userId } = await ownCampaignWithMailbox(identity, params.id);
      const result = await sendQueue.resume(userId, id, clock.now());
      if (result.outcome === 'not_found') throw new HttpError(404, campaignMessages.notFound);
      // Still paused after a refused resume: the mailbox was disconnected meanwhile.
      if (result.outcome === 'conflict' && result.campaign.sending_status === 'paused') throw new HttpError(400, sendingMessages.mailboxRequired);
      if (result.outcome === 'conflict') throw new HttpError(409, sendingApiMessages.notPaused);
      logger.info('Campaign resumed', { campaignId: id });
      return summaryAnswer(result.campaign);
    },

    /** Retry failed: the emails that failed after their attempts go back in the queue; refusals stay. */
    'POST /api/campaigns/{id}/retry-failed': async ({ identity, params }) => {
      const { id, userId } = await ownCampaignWithMailbox(identity, params.id);
      const result = await sendQueue.retryFailed(userId, id, clock.now());
      if (result.outcome === 'not_found') throw new HttpError(404, campaignMessages.notFound);
      if (result.outcome === 'none') throw new HttpError(409, sendingApiMessages.nothingToRetry);
      if (result.outcome === 'conflict') throw new HttpError(409, sendingApiMessages.notCompleted);
      logger.info('Failed emails queued again', { campaignId: id, queued: result.queued });
      return summaryAnswer(result.campaign);
    },

    /** The emails and each follow-up step counted over them: one Query of the campaign's recipients. */
    'GET /api/campaigns/{id}/emails': async ({ identity, params }) => {
      const id = campaignIdOf(params.id);
      const campaign = await campaignOf(identity.userId, id);
      const emails = (await sendQueue.listRecipients(id)).map((record) => emailOf(record, campaign));
      const followUps = followUpStepSummaries(
        campaign.follow_ups.steps,
        emails.map((email) => email.follow_ups),
      );
      return json(200, { emails, follow_ups: followUps } satisfies CampaignEmailList);
    },

    'GET /api/campaigns/{id}/emails/{position}': async ({ identity, params }) => {
      const id = campaignIdOf(params.id);
      const position = positionOf(params.position);
      const campaign = await campaignOf(identity.userId, id);
      const record = await sendQueue.getRecipient(id, position);
      if (!record) throw new HttpError(404, sendingApiMessages.emailNotFound);
      // The artist's own view of the email must not count as an open or a click: pixel out, links back.
      const token = record.html && record.token ? await tracking.getToken(record.token) : undefined;
      const html = record.html && token ? untrackedHtml(record.html, token) : (record.html ?? null);
      return json(200, { ...emailOf(record, campaign), html, text: record.text ?? null } satisfies CampaignEmailContent);
    },

    /** The artist's "Replied" mark (gmail.send cannot read replies): on a sent email of their own campaign. */
    'PUT /api/campaigns/{id}/emails/{position}/replied': async ({ identity, params }) => markReplied(identity.userId, params, clock.now()),
    'DELETE /api/campaigns/{id}/emails/{position}/replied': async ({ identity, params }) => markReplied(identity.userId, params, null),

    /** The emails sent to one of the user's contacts, for its card (another user's contact id is the same 404). */
    'GET /api/contacts/{id}/emails': async ({ identity, params }) => {
      const contactId = knownId(params.id, isAddressId, sendingApiMessages.contactNotFound);
      const [contact, emails] = await Promise.all([contacts.get(identity.userId, contactId), sendQueue.emailsSentTo(identity.userId, contactId)]);
      if (!contact) throw new HttpError(404, sendingApiMessages.contactNotFound);
      return json(200, { emails } satisfies ContactEmailList);
    },
  });
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(sendingDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
