/**
 * Campaign drafts of the Compose screen (spec §2 Compose, §4 Email preview and HTML mode, §7): the AI
 * preview (the writer writes the first recipient's email, then the draft is created or rewritten), drafts
 * written by hand or in HTML (sanitized on the server), the preview card's Save, and the email each
 * selected recipient will get. The user id only comes from the verified token: another user's campaign
 * or contact is not found under the caller's partition (404). Logs carry ids, never email text.
 */
import type { z } from 'zod';
import type { Campaign, campaignListSchema, DraftBulkDeleteResult, RecipientPreview } from '../../schema/api/campaigns';
import { composeMessages, composeSpecTexts } from '../../schema/api/campaignValues';
import type { Contact } from '../../schema/api/contacts';
import type { Profile } from '../../schema/api/profile';
import { artistName } from '../../schema/api/artist';
import { isAddressId } from '../core/contacts';
import { followUpEmail } from '../core/followUpEmail';
import {
  artistDetails,
  draftContent,
  LISTEN_LINK_STAND_IN,
  previewDraftContent,
  recipientEmail,
  storedBody,
  withRecipientPlaceholders,
  writerRequestFor,
} from '../core/compose';
import { aiPreviewRefusal, aiPreviewWindows, secondsUntil } from '../core/allowance';
import { WriterError, type WriterFailure } from '../core/errors';
import { isUlid } from '../core/ids';
import { pitchKey } from '../core/sender';
import { campaignSummary } from '../core/queueing';
import type { Identity } from '../core/profile';
import { listenMessages } from '../../schema/api/listenValues';
import type {
  AllowanceStore,
  CampaignStore,
  Clock,
  ContactStore,
  DraftWriteResult,
  EmailWriter,
  HtmlSanitizer,
  PitchStore,
  ProfileStore,
  TrackStore,
  WrittenEmailStore,
} from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { campaignsDeps } from '../composition/campaigns';
import { HttpError, httpApi, json, knownId, lazyHandler, logger, noContent, parse, parseForm, type FormRule } from './api';
import { ensureProfile } from './ensureProfile';

export interface CampaignsDeps {
  campaigns: CampaignStore;
  contacts: ContactStore;
  profiles: ProfileStore;
  writer: EmailWriter;
  sanitizer: HtmlSanitizer;
  written: WrittenEmailStore;
  /** The caller's tracks: a draft's track_id must be one of their own ready tracks (issue 16). */
  tracks: Pick<TrackStore, 'get'>;
  /** The plan's AI preview allowance: each writer call takes a place before the model is called. */
  allowances: AllowanceStore;
  /** Who passed on a track: the recipient preview says so for the pre-send check (issue 28 §2). */
  pitches: PitchStore;
  clock: Clock;
}

/**
 * The per-recipient preview's unsubscribe link: a stand-in that goes nowhere. The real per-recipient
 * link is made when the campaign is sent.
 */
export const PREVIEW_UNSUBSCRIBE_URL = '#';

/** How each writer failure is answered: nothing was saved, and the person can simply try again. */
const writerFailureAnswer: Record<WriterFailure, { status: number; message: string }> = {
  busy: { status: 503, message: composeMessages.writerBusy },
  timeout: { status: 504, message: composeMessages.writerTimeout },
  invalid_reply: { status: 502, message: composeMessages.invalidPreviewFormat },
  no_listen_link: { status: 502, message: composeMessages.writerLeftOutListenLink },
  failed: { status: 502, message: composeMessages.writerFailed },
};

/** Runs the writer; a WriterError becomes its answer, logged with its reason and cause (never the email). */
async function withWriter<T>(write: () => Promise<T>, log: Record<string, unknown>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof WriterError)) throw error;
    const cause = error.cause instanceof Error ? error.cause.name : undefined;
    logger.warn('The writer gave no email', { ...log, reason: error.reason, error: error.message, cause });
    const answer = writerFailureAnswer[error.reason];
    throw new HttpError(answer.status, answer.message);
  }
}

