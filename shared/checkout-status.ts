import * as z from 'zod/mini';
import { calendarDateSchema } from './calendar-date';

// The id helpers are zod-free, so the success page can show a reference without loading zod.
export { CHECKOUT_SESSION_ID_PATTERN, orderReference } from './order-reference';

/**
 * `GET /functions/v1/checkout-status`: the minimum the success page needs, never personal data.
 * `in_review`: paid but not at our prices, held for the merchant (never "Payment Successful!");
 * `unpaid`: a delayed method still pending; `failed`: the bank refused it, the order cancelled.
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
