import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import {
  contactListInputSchema,
  draftInputSchema,
  emailUpdateSchema,
  generatePreviewSchema,
  htmlCampaignDefaults,
  recipientPreviewRequestSchema,
  templateInputSchema,
  composeMessages,
  type Campaign,
  type SavedContactList,
} from '../../schema/api/campaigns';
import { normaliseEmail, type Contact, type Unsubscribe } from '../../schema/api/contacts';
import { NO_FOLLOW_UPS } from '../../schema/api/followUpValues';
import { genreLabels } from '../../schema/api/options';
import type { Profile } from '../../schema/api/profile';
import type { CampaignTemplate } from '../../schema/api/templates';
import type { TrackSummary } from '../../schema/api/tracks';
import {
  campaignMessages,
  sendBatchRequestSchema,
  sendCheckRequestSchema,
  sendingMessages,
  type SendBatchResult,
  type SendingStatus,
} from '../../schema/api/sending';
import { gatewayMessages } from '../../schema/api/serverMessages';
import { renderEmail } from '../../schema/email/render';
import { newDraftCampaign } from '../../lambdas/core/campaign';
import { campaignPreSendInput, leftOutByCheck, preSendWarnings } from '../../lambdas/core/preSendCheck';
import { pitchKey } from '../../lambdas/core/sender';
import { immediateRefusal, nextPacificMidnight, nextPacificMonthStart, pacificDate, pacificMonth, sendingCapacity } from '../../schema/sendingLimits';
import type { DraftContent } from '../../lambdas/ports';
import { systemTemplates } from '../../lib/local/seed/templates';
import { createApiClient } from '../../web/src/api/client';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { fakeContactsServer, json } from './contacts-fake-server';
import { fakePipelineServer, fakeTrack, pipelineEntry, type FakeTrack } from './pipeline-fake-server';
import { makeFakeAuth, makeProfile, renderApp, testUser } from './helpers';

/** Toasts are looked up the same way on every page (helpers.tsx). */
export { toast } from './helpers';

/**
 * An in-memory compose API with the contract of schema/api/campaigns.ts, on top of the contacts fake
 * (contacts and unsubscribes): drafts (generate-preview, create, replace, PATCH), per-recipient previews
 * rendered by the real renderEmail, templates (the seeded system ones plus the user's) and saved lists.
 * The "writer" writes a short email naming the track and the contact's label, with [CONTACT_NAME].
 */

type Failure = { status: number; message: string } | null;

const BASE = Date.UTC(2025, 2, 1, 9, 0);

export const ARTIST_NAME = 'Robin Example';

/** The fake writer's email for a contact: what a test expects to see after Generate Email Preview. */
export function writtenEmail(track: { track_name: string; track_url: string; genre: string }, contact: Contact) {
  const genre = (genreLabels as Partial<Record<string, string>>)[track.genre] ?? track.genre;
  return {
    subject: `"${track.track_name}" for ${contact.label_name ?? contact.name}`,
    body: `Hi [CONTACT_NAME],\n\nMy new ${genre} track "${track.track_name}" might suit ${contact.label_name ?? 'you'}.\nListen: ${track.track_url}\n\nBest,\n${ARTIST_NAME}`,
  };
}

export function savedList(i: number, overrides: Partial<SavedContactList> = {}): SavedContactList {
  return {
    id: `list-${i}`,
    name: `List ${i}`,
    contact_types: ['Label', 'DJ', 'Fan'],
    selected_genres: [],
    contact_ids: [],
    created_at: new Date(BASE - i * 60_000).toISOString(),
    ...overrides,
  };
}

export interface ComposeServerOptions {
  contacts?: Contact[];
  unsubscribes?: Unsubscribe[];
  lists?: SavedContactList[];
  userTemplates?: CampaignTemplate[];
  sending?: Partial<FakeSending>;
  /** The artist's uploaded tracks ('My tracks', GET /api/tracks). */
  tracks?: TrackSummary[];
  /** Tracks already pitched (their boards, GET /api/pipeline/tracks/{trackKey}): see pitchedTrack. */
  pitchedTracks?: FakeTrack[];
  /** The server's clock at the start (ms; default 1 March 2025, 09:00 UTC): the status's Pacific day and month. */
  startsAt?: number;
}