/** A campaign id (of the path or a body): campaign ids are ULIDs. */
const campaignIdOf = (id: string | undefined) => knownId(id, isUlid, composeMessages.campaignNotFound);

/** A contact id of a body: contact ids are addressIds. */
const contactIdOf = (id: string) => knownId(id, isAddressId, composeMessages.contactNotFound);

const trackNeeds: FormRule[] = [
  { path: ['track', 'track_name'], message: composeMessages.previewNeeds },
  { path: ['track', 'description'], message: composeMessages.previewNeeds },
];
const emailNeeds: FormRule[] = [
  { path: ['email_subject'], message: composeMessages.subjectAndBodyRequired },
  { path: ['email_body'], message: composeMessages.subjectAndBodyRequired },
];
const generateNeeds: FormRule[] = [
  ...trackNeeds,
  { path: ['contact_id'], message: composeMessages.previewNeeds },
  { path: ['total_recipients'], message: composeMessages.previewNeeds },
];

/**
 * The request schemas, loaded by the first write: the list and one campaign (what most pages read)
 * validate no body, so a container serving only those never loads zod.
 */
const campaignSchemas = () => import('../../schema/api/campaigns');

/** A draft (POST, PUT): AI mode needs the track's name and description; both modes a subject and body. */
async function parseDraft(body: unknown) {
  const mode = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).mode : undefined;
  return parseForm((await campaignSchemas()).draftInputSchema, body, {
    required: mode === 'ai' ? [...trackNeeds, ...emailNeeds] : emailNeeds,
    specTexts: composeSpecTexts,
  });
}

/** The campaign a draft write left, or the answer for why there is none. */
function savedDraft(result: DraftWriteResult): Campaign {
  if (result.outcome === 'not_found') throw new HttpError(404, composeMessages.campaignNotFound);
  if (result.outcome === 'not_draft') throw new HttpError(409, composeMessages.notDraft);
  return result.campaign;
}

