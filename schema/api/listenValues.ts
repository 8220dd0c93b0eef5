/**
 * The private listen page's values and texts (issue 16, DESIGN §12), free of zod: the listen Lambda's
 * GET loads no schema, and the web's listen chunk imports only these. listen.ts adds the body schemas.
 */

/** The one-click answers under the player, and how the page and the artist's views name them. */
export const listenAnswers = ['interested', 'send_wavs', 'not_for_us'] as const;
export type ListenAnswer = (typeof listenAnswers)[number];
export const listenAnswerLabels: Record<ListenAnswer, string> = {
  interested: 'Interested',
  send_wavs: 'Send me the WAVs',
  not_for_us: 'Not for us',
};
export const isListenAnswer = (value: unknown): value is ListenAnswer => typeof value === 'string' && (listenAnswers as readonly string[]).includes(value);

export const listenLimits = {
  /** 'Listen link valid for (days)': 1–365, 90 by default. */
  daysMin: 1,
  daysMax: 365,
  daysDefault: 90,
  /** The optional note with an answer. */
  noteMax: 500,
  /** A play session's id (the page makes one per play). */
  sessionMax: 64,
} as const;

/** What a listen event is: a play started, progress (the furthest point and the seconds heard this session), a download. */
export const listenEventTypes = ['play', 'progress', 'download'] as const;
export type ListenEventType = (typeof listenEventTypes)[number];

/** The milestones the artist sees, in percent of the track. */
export const listenMilestones = [25, 50, 75, 100] as const;

/** A recipient who reached this milestone counts as having listened (the campaign's Listened); a play that stopped sooner is only a play. */
export const LISTENED_MILESTONE = listenMilestones[0];

/** A listen page's signed audio and download URLs are good for this long (the player asks again for new ones). */
export const LISTEN_URL_SECONDS = 10 * 60;

/** GET /api/l/{token}: what the page shows. `state` says which page: the player, or why there is none. */
export type ListenPage =
  | {
      state: 'ready';
      artist_name: string;
      track_name: string;
      description: string;
      duration_seconds: number;
      peaks: number[];
      /** A short-lived signed URL of the audio (streamed with Range). */
      audio_url: string;
      /** Present only when the artist allowed downloads for this campaign. */
      download_url: string | null;
      /** A short-lived signed URL of the track's cover art (JPEG, PNG or WebP); null when it has none. */
      cover_url: string | null;
      answer: ListenAnswer | null;
      answer_note: string | null;
      /** When this link stops working. */
      expires_at: string;
    }
  | { state: 'expired' | 'track_deleted'; artist_name: string; message: string };

/** The page's and the API's texts. */
export const listenMessages = {
  expired: 'This private link has expired. Ask the artist for a new one.',
  trackDeleted: 'The artist has removed this track. Ask the artist for a new link.',
  notFound: 'This private link is not valid.',
  /** A link whose artist deleted their account (410). */
  gone: 'This private link is no longer available.',
  answerSaved: 'Thanks, your answer was sent to the artist.',
  listenDaysRange: `Enter a whole number of days from ${listenLimits.daysMin} to ${listenLimits.daysMax}`,
  trackNotFound: 'Choose one of your uploaded tracks.',
  tooManyEvents: 'Too many listening events from this link. Try again later.',
} as const;
