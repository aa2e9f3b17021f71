// The characters no text the shop takes may hold, zod-free: the checkout's fields
// (checkout-request.ts) and the merchant's shop message (the pause notice customers read) refuse
// the same ones, so what the checkout would refuse never reaches a customer's screen another way.

/**
 * Characters refused in every field, one rule for the page and the server. They break headers,
 * logs and the merchant's packing slips, or hide or reorder text on screen and on a label:
 * controls (C0, DEL, C1); every format character (Cf: the zero-width space, joiners and marks,
 * bidi embeddings, overrides and isolates, the soft hyphen, the word joiner U+2060, the Mongolian
 * vowel separator,
 * the interlinear annotations U+FFF9–U+FFFB, the byte order mark, the tag characters
 * U+E0000–U+E007F); the line and paragraph separators; everything Unicode marks as ignorable by
 * default (it draws nothing: the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, variation
 * selectors); the noncharacters (U+FFFE, U+FFFF, ...); and the braille blank U+2800, a symbol
 * that prints as nothing. Property escapes rather than a list, so no member of a class is missed.
 */
const INVISIBLE_OR_CONTROL = String.raw`\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\u2800`;
export const FORBIDDEN_CHARS = new RegExp(`[${INVISIBLE_OR_CONTROL}]`, 'u');
// The address is the one multi-line field (a textarea): line feeds are allowed there, nothing else.
export const FORBIDDEN_CHARS_EXCEPT_LF = new RegExp(`(?!\\n)[${INVISIBLE_OR_CONTROL}]`, 'u');

/**
 * A UTF-16 surrogate without its partner: JSON can carry one (`"\ud800"`), but it is not text.
 * Stripe's SDK cannot URL-encode it (URIError) and no email could carry it.
 */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * U+FFFD, what a decoder puts where bytes were not text in its charset: "Zoë" sent in Latin-1 and
 * read as UTF-8 arrives as "Zo\ufffd". Nobody types it; storing it would print the mangled name.
 */
export const REPLACEMENT_CHARACTER = /\ufffd/;

/**
 * Whether `value` holds a character the shop refuses in one-line text: not well-formed Unicode
 * (a lone surrogate, U+FFFD), or a control, format, separator or invisible character.
 */
export function hasRefusedCharacters(value: string): boolean {
  return LONE_SURROGATE.test(value) || REPLACEMENT_CHARACTER.test(value) || FORBIDDEN_CHARS.test(value);
}
