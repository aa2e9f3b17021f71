import * as z from 'zod/mini';

/** Checkout Session ids as Stripe makes them: `cs_test_...` or `cs_live_...`, letters and digits. */
export const CHECKOUT_SESSION_ID_PATTERN = /^cs_(test|live)_[A-Za-z0-9]{10,200}$/;

/** The customer-facing order reference: the last 12 characters of the Checkout Session id. */
export function orderReference(sessionId: string): string {
  return sessionId.slice(-12);
}

/**
 * The answer of `GET /functions/v1/checkout-status`: the minimum the success page needs, never
 * a name, address, phone or email. `total` is in pence, `dispatchDate` is `YYYY-MM-DD`.
 */
export const checkoutStatusSchema = z.object({
  status: z.enum(['paid', 'unpaid', 'open', 'expired']),
  reference: z.string(),
  bottles: z.int(),
  total: z.int(),
  dispatchDate: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
});
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;
