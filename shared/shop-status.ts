import * as z from 'zod/mini';
import { calendarDateSchema } from './calendar-date';

/**
 * How the shop takes orders: `open` (card payment through Stripe Checkout), `paused` (no orders;
 * the page shows the message and disables checkout), `requests` (order requests without payment,
 * answered by the merchant).
 */
export const SHOP_MODES = ['open', 'paused', 'requests'] as const;
export type ShopMode = (typeof SHOP_MODES)[number];

/** A pause or requests message is one short paragraph on the page. */
export const SHOP_MESSAGE_MAX_LENGTH = 300;

/**
 * The answer of `GET /functions/v1/shop-status`: the mode, the merchant's message if any, and,
 * when the merchant limits the bottles per dispatch day, `dispatchDate`: the first dispatch day an
 * order placed now can still go on (the calendar's, or a later one when that is full), or null
 * when none within 8 weeks has room. Absent, the calendar's day is the day.
 */
export const shopStatusSchema = z.object({
  mode: z.enum(SHOP_MODES),
  message: z.optional(z.string()),
  dispatchDate: z.optional(z.nullable(calendarDateSchema)),
});
export type ShopStatus = z.infer<typeof shopStatusSchema>;
