/** Checkout Session ids as Stripe makes them: `cs_test_...` or `cs_live_...`, letters and digits. */
export const CHECKOUT_SESSION_ID_PATTERN = /^cs_(test|live)_[A-Za-z0-9]{10,200}$/;

/**
 * The customer-facing order reference: the last 12 characters of the Checkout Session id, as the
 * success page, the emails and the merchant notice all show it.
 */
export function orderReference(sessionId: string): string {
  return sessionId.slice(-12);
}
