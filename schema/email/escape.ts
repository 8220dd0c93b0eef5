/**
 * HTML escaping for values put into email HTML: safe in element content and in quoted attribute values
 * (href="…", alt='…'). Pure, so the web bundle can use it.
 */
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char);
}

/** Escaped text whose line breaks show in HTML (a description typed with Enter). */
export function escapeHtmlLines(value: string): string {
  return escapeHtml(value.replace(/\r\n?/g, '\n')).replace(/\n/g, '<br>\n');
}