/** The fake's mailbox and usage (GET /api/sending/status is computed from it); tests change it freely. */
export interface FakeSending {
  mailboxConnected: boolean;
  dailyLimit: number;
  sentToday: number;
  /** null: unlimited (the Label plan). */
  monthLimit: number | null;
  monthUsed: number;
  /** Contacts who already received this track from this artist (skipped unless send_again). */
  alreadySent: Set<string>;
  /** The pace (60: 60 an hour), the user's next slot, and their other campaigns' emails still to go. */
  intervalSeconds: number;
  nextSendAt: string | null;
  queuedAhead: number;
  /** How long a follow-up's day lasts (the server's FOLLOW_UP_DAY_SECONDS; a day by default). */
  followUpDaySeconds: number;
  /** Contacts who passed on this track ('Not for us'), with when (issue 28 §2). */
  passed: Map<string, string>;
}

export function fakeComposeServer({
  contacts = [],
  unsubscribes = [],
  lists = [],
  userTemplates = [],
  sending: sendingOptions = {},
  tracks = [],
  pitchedTracks = [],
  startsAt = BASE,
}: ComposeServerOptions = {}) {
  const base = fakeContactsServer(contacts, unsubscribes);
  const pipeline = fakePipelineServer(pitchedTracks);
  const sending: FakeSending = {
    mailboxConnected: true,
    dailyLimit: 500,
    sentToday: 0,
    monthLimit: 500,
    monthUsed: 0,
    alreadySent: new Set(),
    intervalSeconds: 60,
    nextSendAt: null,
    queuedAhead: 0,
    followUpDaySeconds: 86_400,
    passed: new Map(),
    ...sendingOptions,
  };
  /** Per campaign, each queued batch's answer by its batch_start: a batch sent again gets it again. */
  const sentBatches = new Map<string, Map<number, SendBatchResult>>();
  const campaigns = new Map<string, Campaign>();
  const templates = new Map<string, CampaignTemplate>(userTemplates.map((t) => [t.id, t]));
  const savedLists: SavedContactList[] = [...lists];
  const fail: Record<
    'generate' | 'create' | 'replace' | 'patch' | 'recipientPreview' | 'templates' | 'saveTemplate' | 'deleteTemplate' | 'lists' | 'saveList' | 'sendCheck',
    Failure
  > & {
    /** The send batch starting at `batch_start` fails `times` times (default once), then succeeds. */
    sendBatch: { batch_start: number; status: number; message: string; times?: number } | null;
  } = {
    sendCheck: null,
    sendBatch: null,
    generate: null,
    create: null,
    replace: null,
    patch: null,
    recipientPreview: null,
    templates: null,
    saveTemplate: null,
    deleteTemplate: null,
    lists: null,
    saveList: null,
  };
  const hold: { generate?: Promise<void>; recipientPreview?: Promise<void>; sendCheck?: Promise<void>; sendBatch: Partial<Record<number, Promise<void>>> } = {
    sendBatch: {},
  };
  let clock = startsAt;
  let sequence = 0;
  const now = () => new Date((clock += 1000)).toISOString();
  const nextId = (prefix: string) => `${prefix}-${++sequence}`;

  function campaignOf(id: string, content: DraftContent, createdAt?: string): Campaign {
    const time = now();
    return { ...newDraftCampaign(id, content, createdAt ?? time), updated_at: time };
  }

  function sendingStatus(): SendingStatus {
    const at = new Date(clock);
    const capacity = sendingCapacity({
      dailyLimit: sending.dailyLimit,
      sentToday: sending.sentToday,
      monthlyLimit: sending.monthLimit,
      usedThisMonth: sending.monthUsed,
      requested: 1,
    });
    return {
      mailbox: {
        connected: sending.mailboxConnected,
        email: sending.mailboxConnected ? 'robin@example.com' : null,
        account_type: sending.dailyLimit === 2000 ? 'workspace' : 'free',
        daily_limit: sending.dailyLimit,
      },
      today: { date: pacificDate(at), sent: sending.sentToday, remaining: capacity.todayRemaining, resets_at: nextPacificMidnight(at).toISOString() },
      month: {
        month: pacificMonth(at),
        used: sending.monthUsed,
        limit: sending.monthLimit,
        remaining: capacity.monthRemaining,
        resets_at: nextPacificMonthStart(at).toISOString(),
      },
      available_now: capacity.availableNow,
      next_send_at: sending.nextSendAt,
      send_interval_seconds: sending.intervalSeconds,
    };
  }

  const unsubscribedEmails = () => new Set([...base.unsubs.values()].map((u) => normaliseEmail(u.contact_email)));

  const invalid = (issues: { message: string }[]) => json({ message: issues[0]?.message ?? 'Invalid request' }, 400);

  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(init.body as string) : undefined;
    const { pathname } = new URL(input as string, 'http://localhost');

    if (pathname.startsWith('/api/contacts') || pathname.startsWith('/api/unsubscribes')) return base.fetchImpl(input, init);
    if (pathname.startsWith('/api/pipeline/')) return (await pipeline.route(method, pathname, body)) ?? json({ message: gatewayMessages.notFound }, 404);

    if (method === 'POST' && pathname === '/api/campaigns/generate-preview') {
      await hold.generate;
      if (fail.generate) return json({ message: fail.generate.message }, fail.generate.status);
      const parsed = generatePreviewSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const { campaign_id, track, contact_id, total_recipients } = parsed.data;
      const contact = base.contacts.get(contact_id);
      if (!contact) return json({ message: composeMessages.contactNotFound }, 404);
      const previous = campaign_id === undefined ? undefined : campaigns.get(campaign_id);
      if (campaign_id !== undefined && !previous) return json({ message: composeMessages.campaignNotFound }, 404);
      const email = writtenEmail(track, contact);
      const campaign = campaignOf(
        previous?.id ?? nextId('campaign'),
        {
          mode: 'ai',
          ...track,
          email_subject: email.subject,
          email_body: email.body,
          personalised_by_writer: true,
          preview_contact_id: contact.id,
          total_recipients,
        },
        previous?.created_at,
      );
      campaigns.set(campaign.id, campaign);
      return json(campaign, 201);
    }

    if (method === 'POST' && pathname === '/api/campaigns') {
      if (fail.create) return json({ message: fail.create.message }, fail.create.status);
      const parsed = draftInputSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const campaign = campaignOf(nextId('campaign'), draftContent(parsed.data));
      campaigns.set(campaign.id, campaign);
      return json(campaign, 201);
    }

    // The Campaigns list (summaries, newest first), for the flows that go from it back to Compose.
    if (method === 'GET' && pathname === '/api/campaigns') {
      return json({ campaigns: [...campaigns.values()].reverse().map(({ email_body: _body, ...summary }) => summary) });
    }

    const one = /^\/api\/campaigns\/([^/]+)$/.exec(pathname);
    if (one) {
      const current = campaigns.get(decodeURIComponent(one[1]!));
      if (method === 'GET') return current ? json(current) : json({ message: composeMessages.campaignNotFound }, 404);
      if (method === 'PUT') {
        if (fail.replace) return json({ message: fail.replace.message }, fail.replace.status);
        if (!current) return json({ message: composeMessages.campaignNotFound }, 404);
        const parsed = draftInputSchema.safeParse(body);
        if (!parsed.success) return invalid(parsed.error.issues);
        const campaign = campaignOf(current.id, draftContent(parsed.data), current.created_at);
        campaigns.set(campaign.id, campaign);
        return json(campaign);
      }
      if (method === 'PATCH') {
        if (fail.patch) return json({ message: fail.patch.message }, fail.patch.status);
        if (!current) return json({ message: composeMessages.campaignNotFound }, 404);
        const parsed = emailUpdateSchema.safeParse(body);
        if (!parsed.success) return invalid(parsed.error.issues);
        const campaign: Campaign = { ...current, ...parsed.data, personalised_by_writer: false, updated_at: now() };
        campaigns.set(campaign.id, campaign);
        return json(campaign);
      }
    }

    const preview = /^\/api\/campaigns\/([^/]+)\/recipient-preview$/.exec(pathname);
    if (preview && method === 'POST') {
      await hold.recipientPreview;
      if (fail.recipientPreview) return json({ message: fail.recipientPreview.message }, fail.recipientPreview.status);
      const campaign = campaigns.get(decodeURIComponent(preview[1]!));
      if (!campaign) return json({ message: composeMessages.campaignNotFound }, 404);
      const parsed = recipientPreviewRequestSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const contact = base.contacts.get(parsed.data.contact_id);
      if (!contact) return json({ message: composeMessages.contactNotFound }, 404);
      // A follow-up step: 'Re:' the first subject, the artist's text or a fixed stand-in for the AI's nudge.
      const step = parsed.data.follow_up;
      const email = step
        ? { subject: `Re: ${campaign.email_subject}`, body: step.step.text ?? `A short nudge (follow-up ${step.number}) about [TRACK_NAME].` }
        : { subject: campaign.email_subject, body: campaign.email_body };
      const rendered = renderEmail(
        email,
        {
          recipient: { name: contact.name, email: contact.email, label_name: contact.label_name },
          track: { track_name: campaign.track_name, track_url: campaign.track_url, genre: campaign.genre },
          artistName: ARTIST_NAME,
        },
        { unsubscribeUrl: 'https://trackpitch.example/unsubscribe?token=preview' },
      );
      return json({ ...rendered, contact_id: contact.id, passed_at: sending.passed.get(contact.id) ?? null });
    }

    if (method === 'GET' && pathname === '/api/templates') {
      if (fail.templates) return json({ message: fail.templates.message }, fail.templates.status);
      const byName = (a: CampaignTemplate, b: CampaignTemplate) => a.name.localeCompare(b.name);
      return json({ templates: [...[...systemTemplates].sort(byName), ...[...templates.values()].sort(byName)] });
    }
    if (method === 'POST' && pathname === '/api/templates') {
      if (fail.saveTemplate) return json({ message: fail.saveTemplate.message }, fail.saveTemplate.status);
      const parsed = templateInputSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const template: CampaignTemplate = {
        id: nextId('template'),
        name: parsed.data.name,
        description: 'Your saved template',
        subject_template: parsed.data.subject,
        body_template: parsed.data.body,
        ai_tone: parsed.data.ai_tone,
        is_system_template: false,
      };
      templates.set(template.id, template);
      return json(template, 201);
    }
    if (method === 'GET' && pathname === '/api/sending/status') return json(sendingStatus());

    const check = /^\/api\/campaigns\/([^/]+)\/send-check$/.exec(pathname);
    if (check && method === 'POST') {
      await hold.sendCheck;
      if (fail.sendCheck) return json({ message: fail.sendCheck.message }, fail.sendCheck.status);
      const campaign = campaigns.get(decodeURIComponent(check[1]!));
      if (!campaign) return json({ message: campaignMessages.notFound }, 404);
      if (campaign.status !== 'draft') return json({ message: sendingMessages.notADraft }, 409);
      const parsed = sendCheckRequestSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const gone = unsubscribedEmails();
      let unsubscribed = 0;
      let unknown = 0;
      let alreadySent = 0;
      const alreadySentIds: string[] = [];
      for (const id of parsed.data.contact_ids) {
        const contact = base.contacts.get(id);
        if (!contact) unknown++;
        else if (gone.has(normaliseEmail(contact.email))) unsubscribed++;
        else if (sending.alreadySent.has(id)) {
          alreadySent++;
          alreadySentIds.push(id);
        }
      }
      return json({
        selected: parsed.data.contact_ids.length,
        unsubscribed,
        already_sent: alreadySent,
        unknown,
        queued_ahead: sending.queuedAhead,
        status: sendingStatus(),
        follow_up_day_seconds: sending.followUpDaySeconds,
        already_sent_ids: alreadySentIds,
        passed: parsed.data.contact_ids.flatMap((id) => {
          const at = sending.passed.get(id);
          return at ? [{ contact_id: id, passed_at: at }] : [];
        }),
      });
    }

    const send = /^\/api\/campaigns\/([^/]+)\/send$/.exec(pathname);
    if (send && method === 'POST') {
      const parsed = sendBatchRequestSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const request = parsed.data;
      await hold.sendBatch[request.batch_start];
      const failing = fail.sendBatch;
      if (failing && failing.batch_start === request.batch_start) {
        const times = (failing.times ?? 1) - 1;
        fail.sendBatch = times > 0 ? { ...failing, times } : null;
        return json({ message: failing.message }, failing.status);
      }
      const campaign = campaigns.get(decodeURIComponent(send[1]!));
      if (!campaign) return json({ message: campaignMessages.notFound }, 404);
      const batches = sentBatches.get(campaign.id) ?? new Map<number, SendBatchResult>();
      const before = batches.get(request.batch_start);
      if (before) return json(before);
      if (!sending.mailboxConnected) return json({ message: sendingMessages.mailboxRequired }, 400);
      if (batches.size === 0 && campaign.status !== 'draft') return json({ message: sendingMessages.notADraft }, 409);
      const status = sendingStatus();
      if (request.mode === 'immediate' && status.available_now === 0) {
        return json(
          { message: immediateRefusal({ todayRemaining: status.today.remaining, monthRemaining: status.month.remaining }, request.total, new Date(clock)) },
          400,
        );
      }
      const gone = unsubscribedEmails();
      const result = { queued: 0, skipped_unsubscribed: 0, skipped_already_sent: 0, skipped_unknown: 0 };
      for (const id of request.contact_ids) {
        const contact = base.contacts.get(id);
        if (!contact) result.skipped_unknown++;
        else if (gone.has(normaliseEmail(contact.email))) result.skipped_unsubscribed++;
        // As the server: insisting on one who passed sends them the track again.
        else if (sending.alreadySent.has(id) && !request.send_again && !(sending.passed.has(id) && request.send_anyway_ids.includes(id))) {
          result.skipped_already_sent++;
        }
        // As the server: the pre-send check leaves out a form-only label or a pass the artist did not insist on.
        else if (!leftOutByServerCheck(campaign, contact, sending.passed.get(id) ?? null, request.send_anyway_ids)) result.queued++;
      }
      const time = now();
      const scheduled = request.mode === 'scheduled';
      const updated: Campaign = {
        ...campaign,
        status: scheduled ? 'scheduled' : 'sending',
        sending_status: 'sending',
        total_recipients: request.total,
        total_queued: campaign.total_queued + result.queued,
        send_after: scheduled ? status.today.resets_at : null,
        next_send_at: campaign.next_send_at ?? (scheduled ? status.today.resets_at : time),
        started_sending_at: campaign.started_sending_at ?? (scheduled ? null : time),
        // The first batch sets the send window, as the server does.
        send_window: batches.size === 0 ? (request.send_window ?? null) : campaign.send_window,
        follow_ups: batches.size === 0 ? (request.follow_ups ?? NO_FOLLOW_UPS) : campaign.follow_ups,
        updated_at: time,
      };
      campaigns.set(updated.id, updated);
      const { email_body: _body, ...summary } = updated;
      const answer: SendBatchResult = { ...result, campaign: summary };
      batches.set(request.batch_start, answer);
      sentBatches.set(updated.id, batches);
      return json(answer);
    }

    const template = /^\/api\/templates\/([^/]+)$/.exec(pathname);
    if (template && method === 'DELETE') {
      if (fail.deleteTemplate) return json({ message: fail.deleteTemplate.message }, fail.deleteTemplate.status);
      if (!templates.delete(decodeURIComponent(template[1]!))) return json({ message: composeMessages.templateNotFound }, 404);
      return new Response(null, { status: 204 });
    }

    if (method === 'GET' && pathname === '/api/tracks') return json({ tracks });

    if (method === 'GET' && pathname === '/api/contact-lists') {
      if (fail.lists) return json({ message: fail.lists.message }, fail.lists.status);
      return json({ lists: [...savedLists].sort((a, b) => (a.created_at < b.created_at ? 1 : -1)) });
    }
    if (method === 'POST' && pathname === '/api/contact-lists') {
      if (fail.saveList) return json({ message: fail.saveList.message }, fail.saveList.status);
      const parsed = contactListInputSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const list: SavedContactList = { id: nextId('list'), ...parsed.data, created_at: now() };
      savedLists.push(list);
      return json(list, 201);
    }

    return json({ message: gatewayMessages.notFound }, 404);
  });

  const calls = (method: string, path: string) =>
    fetchImpl.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') === method && new URL(url as string, 'http://localhost').pathname === path);
  const bodies = (method: string, path: string) => calls(method, path).map(([, init]) => JSON.parse(init?.body as string) as Record<string, unknown>);

  return { contacts: base.contacts, unsubs: base.unsubs, campaigns, templates, savedLists, sending, fail, hold, fetchImpl, calls, bodies, pipeline };
}

