/**
 * A user template's card text (spec §2 template cards). Its own module, free of the email renderer
 * (html-to-text), so the compose Lambda, which only saves and lists templates, does not load it.
 */
export const USER_TEMPLATE_DESCRIPTION = 'Your saved template';
const DESCRIPTION_MAX = 120;
const GREETING = /^(hi|hello|hey|dear|hiya|greetings)\b/i;

/** The body's first line that is not a greeting, shortened to fit the card. */
export function userTemplateDescription(body: string): string {
  const lines = body
    .replace(/<[^>]*>/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '' && !/^\{\{\w+\}\}$/.test(line));
  const line = lines.find((candidate) => !GREETING.test(candidate)) ?? lines[0];
  if (!line) return USER_TEMPLATE_DESCRIPTION;
  return line.length <= DESCRIPTION_MAX ? line : `${line.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
}