export const makeHandler = ({ campaigns, contacts, profiles, writer, sanitizer, written, tracks, allowances, pitches, clock }: CampaignsDeps) => {
  /** A draft's uploaded track: the caller's own and ready, else a 400 (another user's id reads as none of theirs). */
  const ownTrack = async <T extends { track: { track_id: string | null } }>(userId: string, input: T): Promise<T> => {
    const trackId = input.track.track_id;
    if (trackId === null) return input;
    const track = isUlid(trackId) ? await tracks.get(userId, trackId) : undefined;
    if (track?.status !== 'ready') throw new HttpError(400, listenMessages.trackNotFound, 'track_not_found');
    return input;
  };

  /** The artist's name and links come from the profile: create it on first use, as other pages do. */
  const profileOf = (identity: Identity) => ensureProfile(profiles, identity, clock.now());

  /**
   * The writer as one user's previews use it: each call (not a stored email reused) first takes a place
   * in the plan's hour and month, and a full one is a 429 saying when more are available.
   */
  const meteredWriter = (userId: string, profile: Pick<Profile, 'tier'>): EmailWriter => ({
    write: async (request) => {
      const now = clock.now();
      const taken = await allowances.take({ userId, kind: 'ai_preview' }, aiPreviewWindows(profile.tier, now));
      if (!taken.allowed) {
        logger.info('AI preview allowance used up', { window: taken.full.name, most: taken.full.most });
        throw new HttpError(429, aiPreviewRefusal(taken.full, now), 'ai_preview_allowance', { 'retry-after': String(secondsUntil(taken.full, now)) });
      }
      return writer.write(request);
    },
  });

  const contactOf = async (userId: string, id: string): Promise<Contact> => {
    const contact = await contacts.get(userId, contactIdOf(id));
    if (!contact) throw new HttpError(404, composeMessages.contactNotFound);
    return contact;
  };

  const draftOf = async (userId: string, id: string): Promise<Campaign> => {
    const campaign = await campaigns.get(userId, id);
    if (!campaign) throw new HttpError(404, composeMessages.campaignNotFound);
    if (campaign.status !== 'draft') throw new HttpError(409, composeMessages.notDraft);
    return campaign;
  };

  return httpApi('campaigns', {
    /** Summaries: the list never carries the email bodies (up to 100 KB each). */
    'GET /api/campaigns': async ({ identity }) =>
      json(200, { campaigns: (await campaigns.list(identity.userId)).map(campaignSummary) } satisfies z.infer<typeof campaignListSchema>),

    /** A draft from an email the artist wrote, took from a template or built in HTML mode ('Create Preview'). */
    'POST /api/campaigns': async ({ identity, body }) => {
      const input = await ownTrack(identity.userId, await parseDraft(body));
      const campaign = await campaigns.createDraft(identity.userId, draftContent(input, sanitizer), clock.now());
      logger.info('Draft campaign created', { campaignId: campaign.id, mode: campaign.mode });
      return json(201, campaign satisfies Campaign);
    },

    /**
     * 'Generate Email Preview': the writer writes the first selected recipient's email; only once it
     * has, their name becomes [CONTACT_NAME] and the draft is created (201) or, with campaign_id, that
     * draft is rewritten (200). A writer failure saves nothing. The draft is checked before the writer
     * runs, so a wrong campaign_id does not cost a model call, and again in the write itself.
     */
    'POST /api/campaigns/generate-preview': async ({ identity, body }) => {
      const userId = identity.userId;
      const request = await ownTrack(
        userId,
        parseForm((await campaignSchemas()).generatePreviewSchema, body, { required: generateNeeds, specTexts: composeSpecTexts }),
      );
      const campaignId = request.campaign_id === undefined ? undefined : campaignIdOf(request.campaign_id);
      const [contact, profile] = await Promise.all([
        contactOf(userId, request.contact_id),
        profileOf(identity),
        campaignId === undefined ? undefined : draftOf(userId, campaignId),
      ]);
      // The draft is made inside withWriter: an email that lost the listen link is the writer's failure too.
      const content = await withWriter(
        async () =>
          previewDraftContent(
            request.track,
            withRecipientPlaceholders(
              await meteredWriter(userId, profile).write(writerRequestFor(request.track, contact, artistDetails(profile))),
              contact,
              artistName(profile),
            ),
            contact,
            request.total_recipients,
            sanitizer,
          ),
        { contactId: contact.id, ...(campaignId ? { campaignId } : {}) },
      );
      if (campaignId === undefined) {
        const campaign = await campaigns.createDraft(userId, content, clock.now());
        logger.info('AI preview written, draft created', { campaignId: campaign.id });
        return json(201, campaign satisfies Campaign);
      }
      const campaign = savedDraft(await campaigns.updateDraft(userId, campaignId, content, clock.now()));
      logger.info('AI preview rewritten', { campaignId });
      return json(200, campaign satisfies Campaign);
    },

    'GET /api/campaigns/{id}': async ({ identity, params }) => {
      const campaign = await campaigns.get(identity.userId, campaignIdOf(params.id));
      if (!campaign) throw new HttpError(404, composeMessages.campaignNotFound);
      return json(200, campaign satisfies Campaign);
    },

    /** Replaces a draft's content (mode, track, email, recipients count) with a written email. */
    'PUT /api/campaigns/{id}': async ({ identity, params, body }) => {
      const id = campaignIdOf(params.id);
      const input = await ownTrack(identity.userId, await parseDraft(body));
      const campaign = savedDraft(await campaigns.updateDraft(identity.userId, id, draftContent(input, sanitizer), clock.now()));
      logger.info('Draft campaign replaced', { campaignId: id, mode: campaign.mode });
      return json(200, campaign satisfies Campaign);
    },

    /**
     * The preview card's Save (spec §4): the subject and body the artist edited. From now on every
     * recipient gets this email with the placeholders filled, not one the writer writes for them.
     */
    'PATCH /api/campaigns/{id}': async ({ identity, params, body }) => {
      const id = campaignIdOf(params.id);
      const update = parseForm((await campaignSchemas()).emailUpdateSchema, body, { required: emailNeeds, specTexts: composeSpecTexts });
      const userId = identity.userId;
      // The mode decides whether the body is HTML to sanitize; the write checks the draft again.
      const draft = await draftOf(userId, id);
      const campaign = savedDraft(
        await campaigns.updateDraft(
          userId,
          id,
          { email_subject: update.email_subject, email_body: storedBody(update.email_body, draft.mode, sanitizer), personalised_by_writer: false },
          clock.now(),
        ),
      );
      logger.info('Draft email saved', { campaignId: id });
      return json(200, campaign satisfies Campaign);
    },

    /** A draft the artist no longer wants (the Campaigns page's Delete): 204; a sent campaign is 409, kept. */
    'DELETE /api/campaigns/{id}': async ({ identity, params }) => {
      const id = campaignIdOf(params.id);
      const result = await campaigns.deleteDraft(identity.userId, id);
      if (result.outcome === 'not_found') throw new HttpError(404, composeMessages.campaignNotFound);
      if (result.outcome === 'not_draft') throw new HttpError(409, composeMessages.notDraftDelete);
      logger.info('Draft campaign deleted', { campaignId: id });
      return noContent();
    },

    /** Several drafts at once: those that are the caller's drafts are deleted, the rest left as they are. */
    'POST /api/campaigns/bulk-delete': async ({ identity, body }) => {
      const { ids } = parse((await campaignSchemas()).draftBulkDeleteSchema, body);
      const deleted: string[] = [];
      // One at a time: each is its own conditional delete, then its partition's items.
      for (const id of new Set(ids.filter(isUlid))) {
        if ((await campaigns.deleteDraft(identity.userId, id)).outcome === 'deleted') deleted.push(id);
      }
      if (deleted.length === 0) throw new HttpError(404, composeMessages.campaignNotFound);
      logger.info('Draft campaigns deleted', { count: deleted.length });
      return json(200, { deleted } satisfies DraftBulkDeleteResult);
    },

    /** The email one selected recipient will get, exactly as sending renders it (a stand-in unsubscribe link). */
    'POST /api/campaigns/{id}/recipient-preview': async ({ identity, params, body }) => {
      const id = campaignIdOf(params.id);
      const { contact_id, follow_up } = parse((await campaignSchemas()).recipientPreviewRequestSchema, body);
      const userId = identity.userId;
      const [campaign, contact, profile] = await Promise.all([campaigns.get(userId, id), contactOf(userId, contact_id), profileOf(identity)]);
      if (!campaign) throw new HttpError(404, composeMessages.campaignNotFound);
      const rendering = {
        artist: artistDetails(profile),
        writer: meteredWriter(userId, profile),
        sanitizer,
        written,
        unsubscribeUrl: PREVIEW_UNSUBSCRIBE_URL,
        // An uploaded track: the stand-in shows where each recipient's own listen link goes, as sending puts it.
        ...(campaign.track_id ? { trackUrl: LISTEN_LINK_STAND_IN } : {}),
        now: clock.now(),
      };
      const emailShown = withWriter(
        async () => {
          const first = await recipientEmail({ ...rendering, campaign, contact });
          if (!follow_up) return first;
          // A step is written from the first email this recipient gets, as the sender writes it from the one sent.
          const recipient = { contact, subject: first.subject, text: first.text };
          return followUpEmail({ ...rendering, campaign, recipient, step: follow_up.step, stepNumber: follow_up.number });
        },
        { campaignId: id, contactId: contact.id },
      );
      const [rendered, { passed }] = await Promise.all([emailShown, pitches.pitchesOf(userId, pitchKey(campaign))]);
      return json(200, { contact_id: contact.id, ...rendered, passed_at: passed.get(contact.id) ?? null } satisfies RecipientPreview);
    },
  });
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(campaignsDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
