import { describe, expect, it } from 'vitest';
import { checkFailedDebit } from '../../../../lambdas/domain/fulfilment/failed-debit';
import { TEST_SHOP_ID } from '../../../support/shop';

/** A session (retrieved with its PaymentIntent) whose Bacs Direct Debit the bank did not pay. */
function failedSession() {
  return {
    id: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsT',
    object: 'checkout.session',
    livemode: false,
    created: 1_795_225_800,
    status: 'complete',
    payment_status: 'unpaid',
    amount_total: 1470,
    customer_email: 'zoe@example.com',
    customer_details: { email: 'confirmed@example.com' },
    metadata: { shop: TEST_SHOP_ID, name: 'Zoë Brontë', quantity: '3', dispatch_date: '2026-11-30' },
    payment_intent: {
      id: 'pi_test_123',
      status: 'requires_payment_method',
      last_payment_error: { message: 'The Direct Debit could not be collected.' },
    },
  };
}

describe('checkFailedDebit', () => {
  it('reads a complete, unpaid session whose PaymentIntent went back to requires_payment_method', () => {
    expect(checkFailedDebit(failedSession(), TEST_SHOP_ID)).toEqual({
      kind: 'failed',
      facts: {
        reference: 'J0kLmNoPqRsT',
        sessionId: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsT',
        paymentIntentId: 'pi_test_123',
        livemode: false,
        bottles: 3,
        totalPence: 1470,
        customerName: 'Zoë Brontë',
        customerEmail: 'confirmed@example.com',
        customerPhone: '',
        checkoutCreatedAt: '2026-11-21T01:50:00.000Z',
        failureMessage: 'The Direct Debit could not be collected.',
      },
    });
  });

  it('takes a cancelled PaymentIntent as failed too', () => {
    const session = { ...failedSession(), payment_intent: { id: 'pi_test_123', status: 'canceled' } };

    expect(checkFailedDebit(session, TEST_SHOP_ID)).toMatchObject({ kind: 'failed' });
  });

  it.each([
    ['still with the bank', { payment_intent: { id: 'pi_test_123', status: 'processing' } }],
    ['collected', { payment_status: 'paid', payment_intent: { id: 'pi_test_123', status: 'succeeded' } }],
    ['never completed', { status: 'expired' }],
    ['without its PaymentIntent expanded', { payment_intent: 'pi_test_123' }],
    ['without a customer email', { customer_email: null, customer_details: null }],
  ])('is not a failed debit when %s', (_case, patch) => {
    expect(checkFailedDebit({ ...failedSession(), ...patch }, TEST_SHOP_ID)).toEqual({ kind: 'not-failed' });
  });

  it('ignores another deployment’s session', () => {
    const session = {
      ...failedSession(),
      metadata: { ...failedSession().metadata, shop: 'LiveAquatics-live' },
    };

    expect(checkFailedDebit(session, TEST_SHOP_ID)).toEqual({ kind: 'not-ours' });
    expect(checkFailedDebit('not a session', TEST_SHOP_ID)).toEqual({ kind: 'not-ours' });
  });
});
