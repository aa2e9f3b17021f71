import * as z from 'zod/mini';
import { calendarDateSchema } from './calendar-date';

// The id helpers are zod-free, so the success page can show a reference without loading zod.
export { CHECKOUT_SESSION_ID_PATTERN, orderReference } from './order-reference';

/**
 * The answer of `GET /functions/v1/checkout-status`: the minimum the success page needs, never
 * a name, address, phone or email. `total` is in pence, `dispatchDate` is `YYYY-MM-DD`.
 *
 * `status`: `paid` (the order is confirmed); `in_review` (the payment was received, but it does
 * not match our prices, so fulfilment holds it for the merchant to check: never "Payment
 * Successful!"); `unpaid` (complete, money not received yet: a delayed method, or none taken);
 * `failed` (complete, but the bank refused the delayed payment: nothing taken, the order cancelled);
 * `open` (not paid, still payable); `expired`.
 */
export const checkoutStatusSchema = z.object({
  status: z.enum(['paid', 'in_review', 'unpaid', 'failed', 'open', 'expired']),
  reference: z.string(),
  bottles: z.int(),
  total: z.int(),
  dispatchDate: calendarDateSchema,
  /**
   * The order's own page (`/order/<token>`, ADR 0047), for a placed order (paid, or with the bank)
   * once the webhook has recorded it; absent before that, and after the merchant revoked its link.
   */
  orderPage: z.optional(z.string().check(z.regex(/^\/order\/[A-Za-z0-9_-]{40,400}$/))),
});
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;
