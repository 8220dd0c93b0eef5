import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { wavBytes } from '../support/audio';

/**
 * An artist's setup through the API, as the web app would make it, for browser tests about what the
 * pages then show (accessibility, the dashboard, analytics): a connected local mailbox, a sent campaign,
 * and the sent messages' tracking links, to open, click and unsubscribe as a recipient would.
 */

/** Polls `read` until `done` holds (bounded): the stack's ticker sends one email a second. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The response's JSON after asserting its status (the body in the failure message). */
export async function ok(response: Promise<APIResponse>, status = 200): Promise<unknown> {
  const answer = await response;
  expect(answer.status(), `${answer.url()}: ${await answer.text()}`).toBe(status);
  return (answer.json() as Promise<unknown>).catch(() => undefined);
}

/** Settings → Connect Gmail → the local consent page → Allow → the callback, as the browser goes. */
export async function connectLocalMailbox(api: APIRequestContext, appUrl: string, email = 'nova@local.test') {
  const { authUrl } = (await ok(api.post('/api/mailbox/connect'))) as { authUrl: string };
  const consent = new URL(authUrl);
  const allow = await api.post(consent.pathname, {
    form: {
      state: consent.searchParams.get('state')!,
      redirect_uri: consent.searchParams.get('redirect_uri')!,
      decision: 'allow',
      email,
      workspace: 'false',
    },
    headers: { origin: appUrl },
    maxRedirects: 0,
  });
  expect(allow.status()).toBe(302);
  const callback = await api.get(allow.headers().location!, { maxRedirects: 0 });
  expect(callback.status()).toBe(302);
  expect(callback.headers().location).toContain('gmail_connected=true');
}

/** One message the local mailbox sent, with what a recipient's client would fetch from it. */
export interface SentMessage {
  to: string;
  /** The open pixel's path (`/api/t/o/<token>`). */
  pixel: string;
  /** The tracked links' paths (`/api/t/c/<token>/<n>`), in order. */
  links: string[];
  /** The token of the message's one-click unsubscribe link. */
  unsubscribeToken: string;
}

const pathOf = (url: string) => {
  const parsed = new URL(url.replace(/&amp;/g, '&'));
  return parsed.pathname + parsed.search;
};

/** A draft of an uploaded track with its email written by hand, as Compose saves it; returns its id. */
export async function draftOfUploadedTrack(
  api: APIRequestContext,
  { trackName, trackId, recipients }: { trackName: string; trackId: string; recipients: number },
) {
  const draft = (await ok(
    api.post('/api/campaigns', {
      data: {
        mode: 'ai',
        track: { track_name: trackName, track_url: '', track_id: trackId, genre: 'techno', description: 'A rolling late-night groove.' },
        email_subject: '[TRACK_NAME] for [LABEL_NAME]',
        email_body: 'Hi [CONTACT_NAME],\n\nMy new track: [TRACK_URL]\n\nNova',
        total_recipients: recipients,
      },
    }),
    201,
  )) as { id: string };
  return draft.id;
}

/** Creates a campaign of `trackName` written by hand and sends it to `contactIds` at once; returns its id. */
export async function startCampaign(api: APIRequestContext, { trackName, contactIds }: { trackName: string; contactIds: string[] }) {
  const campaign = (await ok(
    api.post('/api/campaigns', {
      data: {
        mode: 'ai',
        track: {
          track_name: trackName,
          track_url: 'https://soundcloud.com/nova-pulse/midnight-drive',
          genre: 'techno',
          mood: 'Hypnotic',
          bpm: '128',
          description: 'A rolling, hypnotic warehouse cut with a slow-building acid line.',
          ai_tone: 'friendly',
          email_length: 150,
        },
        email_subject: '[TRACK_NAME] for [LABEL_NAME]',
        email_body: 'Hi [CONTACT_NAME],\n\nMy new track: [TRACK_URL]\n\nNova',
        total_recipients: contactIds.length,
      },
    }),
    201,
  )) as { id: string };
  await ok(api.post(`/api/campaigns/${campaign.id}/send`, { data: { contact_ids: contactIds, mode: 'immediate', batch_start: 0, total: contactIds.length } }));
  return campaign.id;
}

