import { vi } from 'vitest';
import { followUpStepSummaries } from '../../lambdas/core/followUps';
import { campaignSummarySchema, composeMessages, type Campaign, type CampaignSummary } from '../../schema/api/campaigns';
import { campaignMessages, sendingApiMessages, type CampaignEmail, type CampaignEmailContent, type SendingStatus } from '../../schema/api/sending';
import { gatewayMessages } from '../../schema/api/serverMessages';
import { createApiClient } from '../../web/src/api/client';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { buildCampaign } from '../fakes/builders';
import { json } from './contacts-fake-server';
import type { Profile } from '../../schema/api/profile';
import { makeFakeAuth, makeProfile, renderApp, testUser } from './helpers';

/**
 * An in-memory API for the Campaigns list and Campaign detail pages with the contracts of
 * schema/api/campaigns.ts and schema/api/sending.ts: GET /api/campaigns (summaries, no email body),
 * GET /api/campaigns/{id}, pause / resume (answer the summary), the sending status, a campaign's emails
 * and one email's content. Tests change `campaigns`, `emails` and `status` to move a campaign on. The
 * emails list counts the campaign's follow-up steps over the emails' `follow_ups` as the handler does.
 */

type Failure = { status: number; message: string } | null;

const BASE = Date.UTC(2025, 2, 1, 17, 0);
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

/** A draft campaign of an AI-written email about track `i`, moved on by `overrides`. */
export function campaign(i: number, overrides: Partial<Campaign> = {}): Campaign {
  return buildCampaign({
    id: `campaign-${i}`,
    mode: 'ai',
    track_name: `Track ${i}`,
    track_url: `https://soundcloud.com/robin/track-${i}`,
    genre: 'techno',
    mood: 'dark',
    bpm: 128,
    description: `Description of track ${i}`,
    email_subject: `Subject of track ${i}`,
    email_body: 'Hi [CONTACT_NAME], listen to this.',
    total_recipients: 10,
    created_at: at(i),
    updated_at: at(i),
    ...overrides,
  });
}

/** A campaign queued to `total` recipients that has sent `sent` so far and is still sending. */
export function sendingCampaign(i: number, total: number, sent: number, overrides: Partial<Campaign> = {}): Campaign {
  return campaign(i, {
    status: 'sending',
    sending_status: 'sending',
    total_recipients: total,
    total_queued: total,
    emails_sent: sent,
    started_sending_at: at(100),
    send_after: at(100),
    next_send_at: at(100 + sent + 1),
    ...overrides,
  });
}

export function sendingStatus(
  overrides: {
    month?: Partial<SendingStatus['month']>;
    today?: Partial<SendingStatus['today']>;
    mailbox?: Partial<SendingStatus['mailbox']>;
    next_send_at?: string | null;
    send_interval_seconds?: number;
  } = {},
): SendingStatus {
  const mailbox = { connected: true, email: 'robin@gmail.com', account_type: 'free' as const, daily_limit: 500, ...overrides.mailbox };
  const today = { date: '2025-03-01', sent: 12, remaining: mailbox.daily_limit - 12, resets_at: '2025-03-02T08:00:00.000Z', ...overrides.today };
  const month = { month: '2025-03', used: 120, limit: 500, remaining: 380, resets_at: '2025-04-01T07:00:00.000Z', ...overrides.month };
  return {
    mailbox,
    today,
    month,
    available_now: Math.min(today.remaining, month.remaining ?? today.remaining),
    next_send_at: overrides.next_send_at === undefined ? at(200) : overrides.next_send_at,
    send_interval_seconds: overrides.send_interval_seconds ?? 60,
  };
}