/**
 * A track already pitched to these contacts, its board keyed as the server keys it (core sender
 * pitchKey); `passed`: contact id → when they answered 'Not for us'.
 */
export function pitchedTrack(
  track: { track_name: string; track_url: string | null },
  pitchedTo: readonly Contact[],
  passed: Readonly<Record<string, string>> = {},
): FakeTrack {
  const board = fakeTrack(track.track_name, pitchKey(track), []);
  return {
    track: { ...board.track, track_url: track.track_url },
    entries: pitchedTo.map((contact, i) => {
      const passedAt = passed[contact.id] ?? null;
      // A contact's id is its address's, as the server's board has it.
      const who = { address_id: contact.id, contact_id: contact.id, name: contact.name, email: contact.email };
      return pipelineEntry(i, passedAt ? { ...who, stage: 'answered', answer: 'not_for_us', answered_at: passedAt, passed_at: passedAt } : who);
    }),
  };
}

/** The stored content of a draft from the API's input (HTML blanks take the spec §5 defaults). */
function draftContent(input: ReturnType<typeof draftInputSchema.parse>) {
  const track = input.track;
  const html = input.mode === 'html';
  return {
    mode: input.mode,
    track_name: track.track_name || (html ? htmlCampaignDefaults.track_name : ''),
    track_url: track.track_url || null,
    genre: track.genre || (html ? htmlCampaignDefaults.genre : ''),
    mood: track.mood,
    bpm: track.bpm,
    description: track.description || (html ? htmlCampaignDefaults.description : ''),
    ai_tone: track.ai_tone,
    email_length: track.email_length,
    email_subject: input.email_subject,
    email_body: input.email_body,
    personalised_by_writer: false,
    preview_contact_id: null,
    total_recipients: input.total_recipients,
    track_id: track.track_id,
    allow_download: track.allow_download,
    listen_days: track.listen_days,
    released: track.released,
  };
}

