import { describe, expect, it } from 'vitest';
import { assessCheckoutSession } from '../../../lambdas/fulfilment/paid-checkout';
import { TEST_SHOP_ID } from '../../support/shop';

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
  it.each<[string, unknown]>([
    ['amount_total', { ...base, amount_total: 1469 }],
    ['currency', { ...base, currency: 'eur' }],
    ['line item currency', withLineItem(base, { currency: 'eur' })],
    ['unit amount', withLineItem(base, { price: { unit_amount: 300 }, amount_total: 900 })],
    ['quantity', withLineItem(base, { quantity: 4, amount_total: 1300 })],
    ['metadata quantity', { ...base, metadata: { ...base.metadata, quantity: '6' } }],
    ['shipping', { ...base, shipping_cost: { amount_total: 0 }, amount_total: 975 }],
    ['shipping missing', { ...base, shipping_cost: null }],
    ['more line items', { ...base, line_items: { ...base.line_items, has_more: true } }],
    ['line items not expanded', { ...base, line_items: undefined }],
    ['customer email', { ...base, customer_email: null, customer_details: null }],
    ['delivery address', { ...base, metadata: { ...base.metadata, address: ' ' } }],
    ['session shape', { ...base, amount_total: '1470' }],
  ])('sends a paid session with a wrong %s to review, not to fulfilment', (_field, session) => {
    // Act
    const assessment = assessCheckoutSession(session, TEST_SHOP_ID);

    // Assess
    expect(assessment.kind).toBe('needs-review');
    expect(assessment.kind === 'needs-review' && assessment.problems.length).toBeGreaterThan(0);
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
