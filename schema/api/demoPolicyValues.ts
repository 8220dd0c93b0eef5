/**
 * A label's demo policy (issue 28 §2, DESIGN §16), zod-free: how it takes demos, what it accepts, the
 * genres it takes, how soon it replies and how long an email it reads. The directory keeps one beside
 * its free-text guidelines and a contact added from the directory copies it; the pre-send check
 * (lambdas/core/preSendCheck.ts), the AI writer and LabelFinder's cards read it. The web's light chunks
 * import this file; ./demoPolicy.ts holds the zod schema.
 */
import { genreLabels, type Genre } from './options';

/** How a label takes demos: by email, only through a web form, or only through a submission platform. */
export const demoSubmitMethods = ['email', 'web_form', 'platform_only'] as const;
export type DemoSubmitMethod = (typeof demoSubmitMethods)[number];

export interface DemoPolicy {
  submit_by: DemoSubmitMethod;
  /** The form's or the platform's page: always set for web_form and platform_only; for email an optional alternative. */
  submit_url: string | null;
  /** Streaming links that are private (not public) only. */
  private_streaming_only: boolean;
  /** They want a link they can download the track from. */
  download_wanted: boolean;
  /** Files attached to the email are refused. */
  attachments_refused: boolean;
  /** Only music that has not been released. */
  unreleased_only: boolean;
  /** The genres they take; empty: any genre. */
  genres: Genre[];
  /** How many days they typically take to reply; null: not known. */
  response_days: number | null;
  /** The longest email (words) they want to read; null: no preference. */
  max_email_words: number | null;
}

/** The bounds of a policy's numbers and its link. */
export const demoPolicyLimits = {
  responseDays: { min: 1, max: 365 },
  maxEmailWords: { min: 20, max: 2000 },
  submitUrl: 500,
} as const;

/** The methods that do not take a demo by email, and so need the page that does. */
export const needsSubmitUrl = (method: DemoSubmitMethod) => method !== 'email';

/** Whether a policy says the label takes demos by email (an entry without a policy is not known to). */
export const acceptsEmailDemos = (policy: DemoPolicy | null | undefined): boolean => policy?.submit_by === 'email';

const submitWords: Record<DemoSubmitMethod, string> = {
  email: 'Demos by email',
  web_form: 'Demos through their web form only',
  platform_only: 'Demos through a submission platform only',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The policy in plain words, one part each, in a fixed order: ['Demos by email', 'Private streaming
 * links only', 'Unreleased music only', 'Replies in about 14 days'].
 */
export function demoPolicyParts(policy: DemoPolicy): string[] {
  const parts = [submitWords[policy.submit_by]];
  if (policy.private_streaming_only) parts.push('Private streaming links only');
  if (policy.download_wanted) parts.push('Download link wanted');
  if (policy.attachments_refused) parts.push('No attachments');
  if (policy.unreleased_only) parts.push('Unreleased music only');
  if (policy.genres.length > 0) parts.push(`Takes ${policy.genres.map((genre) => genreLabels[genre]).join(', ')}`);
  if (policy.max_email_words !== null) parts.push(`Emails under ${policy.max_email_words} words`);
  if (policy.response_days !== null) parts.push(`Replies in about ${plural(policy.response_days, 'day')}`);
  return parts;
}

/** The plain-words policy on one line: 'Demos by email · Private streaming links only · Replies in about 14 days'. */
export const demoPolicySummary = (policy: DemoPolicy): string => demoPolicyParts(policy).join(' · ');
