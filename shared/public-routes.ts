// The shop's public API, one entry a route (ADR 0050), as admin-routes.ts is the admin's: read by
// infra (the routes it deploys, their throttles, the WAF's scopes), the local router, the handlers
// (the method each answers, the path that picks it) and the web client (the paths it calls). The
// paths are a public contract (pages open in browsers, Stripe's webhook endpoint): never change one.
// The schemas of each route: public-route-schemas.ts, apart, so that nothing which needs only a
// path (the first load of `/`, every Lambda) carries zod schemas it never runs.

/** The API's root on the site's origin (the stack's `ApiUrl` output is the site's URL and this). */
export const PUBLIC_API_ROOT = '/functions/v1';

/** What every API path starts with, the admin's too; CloudFront sends these to the API unchanged. */
export const PUBLIC_API_PREFIX = `${PUBLIC_API_ROOT}/`;

/** The pattern of CloudFront's behaviour (and the local server's proxy) for the whole API. */
export const PUBLIC_API_PATH_PATTERN = `${PUBLIC_API_PREFIX}*`;

/**
 * How hard API Gateway throttles a route, shared by all clients (the limits of each class:
 * infra/lib/constructs/checkout-api.ts). `checkout`: public and costly (a Stripe call, an order
 * opened by a token); `read`: one small read a page load; `webhook`: Stripe's deliveries;
 * `write`: a customer's correction, which writes an order and sends an email.
 */
export type ThrottleClass = 'checkout' | 'read' | 'webhook' | 'write';

/**
 * Which per-client WAF limit counts the route (infra/lib/edge-stack.ts). `checkout` and
 * `order-page` have their own limit on top of the site-wide one; `site` only the site-wide one;
 * `exempt` none (Stripe delivers a burst of events from a handful of addresses).
 */
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
