import type { EmailListen } from '../../../schema/api/insights';
import { listenAnswerLabels, type ListenAnswer } from '../../../schema/api/listenValues';

/**
 * An email's listen page (issue 16) as the dashboard and Analytics read it: how far the recipient
 * listened, and their answer in the page's own words.
 */

/** The furthest milestone reached (0–100), or null when the recipient never pressed play. */
export const listenedPercent = (email: Pick<EmailListen, 'play_count' | 'listen_max_percent'>): number | null =>
  email.play_count > 0 ? email.listen_max_percent : null;

/** '78 %' (the campaign's sent emails read 'Listened 78 %' the same way). */
export const formatListenPercent = (percent: number): string => `${percent} %`;

/** 'Interested', 'Send me the WAVs', 'Not for us': the button the recipient pressed; null before any. */
export const answerLabel = (answer: ListenAnswer | null): string | null => (answer === null ? null : listenAnswerLabels[answer]);
