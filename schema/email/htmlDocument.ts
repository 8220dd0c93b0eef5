/**
 * Spec §5's one rule for what counts as an HTML body, shared by renderEmail, the server's sanitizer and
 * the web (so the composer previews a body the way it will be sent). Pure.
 */

/** Spec §5: a body is HTML when it contains a doctype, an <html> or a <body> tag. */
export function isHtmlDocument(body: string): boolean {
  return /<!doctype\b|<(?:html|body)(?=[\s>/])/i.test(body);
}