/** The send route's pre-send check (lambdas/http/sending.ts), on the fake's campaign and contact. */
const leftOutByServerCheck = (campaign: Campaign, contact: Contact, passedAt: string | null, sendAnyway: readonly string[]) =>
  leftOutByCheck(preSendWarnings(campaignPreSendInput(campaign, { policy: contact.demo_policy, passedAt })), sendAnyway.includes(contact.id));

export type ComposeServer = ReturnType<typeof fakeComposeServer>;

export function renderCompose(server: ComposeServer, profile: Partial<Profile> = {}, path = '/dashboard/compose') {
  // A stored flag keeps the guided tour from opening over the page.
  window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
  const api = createApiClient(() => Promise.resolve('user-id-token'), server.fetchImpl);
  return renderApp(path, {
    auth: makeFakeAuth({ user: testUser, profile: makeProfile({ artist_name: ARTIST_NAME, ...profile }), api }),
  });
}

// ---------------------------------------------------------------------------------------------------
// Page helpers shared by the compose tests.

/** Opens /dashboard/compose and waits for the contacts to be listed (or the empty state). */
export async function openCompose(server: ComposeServer, profile: Partial<Profile> = {}) {
  const result = renderCompose(server, profile);
  await screen.findByRole('heading', { name: 'Compose Campaign', level: 1 });
  await waitFor(() => expect(screen.queryByText('Loading contacts...')).toBeNull());
  return result;
}

