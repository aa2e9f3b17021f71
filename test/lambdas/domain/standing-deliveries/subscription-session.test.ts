import { describe, expect, it } from 'vitest';
import { buildSessionParams } from '../../../../lambdas/domain/checkout/create-checkout-session';
import { withStandingOrder } from '../../../../lambdas/domain/standing-deliveries/subscription-session';
import { checkoutRequestSchema } from '../../../../shared/checkout-request';
import { quoteOrder } from '../../../../shared/pricing';

// A standing order's Checkout Session parameters: the one-off's, turned into subscription mode.

const body = {
  name: 'Zoë Brontë',
  email: 'zoe@example.com',
  phone: '07700 900123',
  address: '10 Downing Street\nLondon',
  postcode: 'SW1A 2AA',
  quantity: 3,
  subtotal: 9.75,
  shipping: 4.95,
  total: 14.7,
};

function params(repeat?: 'weekly' | 'fortnightly') {
  const input = checkoutRequestSchema.parse(repeat ? { ...body, repeat } : body);
  const quote = quoteOrder(3);
  const oneOff = buildSessionParams({
    input,
    quote,
    siteUrl: 'https://shop.test',
    shopId: 'shop-test',
    clientReferenceId: 'ord_abc',
    dispatchDate: '2026-12-14',
    debitDispatchDate: '2026-12-21',
    expiresAt: 1_796_000_000,
    capacityHold: 'cabc.1796000000:3',
  });
  return { oneOff, params: withStandingOrder(oneOff, input, quote, '2026-12-14') };
}

describe('withStandingOrder', () => {
  it("leaves a one-off's parameters exactly as they were: the same object", () => {
    const { oneOff, params: same } = params();
    expect(same).toBe(oneOff);
    expect(same.mode).toBe('payment');
  });

  it('weekly: subscription mode, 3 x 325 pence and 1 x 495 pence every 1 week', () => {
    const { params: weekly } = params('weekly');
    const recurring = { interval: 'week', interval_count: 1 };
    expect(weekly).toMatchObject({
      mode: 'subscription',
      allowed_payment_method_types: ['card'],
      customer_email: 'zoe@example.com',
      client_reference_id: 'ord_abc',
      expires_at: 1_796_000_000,
      success_url: 'https://shop.test/success?session_id={CHECKOUT_SESSION_ID}',
      line_items: [
        { quantity: 3, price_data: { currency: 'gbp', unit_amount: 325, recurring } },
        { quantity: 1, price_data: { currency: 'gbp', unit_amount: 495, recurring } },
      ],
    });
    expect(weekly.shipping_options).toBeUndefined();
    expect(weekly.payment_intent_data).toBeUndefined();
  });

  it("carries the one-off's metadata with the repeat, reservation included, on the session and the subscription", () => {
    const { params: fortnightly } = params('fortnightly');
    const metadata = {
      shop: 'shop-test',
      order_version: '1',
      name: 'Zoë Brontë',
      phone: '07700 900123',
      address: '10 Downing Street\nLondon',
      postcode: 'SW1A 2AA',
      quantity: '3',
      dispatch_date: '2026-12-14',
      debit_dispatch_date: '2026-12-21',
      capacity_hold: 'cabc.1796000000:3',
      repeat: 'fortnightly',
    };
    expect(fortnightly.metadata).toEqual(metadata);
    expect(fortnightly.subscription_data?.metadata).toEqual(metadata);
    expect(fortnightly.line_items?.[0]?.price_data?.recurring).toEqual({
      interval: 'week',
      interval_count: 2,
    });
  });

  it('says by the pay button when each payment is taken and what it costs, and no Direct Debit', () => {
    const submit = params('weekly').params.custom_text?.submit;
    const message = typeof submit === 'object' && submit !== null ? submit.message : '';
    expect(message).toContain('First dispatch on Monday 14 December by Royal Mail 1st Class');
    expect(message).toContain('Then £14.70 is taken from your card every week at this time of day');
    expect(message).not.toContain('Direct Debit');
  });
});
