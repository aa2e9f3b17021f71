import * as z from 'zod/mini';

/**
 * How the shop takes orders: `open` (card payment through Stripe Checkout), `paused` (no orders;
 * the page shows the message and disables checkout), `requests` (order requests without payment,
 * answered by the merchant).
 */
export const SHOP_MODES = ['open', 'paused', 'requests'] as const;
export type ShopMode = (typeof SHOP_MODES)[number];

/** A pause or requests message is one short paragraph on the page. */
export const SHOP_MESSAGE_MAX_LENGTH = 300;

/** The answer of `GET /functions/v1/shop-status`: the mode, and the merchant's message if any. */
export const shopStatusSchema = z.object({
  mode: z.enum(SHOP_MODES),
  message: z.optional(z.string()),
});
export type ShopStatus = z.infer<typeof shopStatusSchema>;
