/**
 * The character rules every text coming in goes through, without zod (the landing page imports them):
 * - addresses (emails, websites, links) refuse what a reader cannot see or a mail system reads differently
 *   (hasInvisibleOrControl): 'a\u200b@label.example' looks like 'a@label.example' but Gmail refuses or
 *   misroutes it, and 'lab\u00adel.com' opens 'label.com';
 * - free text (names, notes, descriptions, subjects, bodies) refuses only what cannot be stored or sent
 *   (hasNulOrLoneSurrogate): a NUL ends the text for C libraries and mail systems, and half a surrogate
 *   pair is no character at all (it cannot be written as UTF-8).
 * The zod helper for free-text fields is `storableText` in ./common.
 */

/**
 * Control characters (Cc: U+0000–U+001F, U+007F–U+009F), format characters (Cf: soft hyphen, zero-width
 * space and joiners, direction marks and overrides, word joiner, BOM …), whitespace other than the plain
 * space (no-break, ideographic, en/em spaces, line and paragraph separators), and unpaired surrogates.
 * With the `u` flag a surrogate pair is one code point (an emoji), so only an unpaired half matches \p{Cs}.
 * The plain space is left to each rule: it is visible, and an address refuses it with its usual message.
 */
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

/** A NUL, or half of a surrogate pair without its other half. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const NUL_OR_LONE_SURROGATE = /[\u0000\p{Cs}]/u;

/** Whether a text holds a control, format (Cf), non-plain-space whitespace or unpaired surrogate character. */
export const hasInvisibleOrControl = (value: string) => INVISIBLE_OR_CONTROL.test(value);

/** Whether a text holds a character that cannot be stored: NUL or an unpaired surrogate. */
export const hasNulOrLoneSurrogate = (value: string) => NUL_OR_LONE_SURROGATE.test(value);

/** The refusals as a row's list of problems words them, without a full stop ('Row 3: Missing email address, Row 4: …'). */
export const characterReasons = {
  /** An email address with a character hasInvisibleOrControl finds (every form and import that takes an address). */
  invisibleInEmail: 'Email contains an invisible or control character',
  /** A free-text field with a character hasNulOrLoneSurrogate finds, named as the form names it ('Name', 'Notes'). */
  cannotStore: (field: string) => `${field} contains a character that cannot be stored`,
} as const;

/** The same refusals as the sentence a form or the API answers with. */
export const characterMessages = {
  invisibleInEmail: `${characterReasons.invisibleInEmail}.`,
  cannotStore: (field: string) => `${characterReasons.cannotStore(field)}.`,
} as const;
