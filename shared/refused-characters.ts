// The characters no text the shop takes may hold, zod-free: the checkout's fields and the shop's
// pause message refuse the same ones, so nothing the checkout refuses reaches a screen another way.

/**
 * Refused in every field: they break headers, logs and packing slips, or hide or reorder text
 * (controls, format characters such as bidi overrides, separators, default-ignorables, noncharacters,
 * the braille blank). Property escapes rather than a list, so no member of a class is missed.
 */
const INVISIBLE_OR_CONTROL = String.raw`\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\u2800`;
export const FORBIDDEN_CHARS = new RegExp(`[${INVISIBLE_OR_CONTROL}]`, 'u');
// The address is the one multi-line field (a textarea): line feeds are allowed there, nothing else.
export const FORBIDDEN_CHARS_EXCEPT_LF = new RegExp(`(?!\\n)[${INVISIBLE_OR_CONTROL}]`, 'u');

/** A lone UTF-16 surrogate: JSON carries it but Stripe's SDK cannot URL-encode it (URIError). */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** U+FFFD, a decoder's mark for bytes in the wrong charset: storing it would print a mangled name. */
export const REPLACEMENT_CHARACTER = /\ufffd/;

/** Whether one-line text holds malformed Unicode or a control, format or invisible character. */
export function hasRefusedCharacters(value: string): boolean {
  return LONE_SURROGATE.test(value) || REPLACEMENT_CHARACTER.test(value) || FORBIDDEN_CHARS.test(value);
}
