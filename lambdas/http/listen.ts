/**
 * The private listen page's public routes (issue 16, DESIGN §12; no sign-in, throttled per route in
 * schema/routes.ts). Everything is found by the email's own token (`/l/<token>`): a value of another
 * shape is a 404 without a read.
 *  - GET /api/l/{token}: what the page shows (artist, track, description, peaks, short-lived signed
 *    audio and cover art URLs, a download URL when the campaign allows it, the current answer); or why there is no
 *    player (the link expired, the track was deleted). Records nothing: a scanner that fetches the page
 *    or this API counts as no listen. The audio's own range requests go to storage, never here.
 *  - POST /api/l/{token}/events: the page's beacons (play, progress, download), counted deduplicated;
 *    429 past the recipient's own bound (core LISTEN_PLAYS_PER_HOUR, LISTEN_EVENTS_PER_MINUTE), nothing counted;
 *    429 too past the client's own (core LISTEN_EVENTS_PER_CLIENT_*, clientLimit.ts), before any read.
 *  - POST /api/l/{token}/answer: the one-click answer and its note.
 * Logs name the campaign and position, never the address.
 */
import { LISTEN_URL_SECONDS, listenMessages, type ListenPage } from '../../schema/api/listenValues';
import { isEmailToken } from '../core/emailToken';
import { isListenExpired, listenExpiresAt, milestoneOf } from '../core/listen';
import type { StoredTrack } from '../core/tracks';
import type { AudioUrls, Clock, EmailToken, ListenCampaign, ListenRecorded, ListenStore, TrackStore, TrackingStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { listenDeps } from '../composition/listen';
import { HttpError, httpApi, json, lazyHandler, logger, noContent, parseForm } from './api';
import type { ClientLimit } from './clientLimit';

export interface ListenDeps {
  /** The token and campaign reads: the composition keeps their answers a while (withKeptLinkFacts). */
  tokens: Pick<TrackingStore, 'getToken'>;
  listen: ListenStore;
  tracks: Pick<TrackStore, 'get'>;
  audio: AudioUrls;
  clock: Clock;
  clientLimit: ClientLimit;
}

/** The POST bodies' schemas, loaded by the first beacon or answer: the page's GET loads no zod. */
const listenSchemas = () => import('../../schema/api/listen');

/** The page's answers are the recipient's alone: nothing in between may keep a copy. */
const PRIVATE = { 'cache-control': 'no-store, private', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' };

const context = (token: EmailToken) => ({ campaignId: token.campaign_id, position: token.position });

/** A link's state: usable with its campaign and track, or why not. */
type Link =
  | { state: 'ready'; token: EmailToken; campaign: ListenCampaign & { track_id: string }; track: StoredTrack }
  | { state: 'expired' | 'track_deleted'; token: EmailToken };

/** What a link that is not usable says: expired, or its track deleted. */
const goneMessage = (state: 'expired' | 'track_deleted') => (state === 'expired' ? listenMessages.expired : listenMessages.trackDeleted);

/** The download's file name: the track's name and its format (characters a file system refuses dropped). */
const downloadName = (track: StoredTrack) => `${track.name.replace(/[\\/:*?"<>|\p{Cc}]/gu, '').trim() || 'track'}.${track.format ?? 'mp3'}`;

export function makeHandler({ tokens, listen, tracks, audio, clock, clientLimit }: ListenDeps) {
  /** The token and its campaign (the composition keeps both a while); undefined when there is none. */
  async function factsOf(value: string) {
    const token = isEmailToken(value) ? await tokens.getToken(value) : undefined;
    // A well-formed token that is no longer stored: its artist deleted their account, and its items with it (issue 26 §3).
    if (!token && isEmailToken(value)) throw new HttpError(410, listenMessages.gone, 'gone');
    const campaign = token ? await listen.campaign(token) : undefined;
    if (!token || !campaign?.track_id) return undefined;
    return { token, campaign: { ...campaign, track_id: campaign.track_id } };
  }

  /** The link of a token: 404 when there is none (a malformed token, a campaign without an uploaded track); 410 once gone. */
  async function linkOf(value: string, now: Date): Promise<Link> {
    const facts = await factsOf(value);
    if (!facts) throw new HttpError(404, listenMessages.notFound);
    const { token, campaign } = facts;
    // Judged on every request, by the clock and a fresh read of the track: a kept link still expires, and a deleted track says so at once.
    if (isListenExpired(token.created_at, campaign.listen_days, now)) return { state: 'expired', token };
    const track = await tracks.get(token.user_id, campaign.track_id);
    if (track?.status !== 'ready') return { state: track?.status === 'deleted' ? 'track_deleted' : 'expired', token };
    return { state: 'ready', token, campaign, track };
  }

  /** A POST's link: only a usable one takes events and answers (410 once expired or deleted). */
  async function usableLink(value: string, now: Date) {
    const link = await linkOf(value, now);
    if (link.state !== 'ready') throw new HttpError(410, goneMessage(link.state), link.state);
    return link;
  }

  return httpApi('listen', {
    'GET /api/l/{token}': async ({ params }) => {
      const now = clock.now();
      const link = await linkOf(params.token, now);
      if (link.state !== 'ready') {
        return json(410, { state: link.state, artist_name: link.token.artist_name, message: goneMessage(link.state) } satisfies ListenPage, PRIVATE);
      }
      const { token, campaign, track } = link;
      const [audioUrl, downloadUrl, coverUrl, current] = await Promise.all([
        audio.signedGetUrl(track.audio_key, { expiresInSeconds: LISTEN_URL_SECONDS, now }),
        campaign.allow_download ? audio.signedGetUrl(track.audio_key, { expiresInSeconds: LISTEN_URL_SECONDS, now, downloadName: downloadName(track) }) : null,
        // The cover art beside the audio (issue 25 §5), signed the same way.
        track.cover_key ? audio.signedGetUrl(track.cover_key, { expiresInSeconds: LISTEN_URL_SECONDS, now }) : null,
        listen.currentAnswer(token),
      ]);
      const page: ListenPage = {
        state: 'ready',
        artist_name: token.artist_name,
        // The name the artist gave the track, not the uploaded file's ('Norvik - Concrete Dawn (Preview)').
        track_name: campaign.track_name.trim() || track.name,
        description: campaign.description,
        duration_seconds: track.duration_seconds ?? 0,
        peaks: track.peaks ?? [],
        audio_url: audioUrl,
        download_url: downloadUrl,
        cover_url: coverUrl,
        answer: current.answer,
        answer_note: current.answer_note,
        expires_at: listenExpiresAt(token.created_at, campaign.listen_days).toISOString(),
      };
      return json(200, page, PRIVATE);
    },

    'POST /api/l/{token}/events': async ({ event: request, params, body }) => {
      const event = parseForm((await listenSchemas()).listenEventSchema, body);
      const now = clock.now();
      // Before the link is read: a client guessing tokens is bounded too.
      await clientLimit('listen_event', request, now);
      const { token, campaign, track } = await usableLink(params.token, now);
      let recorded: ListenRecorded;
      if (event.type === 'play') recorded = await listen.recordPlay(token, event.session, now);
      else if (event.type === 'download') {
        // The link's own read of the campaign says whether it allows downloads: no second read.
        if (!campaign.allow_download) throw new HttpError(404, listenMessages.notFound);
        recorded = await listen.recordDownload(token, event.session, now);
      } else {
        const progress = {
          session: event.session,
          milestone: milestoneOf(event.percent ?? 0),
          seconds: event.seconds ?? 0,
          durationSeconds: track.duration_seconds ?? 0,
        };
        recorded = await listen.recordProgress(token, progress, now);
      }
      if (recorded === 'rate_limited') {
        logger.warn('Listen event over the recipient bound', { ...context(token), type: event.type });
        throw new HttpError(429, listenMessages.tooManyEvents, 'rate_limited');
      }
      logger.info('Listen event', { ...context(token), type: event.type });
      return noContent();
    },

    'POST /api/l/{token}/answer': async ({ params, body }) => {
      const input = parseForm((await listenSchemas()).listenAnswerSchema, body);
      const now = clock.now();
      const { token } = await usableLink(params.token, now);
      await listen.answer(token, { answer: input.answer, note: input.note }, now);
      logger.info('Listen answer', { ...context(token), answer: input.answer });
      return json(200, { answer: input.answer, answer_note: input.note, message: listenMessages.answerSaved }, PRIVATE);
    },
  });
}

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(listenDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
