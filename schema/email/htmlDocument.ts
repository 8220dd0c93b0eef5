/**
 * Spec §5's one rule for what counts as an HTML body, shared by renderEmail, the server's sanitizer and
 * the web (so the composer previews a body the way it will be sent). Pure.
 */

/** Spec §5: a body is HTML when it contains a doctype, an <html> or a <body> tag. */
export function isHtmlDocument(body: string): boolean {
  return /<!doctype\b|<(?:html|body)(?=[\s>/])/i.test(body);
}

/**
 * A complete email document around `body`: doctype, UTF-8, a phone viewport, an optional title and the
 * <body>'s inline style. The one head every generated email has (plain text, templates, fragments).
 */
export function htmlDocument(body: string, { title, bodyStyle }: { title?: string; bodyStyle?: string } = {}): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...(title === undefined ? [] : [`<title>${title}</title>`]),
    '</head>',
    bodyStyle === undefined ? '<body>' : `<body style="${bodyStyle}">`,
    body,
    '</body>',
    '</html>',
  ].join('\n');
}

/** `fragment` placed before the document's last </body>, or at the end when there is none. */
export function insertBeforeBodyEnd(html: string, fragment: string): string {
  const bodyEnd = [...html.matchAll(/<\/body\s*>/gi)].at(-1)?.index ?? -1;
  return bodyEnd === -1 ? `${html}\n${fragment}` : `${html.slice(0, bodyEnd)}${fragment}\n${html.slice(bodyEnd)}`;
}
