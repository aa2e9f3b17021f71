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
const input = () => ({
  input: order,
  quote: quoteOrder(order.quantity),
  siteUrl: SITE_URL,
  shopId: 'LiveAquatics-test',
  clientReferenceId: 'ord_0123456789abcdef01234567',
  dispatchDate: '2026-11-23',
  debitDispatchDate: '2026-11-30',
  expiresAt: 1_795_000_000,
});
const params = () => buildSessionParams(input());

describe('buildSessionParams', () => {
  it('charges delivery as a fixed shipping rate named with its service, not a date a debit could not keep', () => {
    expect(params().shipping_options).toEqual([
      {
        shipping_rate_data: {
          type: 'fixed_amount',
          fixed_amount: { amount: 495, currency: 'gbp' },
          display_name: 'UK delivery by Royal Mail 1st Class',
        },
      },
    ]);
  });

  it('shows beside the pay button the dispatch day by card, the later one by Direct Debit, and the no-cancellation statement', () => {
    const message =
      'Dispatch on Monday 23 November by Royal Mail 1st Class; most orders arrive the next day. ' +
      'Paying by Bacs Direct Debit? We dispatch once your bank confirms the payment (up to 7 working days): expect dispatch on Monday 30 November. ' +
      'Freezing or extreme weather can delay dispatch. ' +
      'As live, perishable goods, Daphnia cannot be returned and the 14-day right to cancel does not apply.';

    expect(params().custom_text).toEqual({ submit: { message } });
    expect(message.length).toBeLessThanOrEqual(1200);
  });

  it('records both days in the metadata, the debit’s never before the card’s (a full day can move the card’s past it)', () => {
    const later = buildSessionParams({
      ...input(),
      dispatchDate: '2026-12-07',
      debitDispatchDate: '2026-11-30',
    });

    expect(params().metadata).toMatchObject({
      dispatch_date: '2026-11-23',
      debit_dispatch_date: '2026-11-30',
    });
    expect(later.metadata).toMatchObject({ dispatch_date: '2026-12-07', debit_dispatch_date: '2026-12-07' });
    expect(later.custom_text).toEqual({
      submit: { message: expect.stringContaining('expect dispatch on Monday 7 December.') },
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
