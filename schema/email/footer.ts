/**
 * The §5 unsubscribe footer, shared by the template variables ({{UNSUBSCRIBE_FOOTER}}), the HTML templates
 * and renderEmail (which adds it when a body has no unsubscribe link). Kept apart from render.ts so the
 * web bundle can use it without html-to-text.
 */
import { escapeHtml } from './escape';

/** Where the recipient's unsubscribe link goes; filled with the recipient's own URL when rendered. */
export const UNSUBSCRIBE_URL_PLACEHOLDER = '[UNSUBSCRIBE_URL]';

/** Spec §5 footer texts. */
export const UNSUBSCRIBE_FOOTER_TEXT = "You received this email because you're a contact.";
export const UNSUBSCRIBE_LINK_TEXT = 'Unsubscribe from future emails';

/** [UNSUBSCRIBE_URL] as the placeholders are matched: any case, a space or an underscore between the words. */
export const UNSUBSCRIBE_URL_SOURCE = 'unsubscribe[ _]url';
export const hasUnsubscribeLink = (body: string) => new RegExp(`\\[${UNSUBSCRIBE_URL_SOURCE}\\]`, 'i').test(body);

/** The footer of a text part: the sentence, then the link on its own line. */
export function unsubscribeFooterText(url: string = UNSUBSCRIBE_URL_PLACEHOLDER): string {
  return `${UNSUBSCRIBE_FOOTER_TEXT}\n${UNSUBSCRIBE_LINK_TEXT}: ${url}`;
}

/** The footer of an HTML email: a small grey paragraph with the link (the URL is escaped here). */
export function unsubscribeFooterHtml(url: string = UNSUBSCRIBE_URL_PLACEHOLDER): string {
  return (
    '<p style="margin:24px 0 0;font-family:Arial,Helvetica,sans-serif;font-size:12px;line-height:18px;color:#6b7280;">' +
    `${escapeHtml(UNSUBSCRIBE_FOOTER_TEXT)} ` +
    `<a href="${escapeHtml(url)}" style="color:#6b7280;text-decoration:underline;">${escapeHtml(UNSUBSCRIBE_LINK_TEXT)}</a>` +
    '</p>'
  );
}