/** The Cloudscape form field whose label reads `label` exactly. */
export function formField(label: string) {
  const field = createWrapper()
    .findAllFormFields()
    .find((candidate) => candidate.findLabel()?.getElement().textContent === label);
  if (!field) throw new Error(`no form field '${label}'`);
  return field;
}

export function chooseOption(label: string, value: string) {
  const select = formField(label).findControl()!.findSelect()!;
  act(() => select.openDropdown());
  act(() => select.selectOptionByValue(value));
}

export const validTrack = {
  track_name: 'Midnight Drive',
  track_url: 'https://soundcloud.com/robin/midnight-drive',
  genre: 'techno',
  description: 'A driving peak-time techno track with a warm bassline.',
} as const;

/** Types into a field in one go (a keystroke at a time re-renders the whole page each time: slow in jsdom). */
export async function enter(user: UserEvent, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

/** Fills the AI mode's required track fields. */
export async function fillTrack(user: UserEvent, track: Partial<Record<keyof typeof validTrack, string>> = validTrack) {
  if (track.track_name !== undefined) await enter(user, screen.getByRole('textbox', { name: 'Track Name *' }), track.track_name);
  if (track.track_url !== undefined) await enter(user, screen.getByRole('textbox', { name: 'Track URL *' }), track.track_url);
  if (track.genre !== undefined) chooseOption('Genre *', track.genre);
  if (track.description !== undefined) await enter(user, screen.getByRole('textbox', { name: 'Track Description *' }), track.description);
}

/** A recipient row's checkbox, found by the contact's address. */
export const recipientBox = (email: string) => screen.getByRole('checkbox', { name: new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });

/** The card (Cloudscape Container) whose header starts with `title`. */
export function containerOf(title: string): HTMLElement {
  const container = createWrapper()
    .findAllContainers()
    .find((candidate) => candidate.findHeader()?.getElement().textContent.startsWith(title));
  if (!container) throw new Error(`no '${title}' card`);
  return container.getElement();
}

/** A ready uploaded track as 'My tracks' lists it. */
export function uploadedTrack(id: string, name: string): TrackSummary {
  return {
    id,
    name,
    format: 'wav',
    content_type: 'audio/wav',
    duration_seconds: 95,
    sample_rate: 44100,
    size_bytes: 4000,
    created_at: new Date(BASE).toISOString(),
  };
}

/** Chooses an uploaded track for the campaign with 'My tracks' → its radio → 'Use track'. */
export async function chooseMyTrack(user: UserEvent, name: string) {
  await user.click(screen.getByRole('button', { name: 'My tracks' }));
  const dialog = await screen.findByRole('dialog', { name: 'My tracks' });
  await user.click(await within(dialog).findByRole('radio', { name }));
  await user.click(within(dialog).getByRole('button', { name: 'Use track' }));
  await screen.findByText(new RegExp(`^${name} · `));
}
