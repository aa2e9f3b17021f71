/** Checkout Session ids as Stripe makes them: `cs_test_...` or `cs_live_...`, letters and digits. */
export const CHECKOUT_SESSION_ID_PATTERN = /^cs_(test|live)_[A-Za-z0-9]{10,200}$/;

/** The customer-facing reference: the Checkout Session id's last 12 characters. */
export function orderReference(sessionId: string): string {
  return sessionId.slice(-12);
}

/** The reference as people read it: a stored one as it is, a session id as its last 12, case kept. */
export function formatReference(idOrReference: string): string {
  return CHECKOUT_SESSION_ID_PATTERN.test(idOrReference) ? orderReference(idOrReference) : idOrReference;
}

/** A reference folded to one spelling (lower case, O as 0, I and L as 1), so look-alikes are all found. */
export function foldReference(reference: string): string {
  return reference.toLowerCase().replace(/o/g, '0').replace(/[il]/g, '1');
}
