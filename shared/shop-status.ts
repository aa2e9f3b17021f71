import * as z from 'zod/mini';
import { calendarDateSchema } from './calendar-date';

/** How the shop takes orders: `open` (Stripe Checkout), `paused` (message shown), `requests` (unpaid). */
export const SHOP_MODES = ['open', 'paused', 'requests'] as const;
export type ShopMode = (typeof SHOP_MODES)[number];

/** A pause or requests message is one short paragraph on the page. */
export const SHOP_MESSAGE_MAX_LENGTH = 300;

/**
 * `GET /functions/v1/shop-status`: the mode, the message, and with a capacity limit `dispatchDate`,
 * the first day with room (null: none within 8 weeks; absent: the calendar's day).
 */
export const shopStatusSchema = z.object({
  mode: z.enum(SHOP_MODES),
  message: z.optional(z.string()),
  dispatchDate: z.optional(z.nullable(calendarDateSchema)),
});
export type ShopStatus = z.infer<typeof shopStatusSchema>;
