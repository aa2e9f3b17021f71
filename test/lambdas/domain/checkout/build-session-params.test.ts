import { describe, expect, it } from 'vitest';
import {
  buildSessionParams,
  stripeIdempotencyKey,
} from '../../../../lambdas/domain/checkout/create-checkout-session';
import { checkoutRequestSchema } from '../../../../shared/checkout-request';
import { quoteOrder } from '../../../../shared/pricing';
import { SITE_URL, validOrder } from '../../handlers/create-checkout/harness';

// The pure pieces of the domain: what the simulator cannot show back (the shipping rate's display
// name) and the idempotency key's shape.

const order = checkoutRequestSchema.parse(validOrder);
const params = () =>
  buildSessionParams({
    input: order,
    quote: quoteOrder(order.quantity),
    siteUrl: SITE_URL,
    shopId: 'LiveAquatics-test',
    clientReferenceId: 'ord_0123456789abcdef01234567',
    dispatchDate: '2026-11-23',
    expiresAt: 1_795_000_000,
  });

describe('buildSessionParams', () => {
  it('charges delivery as a fixed shipping rate named with the dispatch day', () => {
    expect(params().shipping_options).toEqual([
      {
        shipping_rate_data: {
          type: 'fixed_amount',
          fixed_amount: { amount: 495, currency: 'gbp' },
          display_name: 'UK delivery (dispatched Monday 23 November)',
        },
      },
    ]);
  });

  it('shows the dispatch day and the no-cancellation notice beside the pay button', () => {
    expect(params().custom_text).toEqual({
      submit: {
        message:
          'Dispatched Monday 23 November (freezing or extreme weather can delay dispatch). ' +
          'These are live animals: the 14-day right to cancel does not apply.',
      },
    });
  });

  it('is a pure function: the same input gives byte-identical parameters', () => {
    expect(JSON.stringify(params())).toBe(JSON.stringify(params()));
  });

  it('keeps personal data out of the PaymentIntent description, which Stripe shows widely', () => {
    const description = params().payment_intent_data?.description ?? '';

    expect(description).toBe('3 x Daphnia Magna (250ml), dispatch 2026-11-23');
  });
});

describe('stripeIdempotencyKey', () => {
  it('is prefixed, deterministic and within Stripe limits for the longest page key', () => {
    const longest = 'k'.repeat(255);

    const first = stripeIdempotencyKey(longest);

    expect(first.key).toMatch(/^checkout:[0-9a-f]{64}$/);
    expect(first.key.length).toBeLessThanOrEqual(255);
    expect(stripeIdempotencyKey(longest)).toEqual(first);
    expect(stripeIdempotencyKey(`${longest.slice(1)}j`).key).not.toBe(first.key);
  });
});