/**
 * Creates a campaign of `trackName` written by hand, sends it to `contactIds` at once, waits for the local
 * mailbox to send every email and for the campaign to complete, and returns the sent messages.
 */
export async function sendCampaign(api: APIRequestContext, { trackName, contactIds }: { trackName: string; contactIds: string[] }) {
  const campaign = { id: await startCampaign(api, { trackName, contactIds }) };

  type Summary = { id: string; campaign_id: string };
  const sent = await until(
    async () => ((await ok(api.get('/api/local/outbox'))) as { messages: Summary[] }).messages.filter((m) => m.campaign_id === campaign.id),
    (messages) => messages.length === contactIds.length,
    'the campaign’s emails in the outbox',
    60_000,
  );
  const messages = await Promise.all(
    sent.map(async ({ id }): Promise<SentMessage> => {
      const message = (await ok(api.get(`/api/local/outbox/${id}`))) as { to: string; html: string; headers: [string, string][] };
      const header = message.headers.find(([name]) => name.toLowerCase() === 'list-unsubscribe')![1];
      return {
        to: message.to,
        pixel: pathOf(/<img[^>]+src="([^"]+\/api\/t\/o\/[^"]+)"/.exec(message.html)![1]!),
        links: [...message.html.matchAll(/href="([^"]+\/api\/t\/c\/[^"]+)"/g)].map((match) => pathOf(match[1]!)),
        unsubscribeToken: new URL(/<(https?:[^>]+one-click[^>]+)>/.exec(header)![1]!).searchParams.get('token')!,
      };
    }),
  );
  await until(
    async () => (await ok(api.get(`/api/campaigns/${campaign.id}`))) as { status: string },
    (c) => c.status === 'completed',
    'the campaign to complete',
  );
  return { campaignId: campaign.id, messages };
}

/** Waits for the campaign to complete, then the local mailbox's messages of it ('Name <address>' in `to`). */
export async function completedCampaignOutbox(api: APIRequestContext, campaignId: string): Promise<{ id: string; to: string }[]> {
  await until(
    async () => (await ok(api.get(`/api/campaigns/${campaignId}`))) as { status: string },
    (campaign) => campaign.status === 'completed',
    'the campaign to complete',
    60_000,
  );
  const { messages } = (await ok(api.get('/api/local/outbox'))) as { messages: { id: string; to: string; campaign_id: string }[] };
  return messages.filter((message) => message.campaign_id === campaignId);
}

/** A waveform as the browser would have sent it: fixed, so a listen page draws the same every run. */
const PEAKS = Array.from({ length: 200 }, (_, i) => Math.round((0.25 + 0.7 * Math.abs(Math.sin(i / 7)) * (0.6 + 0.4 * Math.cos(i / 23))) * 1000) / 1000);

/** Uploads a 4 s WAV of fixed bytes as the Compose uploader does (upload, store, complete); returns the track's id. */
export async function uploadTrack(api: APIRequestContext, name: string): Promise<string> {
  const bytes = Buffer.from(wavBytes({ seconds: 4, sampleRate: 8000 }));
  const { track_id, upload } = (await ok(api.post('/api/tracks/uploads', { data: { name, content_type: 'audio/wav', size: bytes.length } }), 201)) as {
    track_id: string;
    upload: { url: string; fields: Record<string, string> };
  };
  const stored = await api.post(upload.url, { multipart: { ...upload.fields, file: { name, mimeType: 'audio/wav', buffer: bytes } } });
  expect(stored.status(), await stored.text()).toBe(204);
  await ok(api.post(`/api/tracks/${track_id}/complete`, { data: { peaks: PEAKS } }), 201);
  return track_id;
}
