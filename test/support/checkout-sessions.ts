import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { buildSessionParams } from '../../lambdas/domain/checkout/create-checkout-session';
import { type CheckoutRequestBody, checkoutRequestSchema } from '../../shared/checkout-request';
import { debitDispatchDate, nextDispatchDate } from '../../shared/dispatch';
import { penceToPounds, quoteOrder } from '../../shared/pricing';
import { TEST_SHOP_ID } from './shop';

export interface SessionOptions {
  quantity?: 3 | 6 | 9;
  customer?: Partial<Pick<CheckoutRequestBody, 'name' | 'email' | 'phone' | 'address' | 'postcode'>>;
  /** The deployment that creates it (default TEST_SHOP_ID). */
  shopId?: string;
  /** Leave the shop's marker out of the metadata: a sale that is not ours. */
  notOurs?: boolean;
  /** An email the checkout no longer takes (`zoë@…`), as sessions made before it checked have. */
  uncheckedEmail?: string;
}

/** A customer whose details exercise encoding: non-ASCII, and HTML that must come out escaped. */
export const ZOE = {
  name: 'Zoë Brontë',
  phone: '07700 900123',
  address: 'Flat 2, 10 Downing Street\nLondon',
  postcode: 'sw1a 2aa',
} as const;

/**
 * Creates a Checkout Session in the simulator through the real SDK, with exactly the parameters
 * create-checkout sends (its own `buildSessionParams`), so fulfilment is tested on the sessions
 * production makes. Each gets a unique customer email, to find its messages in the SES stand-in.
 */
export async function createCheckoutSession(
  stripe: Stripe,
  options: SessionOptions = {},
): Promise<Stripe.Checkout.Session> {
  const quote = quoteOrder(options.quantity ?? 3);
  const input = checkoutRequestSchema.parse({
    ...ZOE,
    email: `zoe.${randomUUID().slice(0, 8)}@example.com`,
    ...options.customer,
    quantity: quote.bottles,
    subtotal: penceToPounds(quote.subtotalPence),
    shipping: penceToPounds(quote.shippingPence),
    total: penceToPounds(quote.totalPence),
  });
  const now = Date.now();
  const params = buildSessionParams({
    input,
    quote,
    siteUrl: 'http://shop.test',
    shopId: options.shopId ?? TEST_SHOP_ID,
    clientReferenceId: `ord_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    dispatchDate: nextDispatchDate(new Date(now)),
    debitDispatchDate: debitDispatchDate(new Date(now)),
    expiresAt: Math.floor(now / 1000) + 3_600,
  });
  if (options.uncheckedEmail !== undefined) params.customer_email = options.uncheckedEmail;
  if (options.notOurs) {
    const { shop: _marker, ...rest } = params.metadata ?? {};
    params.metadata = rest;
  }
  return stripe.checkout.sessions.create(params);
}
