/** Checkout Session ids as Stripe makes them: `cs_test_...` or `cs_live_...`, letters and digits. */
export const CHECKOUT_SESSION_ID_PATTERN = /^cs_(test|live)_[A-Za-z0-9]{10,200}$/;

/**
 * The customer-facing order reference: the last 12 characters of the Checkout Session id, as the
 * success page, the emails and the merchant notice all show it.
 */
export function orderReference(sessionId: string): string {
  return sessionId.slice(-12);
}

/**
 * The reference as a person reads it, the one form for the success page, emails, packing slips,
 * the Click & Drop file and the admin: a stored reference as it is, a Checkout Session id as its
 * last 12 characters. Case is kept, as the spec's success page shows it; the admin finds a
 * reference typed in any case, so a customer reading it aloud need not say which letters are capitals.
 */
export function formatReference(idOrReference: string): string {
  return CHECKOUT_SESSION_ID_PATTERN.test(idOrReference) ? orderReference(idOrReference) : idOrReference;
}

/**
 * A reference as a person may read it, folded to one spelling: lower case, O as 0, and I and L
 * as 1 (i, l and 1 look alike in most faces; so do o and 0). Two references with one folded form
 * cannot be told apart by ear or by a careless eye, so a search by it lists them all.
 */
export function foldReference(reference: string): string {
  return reference.toLowerCase().replace(/o/g, '0').replace(/[il]/g, '1');
}