/** An email of a campaign at `position`, sent unless overridden; its content is a small HTML document. */
export function campaignEmail(position: number, overrides: Partial<CampaignEmailContent> = {}): CampaignEmailContent {
  const address = `person${position}@example.com`;
  return {
    position,
    recipient_name: `Person ${position}`,
    recipient_email: address,
    time_zone: null,
    status: 'sent',
    subject: `Hello Person ${position}`,
    sent_at: at(100 + position),
    opened_at: null,
    open_count: 0,
    machine_open_count: 0,
    clicked_at: null,
    click_count: 0,
    listen_max_percent: 0,
    play_count: 0,
    download_count: 0,
    listen_seconds: 0,
    first_listened_at: null,
    last_listened_at: null,
    answer: null,
    answer_note: null,
    answered_at: null,
    replied_at: null,
    detail: null,
    attempts: 0,
    retry_at: null,
    follow_ups: [],
    html: `<html><body><p>Hi Person ${position}, <a href="https://soundcloud.com/robin">listen</a></p></body></html>`,
    text: `Hi Person ${position}, listen: https://soundcloud.com/robin`,
    ...overrides,
  };
}

const summaryOf = (c: Campaign): CampaignSummary => campaignSummarySchema.parse(c);
const listItem = ({ html: _html, text: _text, ...email }: CampaignEmailContent): CampaignEmail => email;

export interface CampaignsServerOptions {
  campaigns?: Campaign[];
  emails?: Record<string, CampaignEmailContent[]>;
  status?: SendingStatus;
}

