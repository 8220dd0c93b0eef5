/**
 * The demo policy columns of the admin directory import (issue 28 §2): CSV cells or JSON values as
 * written in spreadsheets ('Web form', 'private links only; unreleased', '14 days', 'yes') read into a
 * DemoPolicy, each bad value a reason of its own so the row is reported, never half loaded. Pure.
 */
import { demoPolicyLimits, needsSubmitUrl, type DemoPolicy, type DemoSubmitMethod } from '../../schema/api/demoPolicyValues';
import { normaliseWebsite } from '../../schema/api/links';
import { normalizeGenre } from '../../schema/api/directory';
import type { Genre } from '../../schema/api/options';

type Flag = 'private_streaming_only' | 'download_wanted' | 'attachments_refused' | 'unreleased_only';

/** The import's policy fields: the stored ones, `demo_accepts` (a list of the flags in one cell) and `accepted_genres`. */
export type DemoPolicyField = 'submit_by' | 'submit_url' | 'demo_accepts' | Flag | 'accepted_genres' | 'response_days' | 'max_email_words';

/** Column names (as normalised by the import: lower case, '_' between words) for each policy field. */
export const demoPolicyAliases: Record<DemoPolicyField, readonly string[]> = {
  submit_by: ['submit_by', 'submission_method', 'demo_submission', 'submit_via', 'how_to_submit', 'demos_by'],
  submit_url: ['submit_url', 'submission_url', 'submission_link', 'form_url', 'platform_url', 'demo_form'],
  demo_accepts: ['demo_accepts', 'accepts', 'demo_rules'],
  private_streaming_only: ['private_streaming_only', 'private_links_only', 'private_only'],
  download_wanted: ['download_wanted', 'wants_download', 'download_link_wanted'],
  attachments_refused: ['attachments_refused', 'no_attachments'],
  unreleased_only: ['unreleased_only'],
  accepted_genres: ['accepted_genres', 'genres_accepted', 'demo_genres'],
  response_days: ['response_days', 'response_time', 'typical_response_days', 'reply_days'],
  max_email_words: ['max_email_words', 'max_words', 'email_max_words', 'preferred_max_words'],
};

/** Inside a JSON record's `demo_policy` object the stored names are used, so `genres` there are the ones it takes. */
export const nestedDemoPolicyAliases: Readonly<Record<string, DemoPolicyField>> = { genres: 'accepted_genres', genre: 'accepted_genres' };

export const demoPolicyFieldLabels: Record<DemoPolicyField, string> = {
  submit_by: 'Submission method',
  submit_url: 'Submission link',
  demo_accepts: 'Accepts',
  private_streaming_only: 'Private streaming only',
  download_wanted: 'Download wanted',
  attachments_refused: 'Attachments refused',
  unreleased_only: 'Unreleased only',
  accepted_genres: 'Accepted genres',
  response_days: 'Response days',
  max_email_words: 'Max email words',
};

const { responseDays, maxEmailWords } = demoPolicyLimits;

export const demoPolicyImportMessages = {
  noMethod: 'A demo policy needs a submission method (email, web form or platform)',
  unknownMethod: (value: string) => `Unknown submission method: ${value} (use email, web form or platform)`,
  missingUrl: 'A web form or platform needs its submission link',
  invalidUrl: (value: string) => `Invalid submission link: ${value}`,
  unknownRule: (value: string) => `Unknown demo rule: ${value} (use private streaming only, download wanted, no attachments or unreleased only)`,
  unknownYesNo: (field: string, value: string) => `Unknown ${field} value: ${value} (use true or false)`,
  unknownGenre: (value: string) => `Unknown accepted genre: ${value}`,
  responseDays: (value: string) => `Response days must be a whole number of days from ${responseDays.min} to ${responseDays.max}: ${value}`,
  maxEmailWords: (value: string) => `Max email words must be a whole number from ${maxEmailWords.min} to ${maxEmailWords.max}: ${value}`,
  notAnObject: 'Demo policy must be an object',
} as const;

/** Spellings of each method, with spaces, dashes and underscores removed. */
const methodByWord: Readonly<Record<string, DemoSubmitMethod>> = {
  email: 'email',
  mail: 'email',
  webform: 'web_form',
  form: 'web_form',
  onlineform: 'web_form',
  websiteform: 'web_form',
  platform: 'platform_only',
  platformonly: 'platform_only',
  submissionplatform: 'platform_only',
};

/** Spellings of each rule of `demo_accepts`, with spaces, dashes and underscores removed. */
const flagByWord: Readonly<Record<string, Flag>> = {
  privatestreamingonly: 'private_streaming_only',
  privatestreaming: 'private_streaming_only',
  privatelinksonly: 'private_streaming_only',
  privatelinks: 'private_streaming_only',
  privateonly: 'private_streaming_only',
  downloadwanted: 'download_wanted',
  downloadlinkwanted: 'download_wanted',
  downloadlink: 'download_wanted',
  download: 'download_wanted',
  noattachments: 'attachments_refused',
  attachmentsrefused: 'attachments_refused',
  unreleasedonly: 'unreleased_only',
  unreleased: 'unreleased_only',
};

