// The schemas of each public route (ADR 0050), by the names of public-routes.ts, apart from it so
// that a reader of paths loads no zod. The web client parses the answers with these very schemas
// and the handlers' tests hold each answer to them (test/shared/public-routes.test.ts).
import type * as z from 'zod/mini';
import { checkoutRequestSchema } from './checkout-request';
import { createCheckoutResponseSchema } from './checkout-response';
import { checkoutStatusSchema } from './checkout-status';
import { orderPageCorrectionSchema, orderPageReadSchema, orderPageViewSchema } from './order-page';
import type { PublicRouteName } from './public-routes';
import { shopStatusSchema } from './shop-status';
import { standingOrderChangeSchema, standingOrderPageViewSchema } from './standing-order-page';

export interface PublicRouteSchemas {
  /** A POST's JSON body; absent: the route reads a query (named in `query`) or nothing of ours. */
  request?: z.ZodMiniType;
  /** The query parameters a GET reads, checked by its handler. */
  query?: readonly string[];
  /** The JSON a success answers; absent: only the caller's own software reads it (Stripe's). */
  response?: z.ZodMiniType;
}

export const PUBLIC_ROUTE_SCHEMAS = {
  createCheckout: { request: checkoutRequestSchema, response: createCheckoutResponseSchema },
  // `cs_…`, checked against CHECKOUT_SESSION_ID_PATTERN before any call to Stripe.
  checkoutStatus: { query: ['session_id'], response: checkoutStatusSchema },
  // Stripe's own event, verified by its signature on the raw body; Stripe reads only the status.
  stripeWebhook: {},
  shopStatus: { response: shopStatusSchema },
  orderPage: { query: ['token'], response: orderPageReadSchema },
  orderPageAddress: { request: orderPageCorrectionSchema, response: orderPageViewSchema },
  orderPageStandingOrder: { request: standingOrderChangeSchema, response: standingOrderPageViewSchema },
} as const satisfies Record<PublicRouteName, PublicRouteSchemas>;