export function fakeCampaignsServer({ campaigns: initial = [], emails: initialEmails = {}, status = sendingStatus() }: CampaignsServerOptions = {}) {
  const campaigns = new Map(initial.map((c) => [c.id, c]));
  const emails = new Map(Object.entries(initialEmails));
  const state = { status };
  const fail: Record<'list' | 'get' | 'pause' | 'resume' | 'retry' | 'status' | 'emails' | 'email' | 'replied', Failure> = {
    list: null,
    get: null,
    pause: null,
    resume: null,
    retry: null,
    status: null,
    emails: null,
    email: null,
    replied: null,
  };
  const hold: { list?: Promise<void>; get?: Promise<void>; emails?: Promise<void>; email?: Promise<void>; replied?: Promise<void> } = {};
  // GET /api/campaigns/{id} is the campaigns handler's; pause, resume and the emails are the sending handler's.
  const campaignNotFound = () => json({ message: composeMessages.campaignNotFound }, 404);
  const notFound = () => json({ message: campaignMessages.notFound }, 404);

  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const method = init?.method ?? 'GET';
    const { pathname } = new URL(input as string, 'http://localhost');
    const failed = (which: keyof typeof fail) => {
      const failure = fail[which];
      return failure ? json({ message: failure.message }, failure.status) : null;
    };

    if (method === 'GET' && pathname === '/api/sending/status') return failed('status') ?? json(state.status);
    if (method === 'GET' && pathname === '/api/campaigns') {
      await hold.list;
      return failed('list') ?? json({ campaigns: [...campaigns.values()].sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map(summaryOf) });
    }

    // Drafts only, as the campaigns handler deletes them.
    if (method === 'POST' && pathname === '/api/campaigns/bulk-delete') {
      const { ids } = JSON.parse(init?.body as string) as { ids: string[] };
      const deleted = [...new Set(ids)].filter((draftId) => campaigns.get(draftId)?.status === 'draft');
      for (const draftId of deleted) campaigns.delete(draftId);
      return deleted.length > 0 ? json({ deleted }) : campaignNotFound();
    }

    const match = /^\/api\/campaigns\/([^/]+)(?:\/(pause|resume|retry-failed|emails)(?:\/([^/]+)(\/replied)?)?)?$/.exec(pathname);
    if (!match) return json({ message: gatewayMessages.notFound }, 404);
    const id = decodeURIComponent(match[1]!);
    const action = match[2];
    const current = campaigns.get(id);

    if (method === 'DELETE' && action === undefined) {
      if (!current) return campaignNotFound();
      if (current.status !== 'draft') return json({ message: composeMessages.notDraftDelete }, 409);
      campaigns.delete(id);
      return new Response(null, { status: 204 });
    }
    if (method === 'GET' && action === undefined) await hold.get;
    if (method === 'GET' && action === undefined) return failed('get') ?? (current ? json(current) : campaignNotFound());
    if (method === 'POST' && (action === 'pause' || action === 'resume')) {
      const failure = failed(action);
      if (failure) return failure;
      if (!current) return notFound();
      const pausing = action === 'pause';
      if (current.sending_status !== (pausing ? 'sending' : 'paused')) {
        return json({ message: pausing ? sendingApiMessages.notSending : sendingApiMessages.notPaused }, 409);
      }
      const next: Campaign = pausing
        ? // As the store does: the status stays (sending or scheduled); sending_status says it is paused.
          { ...current, sending_status: 'paused', pause_reason: 'user', next_send_at: null }
        : { ...current, sending_status: 'sending', pause_reason: null, next_send_at: at(300) };
      campaigns.set(id, next);
      return json(summaryOf(next));
    }
    if (method === 'POST' && action === 'retry-failed') {
      const failure = failed('retry');
      if (failure) return failure;
      if (!current) return notFound();
      if (current.status !== 'completed') return json({ message: sendingApiMessages.notCompleted }, 409);
      // As the store does: the retryable failed emails go back in the queue (here: all of them).
      const next: Campaign = { ...current, status: 'sending', sending_status: 'sending', completed_sending_at: null, emails_failed: 0, next_send_at: at(300) };
      campaigns.set(id, next);
      return json(summaryOf(next));
    }
    // The "Replied" mark, as the sending handler does: a sent email only (409 otherwise); a mark keeps its first time.
    if ((method === 'PUT' || method === 'DELETE') && action === 'emails' && match[4] !== undefined) {
      const failure = failed('replied');
      if (failure) return failure;
      await hold.replied;
      if (!current) return notFound();
      const list = emails.get(id) ?? [];
      const index = list.findIndex((email) => String(email.position) === decodeURIComponent(match[3]!));
      const one = list[index];
      if (!one) return json({ message: sendingApiMessages.emailNotFound }, 404);
      if (one.status !== 'sent') return json({ message: sendingApiMessages.repliedNotSent }, 409);
      const marked = { ...one, replied_at: method === 'PUT' ? (one.replied_at ?? at(500)) : null };
      emails.set(
        id,
        list.map((email, i) => (i === index ? marked : email)),
      );
      return json(listItem(marked));
    }
    if (method === 'GET' && action === 'emails') {
      if (!current) return notFound();
      const list = emails.get(id) ?? [];
      if (match[3] === undefined) {
        await hold.emails;
        const followUps = followUpStepSummaries(
          current.follow_ups.steps,
          list.map((email) => email.follow_ups),
        );
        return failed('emails') ?? json({ emails: list.map(listItem), follow_ups: followUps });
      }
      await hold.email;
      const one = list.find((email) => String(email.position) === decodeURIComponent(match[3]!));
      return failed('email') ?? (one ? json(one) : json({ message: sendingApiMessages.emailNotFound }, 404));
    }
    return json({ message: gatewayMessages.notFound }, 404);
  });

  const calls = (method: string, path: string) =>
    fetchImpl.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') === method && new URL(url as string, 'http://localhost').pathname === path);

  /** Moves a stored campaign on, as the sender would. */
  const update = (id: string, change: Partial<Campaign>) => {
    const current = campaigns.get(id);
    if (!current) throw new Error(`no campaign ${id}`);
    campaigns.set(id, { ...current, ...change });
  };

  return { campaigns, emails, state, fail, hold, fetchImpl, calls, update };
}

export type CampaignsServer = ReturnType<typeof fakeCampaignsServer>;

export function renderCampaigns(server: CampaignsServer, path = '/dashboard/campaigns', profile: Partial<Profile> = {}) {
  // A stored flag keeps the guided tour from opening over the page.
  window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
  const api = createApiClient(() => Promise.resolve('user-id-token'), server.fetchImpl);
  return renderApp(path, { auth: makeFakeAuth({ user: testUser, profile: makeProfile(profile), api }) });
}
