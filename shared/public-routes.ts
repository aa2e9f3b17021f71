// The shop's public API, one entry a route (ADR 0050), read by infra, the WAF, the local router, the
// handlers and the web client. The paths are a public contract (Stripe's webhook endpoint): never change
// one. Schemas live apart (public-route-schemas.ts) so what needs only a path loads no zod.

/** The API's root on the site's origin (the stack's `ApiUrl` output is the site's URL and this). */
export const PUBLIC_API_ROOT = '/functions/v1';

/** What every API path starts with, the admin's too; CloudFront sends these to the API unchanged. */
export const PUBLIC_API_PREFIX = `${PUBLIC_API_ROOT}/`;

/** The pattern of CloudFront's behaviour (and the local server's proxy) for the whole API. */
export const PUBLIC_API_PATH_PATTERN = `${PUBLIC_API_PREFIX}*`;

/**
 * API Gateway's throttle class (limits in infra/lib/constructs/checkout-api.ts): `checkout` public
 * and costly, `read` one small read, `webhook` Stripe's, `write` a correction that emails.
 */
export type ThrottleClass = 'checkout' | 'read' | 'webhook' | 'write';

/** The route's per-client WAF limit (edge-stack.ts); `exempt`: Stripe bursts from a few addresses. */
export type WafScope = 'checkout' | 'order-page' | 'site' | 'exempt';

export interface PublicRoute {
  method: 'GET' | 'POST';
  path: string;
  throttle: ThrottleClass;
  waf: WafScope;
}

// To add a route: one entry here, its schemas in public-route-schemas.ts, its function in infra's
// and the local router's handler maps (both typed by these names, so neither compiles without it).
export const PUBLIC_API_ROUTES = {
  createCheckout: {
    method: 'POST',
    path: '/functions/v1/create-checkout',
    throttle: 'checkout',
    waf: 'checkout',
  },
  checkoutStatus: { method: 'GET', path: '/functions/v1/checkout-status', throttle: 'read', waf: 'site' },
  stripeWebhook: { method: 'POST', path: '/functions/v1/stripe-webhook', throttle: 'webhook', waf: 'exempt' },
  shopStatus: { method: 'GET', path: '/functions/v1/shop-status', throttle: 'read', waf: 'site' },
  /** The customer's order page (ADR 0037): its read, `?token=…` (never a path the access log keeps). */
  orderPage: { method: 'GET', path: '/functions/v1/order-page', throttle: 'checkout', waf: 'order-page' },
  /** Its correction, the token in the body. */
  orderPageAddress: {
    method: 'POST',
    path: '/functions/v1/order-page/address',
    throttle: 'write',
    waf: 'order-page',
  },
  /** A standing order's change from its page (ADR 0059): skip, quantity, pause, resume, cancel; the token in the body. */
  orderPageStandingOrder: {
    method: 'POST',
    path: '/functions/v1/order-page/standing-order',
    throttle: 'write',
    waf: 'order-page',
  },
} as const satisfies Record<string, PublicRoute>;

export type PublicRouteName = keyof typeof PUBLIC_API_ROUTES;

/** Every route's name, in the table's order. */
export function publicRouteNames(): PublicRouteName[] {
  return Object.keys(PUBLIC_API_ROUTES).filter((name): name is PublicRouteName =>
    Object.hasOwn(PUBLIC_API_ROUTES, name),
  );
}

/** The header carrying the page's per-attempt id, so a double-click or retry reuses one session. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