const FLAGS: readonly Flag[] = ['private_streaming_only', 'download_wanted', 'attachments_refused', 'unreleased_only'];
const isFlag = (field: DemoPolicyField): field is Flag => (FLAGS as readonly string[]).includes(field);

const compact = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');

const YES = new Set(['true', 'yes', 'y', '1']);
const NO = new Set(['', 'false', 'no', 'n', '0']);

/** A whole number, optionally followed by its unit ('14', '14 days', '2 weeks' = 14); undefined otherwise. */
function wholeNumber(text: string, units: Readonly<Record<string, number>>): number | undefined {
  const match = /^(\d{1,6})(?:\s*([a-z]+))?$/i.exec(text.trim());
  if (!match?.[1]) return undefined;
  const factor = match[2] === undefined ? 1 : units[match[2].toLowerCase()];
  return factor === undefined ? undefined : Number(match[1]) * factor;
}

/**
 * A record's policy values as read (each field's values in column order, already text: the import turns
 * JSON numbers into text and refuses other types), or the reasons it cannot be stored. No value in any
 * policy field: no policy (null).
 */
export function readDemoPolicy(
  texts: Partial<Record<DemoPolicyField, readonly string[]>>,
  booleans: Partial<Record<Flag, boolean>>,
  reasons: string[],
): DemoPolicy | null {
  const first = (field: DemoPolicyField) => (texts[field] ?? []).find((value) => value !== '') ?? '';
  // A 'no' in a rule's column says nothing on its own: a row of a file with such columns may have no policy.
  const given =
    (Object.keys(demoPolicyAliases) as DemoPolicyField[]).some((field) => (isFlag(field) ? !NO.has(first(field).toLowerCase()) : first(field) !== '')) ||
    Object.values(booleans).some((value) => value);
  if (!given) return null;
  const before = reasons.length;

  const methodText = first('submit_by');
  const method = methodText === '' ? undefined : methodByWord[compact(methodText)];
  if (methodText === '') reasons.push(demoPolicyImportMessages.noMethod);
  else if (method === undefined) reasons.push(demoPolicyImportMessages.unknownMethod(methodText));

  const urlText = first('submit_url');
  let url: string | null = null;
  if (urlText !== '') {
    url = urlText.length > demoPolicyLimits.submitUrl ? null : normaliseWebsite(urlText);
    if (url === null) reasons.push(demoPolicyImportMessages.invalidUrl(urlText));
  } else if (method !== undefined && needsSubmitUrl(method)) reasons.push(demoPolicyImportMessages.missingUrl);

  const flags: Record<Flag, boolean> = { private_streaming_only: false, download_wanted: false, attachments_refused: false, unreleased_only: false };
  for (const cell of texts.demo_accepts ?? []) {
    for (const rule of cell.split(/[,;|]/).map((part) => part.trim())) {
      if (rule === '') continue;
      const flag = flagByWord[compact(rule)];
      if (flag) flags[flag] = true;
      else reasons.push(demoPolicyImportMessages.unknownRule(rule));
    }
  }
  for (const flag of FLAGS) {
    const value = booleans[flag];
    if (value !== undefined) {
      flags[flag] ||= value;
      continue;
    }
    const text = first(flag).toLowerCase();
    if (YES.has(text)) flags[flag] = true;
    else if (!NO.has(text)) reasons.push(demoPolicyImportMessages.unknownYesNo(demoPolicyFieldLabels[flag], first(flag)));
  }

  const genres: Genre[] = [];
  for (const cell of texts.accepted_genres ?? []) {
    for (const part of cell.split(/[,;]/)) {
      const genre = normalizeGenre(part);
      if (genre === null) continue;
      // 'other' stands for any genre the list lacks: a label's accepted genre must be one the list has.
      if (genre === 'other' && compact(part) !== 'other') reasons.push(demoPolicyImportMessages.unknownGenre(part.trim()));
      else if (!genres.includes(genre)) genres.push(genre);
    }
  }

  const daysText = first('response_days');
  const days = daysText === '' ? null : (wholeNumber(daysText, { day: 1, days: 1, d: 1, week: 7, weeks: 7 }) ?? Number.NaN);
  if (days !== null && !(days >= responseDays.min && days <= responseDays.max)) reasons.push(demoPolicyImportMessages.responseDays(daysText));

  const wordsText = first('max_email_words');
  const words = wordsText === '' ? null : (wholeNumber(wordsText, { word: 1, words: 1 }) ?? Number.NaN);
  if (words !== null && !(words >= maxEmailWords.min && words <= maxEmailWords.max)) reasons.push(demoPolicyImportMessages.maxEmailWords(wordsText));

  if (reasons.length > before || method === undefined) return null;
  return {
    submit_by: method,
    submit_url: url,
    ...flags,
    genres,
    response_days: days,
    max_email_words: words,
  };
}
