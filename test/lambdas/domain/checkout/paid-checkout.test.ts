import { describe, expect, it } from 'vitest';
import { assessCheckoutSession } from '../../../../lambdas/domain/checkout/paid-checkout';
import { TEST_SHOP_ID } from '../../../support/shop';

/**
 * The fields of a retrieved session (expand: ['line_items']) that the assessment reads, for a
 * paid order of `quantity` bottles at our prices. Integration tests use real simulator sessions;
 * these pin each rule down on its own.
 */
function retrievedSession(quantity = 3) {
  return {
    id: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsT',
    object: 'checkout.session',
    livemode: false,
    created: 1_795_225_800,
    status: 'complete',
    payment_status: 'paid',
    amount_total: quantity * 325 + 495,
    currency: 'gbp',
    customer_email: 'zoe@example.com',
    customer_details: { email: 'zoe@example.com' },
    metadata: {
      shop: TEST_SHOP_ID,
      order_version: '1',
      name: 'Zoë Brontë',
      phone: '07700 900123',
      address: 'Flat 2\nLondon',
      postcode: 'SW1A 2AA',
      quantity: String(quantity),
      dispatch_date: '2026-11-23',
    },
    payment_intent: 'pi_test_123',
    shipping_cost: { amount_total: 495 },
    line_items: {
      has_more: false,
      data: [
        {
          quantity,
          amount_subtotal: quantity * 325,
          amount_total: quantity * 325,
          currency: 'gbp',
          price: { unit_amount: 325 },
        },
      ],
    },
  };
}
type Session = ReturnType<typeof retrievedSession>;
type LineItem = Session['line_items']['data'][number];

function withLineItem(session: Session, patch: Partial<LineItem>): Session {
  const [item] = session.line_items.data;
  if (!item) throw new Error('fixture without a line item');
  return { ...session, line_items: { ...session.line_items, data: [{ ...item, ...patch }] } };
}

