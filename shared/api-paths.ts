/** API routes, served on the site's own origin. The paths are a public contract: keep them exactly. */
export const API_PATHS = {
  createCheckout: '/functions/v1/create-checkout',
  checkoutStatus: '/functions/v1/checkout-status',
  stripeWebhook: '/functions/v1/stripe-webhook',
  shopStatus: '/functions/v1/shop-status',
} as const;

/** The header carrying the page's per-attempt id, so a double-click or retry reuses one session. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
