import * as z from 'zod/mini';

/**
 * The answers of `POST /functions/v1/create-checkout` that the page acts on: a payment page to
 * open (`url`), or an order request accepted without one (`status: 'received'`, shown as the
 * Order-received view with the request's `reference`). Anything else is a failure. The reference
 * is optional for the page only: a page deployed before its API must still show the request taken.
 */
export const createCheckoutResponseSchema = z.union([
  z.object({ url: z.url({ protocol: /^https?$/ }), sessionId: z.string().check(z.minLength(1)) }),
  z.object({ status: z.literal('received'), reference: z.optional(z.string()) }),
]);

/** The 409 answer: the browser's totals differ from the server's quote. */
export const quoteMismatchResponseSchema = z.object({
  error: z.string(),
  quote: z.object({ subtotal: z.number(), shipping: z.number(), total: z.number() }),
});
