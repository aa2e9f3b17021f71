// A tracking number as the merchant types or scans it, checked the same way by the admin page, the
// admin API and the CLI: one rule, in shared/.

/** Royal Mail's own (UPU S10): 2 letters, 9 digits, 2 letters, e.g. AB123456789GB. */
const S10 = /^[A-Z]{2}\d{9}[A-Z]{2}$/;
/**
 * The other shapes Click & Drop prints (Tracked 24/48 barcodes, Parcelforce's): letters and digits,
 * 8 to 30 of them, at least 6 digits. Lenient on purpose: a merchant's real label must never be
 * refused; a word, a blank or "n/a" is.
 */
const OTHER_LABEL = /^(?=(?:[A-Z]*\d){6})[A-Z0-9]{8,30}$/;

export const TRACKING_NUMBER_MESSAGE =
  'A tracking number is the one on the label: like AB123456789GB (2 letters, 9 digits, 2 letters), or 8 to 30 letters and digits.';

/**
 * The tracking number as stored and shown: capitals, no spaces or dashes (labels print it spaced),
 * or `undefined` when it is not one (blank, a word, punctuation).
 */
export function normaliseTrackingNumber(typed: string): string | undefined {
  const compact = typed.replace(/[\s-]+/g, '').toUpperCase();
  return S10.test(compact) || OTHER_LABEL.test(compact) ? compact : undefined;
}
