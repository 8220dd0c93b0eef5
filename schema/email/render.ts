/**
 * A recipient's final email from a campaign's subject and body: one implementation for the per-recipient
 * preview and for sending. Server only (html-to-text); the web imports placeholders.ts, footer.ts and
 * htmlTemplates.ts instead.
 */
import { convert, type HtmlToTextOptions } from 'html-to-text';
import type { RenderedEmail } from '../api/campaigns';
import { escapeHtml } from './escape';
import { hasUnsubscribeLink, unsubscribeFooterHtml, unsubscribeFooterText } from './footer';
import { htmlDocument, insertBeforeBodyEnd, isHtmlDocument } from './htmlDocument';
import { fillPlaceholders, type PlaceholderContext } from './placeholders';

export { UNSUBSCRIBE_URL_PLACEHOLDER, UNSUBSCRIBE_FOOTER_TEXT, UNSUBSCRIBE_LINK_TEXT } from './footer';
/** Spec §5: a body is HTML when it contains a doctype, an <html> or a <body> tag. */
export { isHtmlDocument } from './htmlDocument';

/** An http(s) link in running text; trailing punctuation is trimmed off afterwards. */
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/gi;

/**
 * Splits a matched URL from punctuation that ends the sentence around it: 'see https://x.com/a).' links
 * 'https://x.com/a'. A closing bracket stays when the URL opened one ('…/Track_(Remix)').
 */
function trimTrailingPunctuation(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url[end - 1];
    const body = url.slice(0, end);
    const unbalanced = (open: string, close: string) => body.split(close).length > body.split(open).length;
    if (last !== undefined && '.,;:!?'.includes(last)) end -= 1;
    else if (last === ')' && unbalanced('(', ')')) end -= 1;
    else if (last === ']' && unbalanced('[', ']')) end -= 1;
    else return url.slice(0, end);
  }
}

/** Escaped text with its http(s) URLs as links. */
function linkify(text: string): string {
  let html = '';
  let from = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = trimTrailingPunctuation(match[0]);
    // 'https://' alone is no link.
    if (/^https?:\/\/$/i.test(url)) continue;
    html += escapeHtml(text.slice(from, match.index));
    html += `<a href="${escapeHtml(url)}" style="color:#4f46e5;">${escapeHtml(url)}</a>`;
    from = match.index + url.length;
  }
  return html + escapeHtml(text.slice(from));
}

/** Plain text as an HTML document: escaped, http(s) links made clickable, line breaks kept. */
export function plainTextToHtml(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').map(linkify);
  return htmlDocument(`<div style="max-width:600px;">${lines.join('<br>\n')}</div>`, {
    bodyStyle: 'margin:0;padding:16px;background-color:#ffffff;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.6;color:#1f2937;',
  });
}

const TEXT_OPTIONS: HtmlToTextOptions = {
  // Mail clients wrap; hard breaks would split long links.
  wordwrap: false,
  formatters: {
    // Layout tables read as lines: the cells of a row side by side, separated by a space.
    layoutCell: (elem, walk, builder) => {
      walk(elem.children, builder);
      builder.addInline(' ');
    },
  },
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, linkBrackets: ['(', ')'] } },
    { selector: 'img', format: 'skip' },
    { selector: 'table', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'tr', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'td', format: 'layoutCell' },
    { selector: 'th', format: 'layoutCell' },
    ...(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const).map((selector) => ({ selector, options: { uppercase: false } })),
  ],
};

/** The text/plain part of an HTML email (links as 'text (url)'). */
export function htmlToText(html: string): string {
  return convert(html, TEXT_OPTIONS).trim();
}

export interface RenderOptions {
  /** This recipient's unsubscribe link (https). The preview passes a harmless stand-in. */
  unsubscribeUrl: string;
}

/**
 * Placeholders filled (escaped in HTML), plain text turned into HTML, [UNSUBSCRIBE_URL] set, and the §5
 * unsubscribe footer added when the body has no unsubscribe link of its own.
 */
export function renderEmail(email: { subject: string; body: string }, context: PlaceholderContext, options: RenderOptions): RenderedEmail {
  // A header carries no line breaks: a value with one could otherwise start a new header.
  const subject = fillPlaceholders(email.subject, context, 'text')
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim();
  // Decided on the body as written, so a contact field containing '[UNSUBSCRIBE_URL]' changes nothing.
  const needsFooter = !hasUnsubscribeLink(email.body);
  const extras = { unsubscribeUrl: options.unsubscribeUrl };

  if (isHtmlDocument(email.body)) {
    const filled = fillPlaceholders(email.body, context, 'html', extras);
    const html = needsFooter ? insertBeforeBodyEnd(filled, unsubscribeFooterHtml(options.unsubscribeUrl)) : filled;
    return { subject, html, text: htmlToText(html) };
  }

  // Plain text: filled as text, then escaped whole by plainTextToHtml (values included).
  const filled = fillPlaceholders(email.body, context, 'text', extras);
  if (!needsFooter) return { subject, html: plainTextToHtml(filled), text: filled };
  return {
    subject,
    html: insertBeforeBodyEnd(plainTextToHtml(filled), unsubscribeFooterHtml(options.unsubscribeUrl)),
    text: `${filled.trimEnd()}\n\n${unsubscribeFooterText(options.unsubscribeUrl)}`,
  };
}
