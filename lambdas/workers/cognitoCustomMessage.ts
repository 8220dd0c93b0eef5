/**
 * Cognito custom message trigger (spec §2: "The sign-up confirmation email redirects to the site
 * root"). For a sign-up and a resent sign-up code it replaces Cognito's email with one that links to
 * the web app: `<SITE_URL>/auth?username=<user name>&email=<email>&code=<code>`; the /auth page confirms the
 * account with those parameters and continues from there. Every other message (forgotten password,
 * attribute verification, admin invitation, MFA) is returned untouched, so Cognito sends the pool's
 * own template.
 *
 * Pure string building: no SDK, no I/O. Cognito replaces `event.request.codeParameter` (normally
 * `{####}`) with the real code after this returns, so the placeholder goes into the message verbatim
 * and exactly once; everything else inserted into the HTML is escaped.
 */
import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { escapeHtml } from '../../schema/email/escape';

export const CONFIRMATION_SUBJECT = 'Confirm your Trackpitch account';

/** The web app's route that confirms an account from the emailed link. */
export const CONFIRMATION_PATH = '/auth';

/** The trigger sources whose email this function rewrites. */
export const CONFIRMATION_TRIGGERS: ReadonlySet<string> = new Set(['CustomMessage_SignUp', 'CustomMessage_ResendCode']);

/** A display name is free text of up to 2,048 characters; the email only needs a greeting's worth. */
const MAX_NAME_CHARACTERS = 80;

/** Re-exported for its tests: the one HTML escape (schema/email/escape.ts). */
export { escapeHtml };

/** The site's origin (and optional base path) without a trailing slash; throws on anything but an http(s) URL. */
export function normaliseSiteUrl(siteUrl: string): string {
  let url: URL;
  try {
    url = new URL(siteUrl);
  } catch {
    throw new Error(`SITE_URL must be an absolute URL, got ${JSON.stringify(siteUrl)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`SITE_URL must be http(s), got ${JSON.stringify(siteUrl)}`);
  if (url.search || url.hash) throw new Error(`SITE_URL must have no query or fragment, got ${JSON.stringify(siteUrl)}`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export interface ConfirmationEmailInput {
  /** Normalised site URL (normaliseSiteUrl). */
  siteUrl: string;
  /** The Cognito user name (with email sign-in, the generated id Cognito also accepts in ConfirmSignUp). */
  userName: string;
  /** Cognito's placeholder for the code, inserted verbatim. */
  codeParameter: string;
  /** The `name` attribute, for the greeting. */
  name?: string | undefined;
  /** The `email` attribute: lets the sign-in form be prefilled after confirming. */
  email?: string | undefined;
}

/** The confirmation email's subject and HTML body; the body contains `codeParameter` exactly once. */
export function confirmationEmail({ siteUrl, userName, codeParameter, name, email }: ConfirmationEmailInput): { subject: string; html: string } {
  // The placeholder is appended after escaping: Cognito looks for it character for character. The code
  // it stands for is digits, so the final URL needs no further encoding.
  const emailParam = email ? `&email=${encodeURIComponent(email)}` : '';
  const href = `${escapeHtml(`${siteUrl}${CONFIRMATION_PATH}?username=${encodeURIComponent(userName)}${emailParam}&code=`)}${codeParameter}`;
  const shortName = Array.from(name?.trim() ?? '')
    .slice(0, MAX_NAME_CHARACTERS)
    .join('');
  const greeting = shortName ? `Hi ${escapeHtml(shortName)},` : 'Hi,';
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><title>Confirm your Trackpitch account</title></head>',
    '<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#16191f;">',
    `<p>${greeting}</p>`,
    '<p>Welcome to Trackpitch! Confirm your email address to finish creating your account.</p>',
    `<p><a href="${href}" style="display:inline-block;padding:10px 20px;background:#0972d3;color:#ffffff;text-decoration:none;border-radius:20px;font-weight:bold;">Confirm my account</a></p>`,
    '<p style="color:#5f6b7a;font-size:14px;">The link expires in 24 hours. If you did not create a Trackpitch account, ignore this email.</p>',
    '</body></html>',
  ].join('\n');
  return { subject: CONFIRMATION_SUBJECT, html };
}

/**
 * The trigger's answer for one event: the confirmation email for a sign-up or a resent code, the
 * event unchanged for anything else. Returns a new object; the input is not modified.
 */
export function customMessage(event: CustomMessageTriggerEvent, siteUrl: string): CustomMessageTriggerEvent {
  if (!CONFIRMATION_TRIGGERS.has(event.triggerSource)) return event;
  const { subject, html } = confirmationEmail({
    siteUrl,
    userName: event.userName,
    codeParameter: event.request.codeParameter,
    name: event.request.userAttributes.name,
    email: event.request.userAttributes.email,
  });
  return { ...event, response: { ...event.response, emailSubject: subject, emailMessage: html } };
}

export interface CustomMessageDeps {
  /** The web app's URL (the CloudFront site URL in AWS). */
  siteUrl: string;
}

export function makeHandler({ siteUrl }: CustomMessageDeps) {
  const site = normaliseSiteUrl(siteUrl);
  return (event: CustomMessageTriggerEvent): Promise<CustomMessageTriggerEvent> => Promise.resolve(customMessage(event, site));
}

let built: ReturnType<typeof makeHandler> | undefined;
export const handler = (event: CustomMessageTriggerEvent) => {
  // A missing SITE_URL fails the invocation (and so the sign-up) rather than emailing a broken link.
  built ??= makeHandler({ siteUrl: process.env.SITE_URL ?? '' });
  return built(event);
};
