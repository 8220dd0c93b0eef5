/**
 * HTML mode's templates (spec §2 HTML template chooser, §9 accent colours). Each is a whole email document
 * built the way email clients need: tables for layout (role="presentation"), inline CSS only (Gmail drops
 * some <style>), a 600px column that shrinks on phones, buttons as styled links. Every input value is
 * escaped; [CONTACT_NAME] and [UNSUBSCRIBE_URL] stay for renderEmail to fill per recipient.
 * Pure (no DOM): the web bundle imports it.
 */
import { isHttpLink } from '../api/links';
import { escapeHtml, escapeHtmlLines } from './escape';
import { unsubscribeFooterHtml } from './footer';
import { htmlDocument } from './htmlDocument';
import { genreLabel, socialLinksHtml } from './placeholders';

export const htmlTemplateKinds = ['minimal', 'bold', 'professional', 'custom'] as const;
export type HtmlTemplateKind = (typeof htmlTemplateKinds)[number];

export const htmlTemplateInfo: Record<HtmlTemplateKind, { name: string; blurb: string; accent: string }> = {
  minimal: { name: 'Minimal', blurb: 'Clean & simple design', accent: '#6366f1' },
  bold: { name: 'Bold', blurb: 'Eye-catching gradient header', accent: '#8b5cf6' },
  professional: { name: 'Professional', blurb: 'Business-style layout', accent: '#3b82f6' },
  custom: { name: 'Custom HTML', blurb: 'Write your own code', accent: '#64748b' },
};

/** Spec §9: the six accent presets. */
export const accentPresets = ['#6366f1', '#8b5cf6', '#3b82f6', '#10b981', '#f59e0b', '#ef4444'] as const;

/** A #rrggbb colour (the colour input's format); the text input accepts #rgb too and normalises it. */
export function normaliseAccent(value: string): string | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  const hex = (match[1] ?? '').toLowerCase();
  return hex.length === 3 ? `#${hex.replace(/./g, (digit) => digit + digit)}` : `#${hex}`;
}

/** Spec §2: 'Demo Submission: {track name}'. */
export function defaultHtmlSubject(trackName: string): string {
  return `Demo Submission: ${trackName}`;
}

export interface HtmlTemplateInput {
  track_name: string;
  track_url: string;
  genre: string;
  description: string;
  artist_name: string;
  social_links: { label: string; url: string }[];
  accent: string;
}

/** The accent as #rrggbb, or the template's default when the value is not a colour. */
const accentFor = (kind: HtmlTemplateKind, accent: string) => normaliseAccent(accent) ?? htmlTemplateInfo[kind].accent;

