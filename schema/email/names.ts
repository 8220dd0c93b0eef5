/** How a contact is greeted: pure, shared by the writer, the preview and the placeholders. */

/** Length in code points: an accented or non-Latin letter counts once. */
export const codePoints = (text: string) => Array.from(text).length;

/** Words in front of a name that are not the name people are greeted by ('DJ Kessa Lune' → 'Kessa'). */
const NAME_PREFIXES = new Set(['dj', 'mc', 'dr', 'dr.', 'mr', 'mr.', 'mrs', 'mrs.', 'ms', 'ms.', 'miss', 'mx', 'mx.', 'the']);

/**
 * The name a person is greeted by: the first word that is not a title ('DJ Kessa Lune' → 'Kessa'),
 * or undefined when there is none of at least two letters ('J. Smith': one letter would match too much).
 */
export function firstNameOf(contactName: string): string | undefined {
  const words = contactName.trim().split(/\s+/);
  const first = words.find((word) => !NAME_PREFIXES.has(word.toLowerCase()));
  return first && codePoints(first.replace(/[^\p{L}\p{N}]/gu, '')) >= 2 ? first : undefined;
}