describe('assessCheckoutSession', () => {
  it.each([3, 6, 9])('accepts a paid session of %i bottles at our prices', (quantity) => {
    // Act
    const assessment = assessCheckoutSession(retrievedSession(quantity), TEST_SHOP_ID);

    // Assess
    expect(assessment).toMatchObject({
      kind: 'payable',
      checkout: {
        sessionId: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsT',
        paymentIntentId: 'pi_test_123',
        quote: { bottles: quantity, totalPence: quantity * 325 + 495 },
        customer: {
          name: 'Zoë Brontë',
          email: 'zoe@example.com',
          phone: '07700 900123',
          postcode: 'SW1A 2AA',
        },
        promisedDispatchDate: '2026-11-23',
      },
    });
  });

  it('ignores sessions without our marker, whatever else they carry', () => {
    const base = retrievedSession();
    expect(assessCheckoutSession({ ...base, metadata: {} }, TEST_SHOP_ID)).toEqual({ kind: 'not-ours' });
    expect(assessCheckoutSession({ ...base, metadata: null }, TEST_SHOP_ID)).toEqual({ kind: 'not-ours' });
    expect(
      assessCheckoutSession({ ...base, metadata: { ...base.metadata, shop: 'other-shop' } }, TEST_SHOP_ID),
    ).toEqual({
      kind: 'not-ours',
    });
    expect(assessCheckoutSession('not even an object', TEST_SHOP_ID)).toEqual({ kind: 'not-ours' });
  });

  it('does not fulfil an unpaid session (a delayed payment still pending)', () => {
    expect(assessCheckoutSession({ ...retrievedSession(), payment_status: 'unpaid' }, TEST_SHOP_ID)).toEqual({
      kind: 'not-paid',
      paymentStatus: 'unpaid',
      status: 'complete',
    });
  });

  const base = retrievedSession();
  // The problems go to the merchant in the "needs review" log and alarm: each names what is wrong.
  it.each<[string, unknown, string[]]>([
    ['amount_total', { ...base, amount_total: 1469 }, ['amount_total 1469 is not 1470']],
    ['currency', { ...base, currency: 'eur' }, ['currency eur is not gbp']],
    ['line item currency', withLineItem(base, { currency: 'eur' }), ['line item currency eur']],
    [
      'unit amount',
      withLineItem(base, { price: { unit_amount: 300 }, amount_total: 900 }),
      ['unit amount 300 is not 325', 'line item total 900 is not 975'],
    ],
    [
      'unit price missing',
      { ...base, line_items: { ...base.line_items, data: [{ ...base.line_items.data[0], price: null }] } },
      ['unit amount undefined is not 325'],
    ],
    ['line item total', withLineItem(base, { amount_total: 976 }), ['line item total 976 is not 975']],
    [
      'quantity',
      withLineItem(base, { quantity: 4, amount_total: 1300 }),
      ['quantity 4 is not 3, 6 or 9', 'metadata quantity 3 differs from line item quantity 4'],
    ],
    [
      'metadata quantity',
      { ...base, metadata: { ...base.metadata, quantity: '6' } },
      ['metadata quantity 6 differs from line item quantity 3'],
    ],
    [
      'shipping',
      { ...base, shipping_cost: { amount_total: 0 }, amount_total: 975 },
      ['shipping 0 is not 495', 'amount_total 975 is not 1470'],
    ],
    ['shipping missing', { ...base, shipping_cost: null }, ['shipping undefined is not 495']],
    [
      'more line items',
      { ...base, line_items: { ...base.line_items, has_more: true } },
      ['expected exactly one line item, got 1'],
    ],
    [
      'line items not expanded',
      { ...base, line_items: undefined },
      [
        'expected exactly one line item, got none',
        'quantity NaN is not 3, 6 or 9',
        'metadata quantity 3 differs from line item quantity NaN',
      ],
    ],
    [
      'line item list empty',
      { ...base, line_items: { has_more: false, data: [] } },
      [
        'expected exactly one line item, got 0',
        'quantity NaN is not 3, 6 or 9',
        'metadata quantity 3 differs from line item quantity NaN',
      ],
    ],
    ['customer email', { ...base, customer_email: null, customer_details: null }, ['no customer email']],
    [
      'delivery address',
      { ...base, metadata: { ...base.metadata, address: ' ' } },
      ['metadata.address: Too small: expected string to have >=1 characters'],
    ],
    [
      'session shape',
      { ...base, amount_total: '1470' },
      ['session.amount_total: Invalid input: expected number, received string'],
    ],
  ])(
    'sends a paid session with a wrong %s to review, not to fulfilment, saying why',
    (_field, session, problems) => {
      // Act
      const assessment = assessCheckoutSession(session, TEST_SHOP_ID);

      // Assess
      expect(assessment).toEqual({ kind: 'needs-review', problems });
    },
  );

  it('sends two line items to review even when the first is exactly what we priced', () => {
    // Prepare
    const [item] = base.line_items.data;
    const session = { ...base, line_items: { has_more: false, data: [item, item] } };

    // Act
    const assessment = assessCheckoutSession(session, TEST_SHOP_ID);

    // Assess
    expect(assessment).toEqual({ kind: 'needs-review', problems: ['expected exactly one line item, got 2'] });
  });

  it.each([null, undefined, 42])('ignores %j as not ours rather than crashing', (input) => {
    expect(assessCheckoutSession(input, TEST_SHOP_ID)).toEqual({ kind: 'not-ours' });
  });

  it('counts a completed session whose PaymentIntent later succeeded (a delayed payment) as paid, when Stripe recorded the charge', () => {
    // Prepare
    const session = {
      ...retrievedSession(),
      payment_status: 'unpaid',
      payment_intent: { id: 'pi_test_bacs', status: 'succeeded', latest_charge: { created: 1_795_658_400 } },
    };

    // Act
    const assessment = assessCheckoutSession(session, TEST_SHOP_ID);

    // Assess
    expect(assessment).toMatchObject({
      kind: 'payable',
      checkout: {
        paymentIntentId: 'pi_test_bacs',
        checkoutCreatedAt: new Date('2026-11-21T01:50:00Z'),
        paidAt: new Date('2026-11-26T02:00:00Z'),
      },
    });
  });

  it.each([
    ['refunded in full', { amount_refunded: 1470, refunded: true }, { amountPence: 1470, full: true }],
    ['refunded in part', { amount_refunded: 500, refunded: false }, { amountPence: 500, full: false }],
    ['not refunded', { amount_refunded: 0, refunded: false }, undefined],
    ['from a charge without refund fields', {}, undefined],
  ])('reads what Stripe refunded of the expanded charge: %s', (_case, refundFields, refund) => {
    const session = {
      ...retrievedSession(),
      payment_intent: {
        id: 'pi_test_refund',
        status: 'succeeded',
        latest_charge: { created: 1_795_658_400, ...refundFields },
      },
    };

    const assessment = assessCheckoutSession(session, TEST_SHOP_ID);

    expect(assessment.kind === 'payable' && assessment.checkout.refund).toEqual(refund);
    expect(assessment.kind).toBe('payable');
  });

  it('does not count a session that never completed as paid, whatever its PaymentIntent says', () => {
    // Prepare
    const session = {
      ...retrievedSession(),
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: { id: 'pi_test_bacs', status: 'succeeded' },
    };

    // Act + Assess
    expect(assessCheckoutSession(session, TEST_SHOP_ID)).toEqual({
      kind: 'not-paid',
      paymentStatus: 'unpaid',
      status: 'open',
    });
  });

  it('leaves paidAt unknown when the charge is not expanded, and the PaymentIntent unknown when there is none', () => {
    // Prepare
    const chargeNotExpanded = {
      ...retrievedSession(),
      payment_intent: { id: 'pi_test_123', status: 'succeeded', latest_charge: 'ch_test_123' },
    };
    const noIntent = { ...retrievedSession(), payment_intent: null };

    // Act
    const withChargeId = assessCheckoutSession(chargeNotExpanded, TEST_SHOP_ID);
    const withoutIntent = assessCheckoutSession(noIntent, TEST_SHOP_ID);

    // Assess
    expect(withChargeId.kind === 'payable' && withChargeId.checkout.paidAt).toBeUndefined();
    expect(withChargeId).toMatchObject({ kind: 'payable', checkout: { paymentIntentId: 'pi_test_123' } });
    expect(withoutIntent.kind === 'payable' && withoutIntent.checkout.paymentIntentId).toBeUndefined();
    expect(withoutIntent).toMatchObject({ kind: 'payable', checkout: { paidAt: undefined } });
  });

  it('prefers the email the customer confirmed on Stripe, and reads an expanded PaymentIntent', () => {
    // Prepare
    const session = {
      ...retrievedSession(),
      customer_details: { email: 'confirmed@example.com' },
      payment_intent: { id: 'pi_test_expanded' },
    };

    // Act
    const assessment = assessCheckoutSession(session, TEST_SHOP_ID);

    // Assess
    expect(assessment).toMatchObject({
      kind: 'payable',
      checkout: { paymentIntentId: 'pi_test_expanded', customer: { email: 'confirmed@example.com' } },
    });
  });

  it('keeps the words Stripe showed by the pay button, and promises a debit the debit’s day', () => {
    // Prepare
    const message =
      'Dispatch on Monday 23 November by Royal Mail 1st Class; most orders arrive the next day.';
    const shown = {
      ...retrievedSession(),
      metadata: { ...retrievedSession().metadata, debit_dispatch_date: '2026-11-30' },
      custom_text: { submit: { message }, after_submit: null },
    };
    const charge = (type: string) => ({
      id: 'pi_test_123',
      latest_charge: { created: 1_795_900_000, payment_method_details: { type } },
    });

    // Act
    const byCard = assessCheckoutSession({ ...shown, payment_intent: charge('card') }, TEST_SHOP_ID);
    const byDebit = assessCheckoutSession({ ...shown, payment_intent: charge('bacs_debit') }, TEST_SHOP_ID);
    const withoutText = assessCheckoutSession({ ...retrievedSession(), custom_text: null }, TEST_SHOP_ID);

    // Assess
    expect(byCard).toMatchObject({
      kind: 'payable',
      checkout: { termsShown: message, promisedDispatchDate: '2026-11-23' },
    });
    expect(byDebit).toMatchObject({
      kind: 'payable',
      checkout: { termsShown: message, promisedDispatchDate: '2026-11-30' },
    });
    expect(withoutText.kind === 'payable' && 'termsShown' in withoutText.checkout).toBe(false);
  });

  it('reads an absent phone as empty, and normalises the postcode again', () => {
    // Prepare
    const { phone: _phone, ...metadata } = retrievedSession().metadata;
    const session = { ...retrievedSession(), metadata: { ...metadata, postcode: ' sw1a2aa ' } };

    // Act
    const assessment = assessCheckoutSession(session, TEST_SHOP_ID);

    // Assess
    expect(assessment).toMatchObject({
      kind: 'payable',
      checkout: { customer: { phone: '', postcode: 'SW1A 2AA' } },
    });
  });
});