/** A darker shade of a #rrggbb colour (the far end of Bold's gradient). */
export function darkenAccent(hex: string, amount = 0.4): string {
  const channels = [1, 3, 5].map((at) => Math.round(Number.parseInt(hex.slice(at, at + 2), 16) * (1 - amount)));
  return `#${channels.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

const FONT = 'font-family:Arial,Helvetica,sans-serif;';
const TEXT_STYLE = `margin:0 0 16px;${FONT}font-size:16px;line-height:24px;color:#374151;`;

/** The pieces every template shares, each already escaped. */
interface Parts {
  accent: string;
  trackName: string;
  genre: string;
  artist: string;
  /** The track link for an href, or null when it is not an http(s) link (no button then). */
  trackUrl: string | null;
  greeting: string;
  description: string;
  socials: string;
  footer: string;
}

function partsOf(input: HtmlTemplateInput, accent: string): Parts {
  const paragraphs = input.description
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  const links = input.social_links.filter((link) => isHttpLink(link.url));
  return {
    accent,
    trackName: escapeHtml(input.track_name.trim()),
    genre: escapeHtml(genreLabel(input.genre.trim())),
    artist: escapeHtml(input.artist_name.trim()),
    trackUrl: isHttpLink(input.track_url) ? escapeHtml(input.track_url.trim()) : null,
    // Filled per recipient by renderEmail.
    greeting: `<p style="${TEXT_STYLE}">Hi [CONTACT_NAME],</p>`,
    description: paragraphs.map((paragraph) => `<p style="${TEXT_STYLE}">${escapeHtmlLines(paragraph)}</p>`).join('\n'),
    socials: links.length ? `<p style="margin:0 0 16px;${FONT}font-size:14px;line-height:20px;color:#6b7280;">${socialLinksHtml(links, accent)}</p>` : '',
    footer: unsubscribeFooterHtml(),
  };
}

/** A bulletproof button: a padded link inside a coloured cell, so it shows even where CSS padding on <a> is dropped. */
function button(href: string, label: string, color: string, align: 'left' | 'center' = 'left'): string {
  return [
    // align="center" centres the table; align="left" would float it, so left is the default flow.
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0"${align === 'center' ? ' align="center"' : ''} style="margin:8px ${align === 'center' ? 'auto' : '0'} 24px;">`,
    `<tr><td align="center" bgcolor="${color}" style="border-radius:6px;background-color:${color};">`,
    `<a href="${href}" style="display:inline-block;padding:12px 28px;${FONT}font-size:16px;font-weight:bold;line-height:20px;color:#ffffff;text-decoration:none;border-radius:6px;">${label}</a>`,
    '</td></tr>',
    '</table>',
  ].join('\n');
}

const listenLabel = (parts: Parts) => (parts.trackName ? `Listen to ${parts.trackName}` : 'Listen now');

function signOff(parts: Parts, closing: string): string {
  return `<p style="${TEXT_STYLE}">${closing}${parts.artist ? `<br>\n<strong>${parts.artist}</strong>` : ''}</p>`;
}

/** The document around a 600px column: a full-width background table that centres it. */
function emailDocument(title: string, background: string, column: string, columnStyle: string): string {
  return htmlDocument(
    [
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${background}" style="width:100%;background-color:${background};">`,
      '<tr><td align="center" style="padding:24px 12px;">',
      `<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;${columnStyle}">`,
      column,
      '</table>',
      '</td></tr>',
      '</table>',
    ].join('\n'),
    { title, bodyStyle: `margin:0;padding:0;background-color:${background};` },
  );
}

/** Minimal: a clean white card, a thin accent rule on top, the accent on the button and links. */
function minimal(parts: Parts): string {
  const column = [
    `<tr><td height="4" bgcolor="${parts.accent}" style="height:4px;font-size:0;line-height:0;background-color:${parts.accent};border-radius:8px 8px 0 0;">&nbsp;</td></tr>`,
    '<tr><td style="padding:32px 32px 24px;">',
    parts.trackName ? `<h1 style="margin:0 0 24px;${FONT}font-size:22px;line-height:28px;color:#111827;">${parts.trackName}</h1>` : '',
    parts.greeting,
    parts.description,
    parts.trackUrl ? button(parts.trackUrl, listenLabel(parts), parts.accent) : '',
    signOff(parts, 'Best,'),
    parts.socials,
    parts.footer,
    '</td></tr>',
  ];
  return emailDocument(parts.trackName, '#f4f4f5', column.filter(Boolean).join('\n'), 'background-color:#ffffff;border:1px solid #e5e7eb;border-radius:8px;');
}

/** Bold: a gradient header from the accent to a darker shade, the track title big and white. */
function bold(parts: Parts): string {
  const dark = darkenAccent(parts.accent);
  const byline = [parts.artist && `by ${parts.artist}`, parts.genre].filter(Boolean).join(' &middot; ');
  const column = [
    `<tr><td align="center" bgcolor="${parts.accent}" style="padding:48px 32px;background-color:${parts.accent};background-image:linear-gradient(135deg,${parts.accent} 0%,${dark} 100%);border-radius:12px 12px 0 0;">`,
    `<p style="margin:0 0 8px;${FONT}font-size:13px;line-height:18px;letter-spacing:2px;text-transform:uppercase;color:#ffffff;">New demo</p>`,
    parts.trackName ? `<h1 style="margin:0;${FONT}font-size:36px;line-height:42px;font-weight:800;color:#ffffff;">${parts.trackName}</h1>` : '',
    byline ? `<p style="margin:12px 0 0;${FONT}font-size:16px;line-height:22px;color:#ffffff;">${byline}</p>` : '',
    '</td></tr>',
    '<tr><td style="padding:32px;background-color:#ffffff;border-radius:0 0 12px 12px;">',
    parts.greeting,
    parts.description,
    parts.trackUrl ? button(parts.trackUrl, listenLabel(parts), parts.accent, 'center') : '',
    signOff(parts, 'Cheers,'),
    parts.socials,
    parts.footer,
    '</td></tr>',
  ];
  return emailDocument(parts.trackName, '#111827', column.filter(Boolean).join('\n'), '');
}

/** Professional: a business letter with an accent header bar, a details table and a Listen button. */
function professional(parts: Parts): string {
  const details = [
    ['Track', parts.trackName],
    ['Genre', parts.genre],
    ['Artist', parts.artist],
  ].filter(([, value]) => value);
  const detailRows = details.map(
    ([label, value]) =>
      `<tr><td width="120" style="padding:10px 12px;${FONT}font-size:14px;line-height:20px;font-weight:bold;color:#374151;border-bottom:1px solid #e5e7eb;background-color:#f9fafb;">${label}</td>` +
      `<td style="padding:10px 12px;${FONT}font-size:14px;line-height:20px;color:#111827;border-bottom:1px solid #e5e7eb;">${value}</td></tr>`,
  );
  const column = [
    `<tr><td bgcolor="${parts.accent}" style="padding:20px 32px;background-color:${parts.accent};">`,
    `<p style="margin:0;${FONT}font-size:18px;line-height:24px;font-weight:bold;color:#ffffff;">Demo Submission</p>`,
    parts.artist ? `<p style="margin:4px 0 0;${FONT}font-size:14px;line-height:20px;color:#ffffff;">${parts.artist}</p>` : '',
    '</td></tr>',
    '<tr><td style="padding:32px;background-color:#ffffff;">',
    parts.greeting,
    parts.description,
    details.length
      ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;margin:8px 0 24px;border:1px solid #e5e7eb;border-bottom:0;">\n${detailRows.join('\n')}\n</table>`
      : '',
    parts.trackUrl ? button(parts.trackUrl, 'Listen', parts.accent) : '',
    signOff(parts, 'Kind regards,'),
    parts.socials,
    parts.footer,
    '</td></tr>',
  ];
  return emailDocument(parts.trackName, '#f3f4f6', column.filter(Boolean).join('\n'), 'background-color:#ffffff;border:1px solid #d1d5db;');
}

const builders = { minimal, bold, professional } as const;

/**
 * A complete email document for Minimal, Bold or Professional: tables and inline CSS (renders in Gmail on
 * phone and desktop), values escaped, [CONTACT_NAME] in the greeting, {{UNSUBSCRIBE_FOOTER}} filled.
 */
export function buildHtmlTemplate(kind: Exclude<HtmlTemplateKind, 'custom'>, input: HtmlTemplateInput): string {
  return builders[kind](partsOf(input, accentFor(kind, input.accent)));
}

/** Custom HTML's starting document: a small valid email the artist edits. */
export function customHtmlStarter(input: HtmlTemplateInput): string {
  const parts = partsOf(input, accentFor('custom', input.accent));
  const column = [
    '<tr><td style="padding:24px;">',
    parts.greeting,
    parts.description || `<p style="${TEXT_STYLE}">Write your message here.</p>`,
    parts.trackUrl ? `<p style="${TEXT_STYLE}"><a href="${parts.trackUrl}" style="color:${parts.accent};font-weight:bold;">${listenLabel(parts)}</a></p>` : '',
    signOff(parts, 'Best,'),
    parts.socials,
    parts.footer,
    '</td></tr>',
  ];
  return emailDocument(parts.trackName, '#ffffff', column.filter(Boolean).join('\n'), 'background-color:#ffffff;');
}
