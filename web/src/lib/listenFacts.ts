import type { EmailListen } from '../../../schema/api/insights';
import { LISTENED_MILESTONE, listenAnswerLabels, type ListenAnswer } from '../../../schema/api/listenValues';

/**
 * What a recipient did on their email's listen page (issue 16), in the same words wherever the artist
 * reads it: the campaign's sent emails, the dashboard's recent sends, Analytics' activity and export.
 */

type Listening = Pick<EmailListen, 'play_count' | 'listen_max_percent'>;

/**
 * The furthest milestone reached (0–100), or null when the recipient neither pressed play nor reached one
 * (the export's number). A milestone counts without its play: a play's beacon may be lost, and the
 * campaign's Listened counts the milestone.
 */
export const listenedPercent = (email: Listening): number | null => (email.play_count > 0 || email.listen_max_percent > 0 ? email.listen_max_percent : null);

/** How far: listened to a milestone, played but left before the first one, or null before any play. */
export type ListenReach = { kind: 'listened'; percent: number } | { kind: 'played' };

export function listenReach(email: Listening): ListenReach | null {
  const percent = listenedPercent(email);
  if (percent === null) return null;
  // From LISTENED_MILESTONE on a recipient listened, as the campaign's Listened counter counts them.
  return percent >= LISTENED_MILESTONE ? { kind: 'listened', percent } : { kind: 'played' };
}

/** '78 %'. */
export const formatListenPercent = (percent: number): string => `${percent} %`;

/** 'Listened 78 %', 'Played' when the play stopped before the first milestone, null before any play. */
export function listenedText(email: Listening): string | null {
  const reach = listenReach(email);
  if (reach === null) return null;
  return reach.kind === 'listened' ? `Listened ${formatListenPercent(reach.percent)}` : 'Played';
}

/**
 * 'Listened 78 % · Played 3× · Downloaded'; 'Played 1×' alone when the plays stopped before the first
 * milestone; null when the recipient neither played nor downloaded.
 */
export function listeningLine(email: Pick<EmailListen, 'play_count' | 'listen_max_percent' | 'download_count'>): string | null {
  const reach = listenReach(email);
  const parts = [
    ...(reach?.kind === 'listened' ? [`Listened ${formatListenPercent(reach.percent)}`] : []),
    ...(email.play_count > 0 ? [`Played ${email.play_count}×`] : []),
    ...(email.download_count > 0 ? ['Downloaded'] : []),
  ];
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** 'Interested', 'Send me the WAVs', 'Not for us': the button the recipient pressed; null before any. */
export const answerLabel = (answer: ListenAnswer | null): string | null => (answer === null ? null : listenAnswerLabels[answer]);

/** 'Answer: Send me the WAVs'; null before any. */
export const answerText = (answer: ListenAnswer | null): string | null => {
  const label = answerLabel(answer);
  return label === null ? null : `Answer: ${label}`;
};
