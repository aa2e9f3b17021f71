import { describe, expect, it } from 'vitest';
import { checkoutRequestSchema } from '../../shared/checkout-request';
import { createCheckoutResponseSchema } from '../../shared/checkout-response';
import { checkoutStatusSchema } from '../../shared/checkout-status';
import { orderPageCorrectionSchema, orderPageReadSchema, orderPageViewSchema } from '../../shared/order-page';
import { PUBLIC_ROUTE_SCHEMAS } from '../../shared/public-route-schemas';
import { PUBLIC_API_ROUTES, publicRouteNames } from '../../shared/public-routes';
import { shopStatusSchema } from '../../shared/shop-status';
import { standingOrderChangeSchema, standingOrderPageViewSchema } from '../../shared/standing-order-page';
import * as webAnswerSchemas from '../../web/src/lib/response-schemas';

describe('the public route table', () => {
  it('holds the public contract: each path, its method, throttle class and WAF scope', () => {
    expect(PUBLIC_API_ROUTES).toEqual({
      createCheckout: {
        method: 'POST',
        path: '/functions/v1/create-checkout',
        throttle: 'checkout',
        waf: 'checkout',
      },
      checkoutStatus: { method: 'GET', path: '/functions/v1/checkout-status', throttle: 'read', waf: 'site' },
      stripeWebhook: {
        method: 'POST',
        path: '/functions/v1/stripe-webhook',
        throttle: 'webhook',
        waf: 'exempt',
      },
      shopStatus: { method: 'GET', path: '/functions/v1/shop-status', throttle: 'read', waf: 'site' },
      orderPage: { method: 'GET', path: '/functions/v1/order-page', throttle: 'checkout', waf: 'order-page' },
      orderPageAddress: {
        method: 'POST',
        path: '/functions/v1/order-page/address',
        throttle: 'write',
        waf: 'order-page',
      },
      orderPageStandingOrder: {
        method: 'POST',
        path: '/functions/v1/order-page/standing-order',
        throttle: 'write',
        waf: 'order-page',
      },
    });
  });

  it('names its routes in its own order', () => {
    expect(publicRouteNames()).toEqual([
      'createCheckout',
      'checkoutStatus',
      'stripeWebhook',
      'shopStatus',
      'orderPage',
      'orderPageAddress',
      'orderPageStandingOrder',
    ]);
  });

  it("gives each route its schemas, the ones the shop's pages and handlers parse with", () => {
    expect(Object.keys(PUBLIC_ROUTE_SCHEMAS)).toEqual(publicRouteNames());
    expect(PUBLIC_ROUTE_SCHEMAS).toEqual({
      createCheckout: { request: checkoutRequestSchema, response: createCheckoutResponseSchema },
      checkoutStatus: { query: ['session_id'], response: checkoutStatusSchema },
      stripeWebhook: {},
      shopStatus: { response: shopStatusSchema },
      orderPage: { query: ['token'], response: orderPageReadSchema },
      orderPageAddress: { request: orderPageCorrectionSchema, response: orderPageViewSchema },
      orderPageStandingOrder: { request: standingOrderChangeSchema, response: standingOrderPageViewSchema },
    });
  });

  it('is what the web client checks the answers with (its chunk of answer schemas)', () => {
    expect(webAnswerSchemas.createCheckoutResponseSchema).toBe(PUBLIC_ROUTE_SCHEMAS.createCheckout.response);
    expect(webAnswerSchemas.checkoutStatusSchema).toBe(PUBLIC_ROUTE_SCHEMAS.checkoutStatus.response);
  });
});
