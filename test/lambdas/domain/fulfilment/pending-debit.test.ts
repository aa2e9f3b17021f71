import { describe, expect, it } from 'vitest';
import { firstDispatchDay } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import { checkPendingDebit } from '../../../../lambdas/domain/fulfilment/pending-debit';
import { paidCheckout } from '../../../support/order-fixtures';

const SHOP = 'LiveAquatics-test';

/** A Bacs session completed unpaid, its debit with the bank, as Stripe returns it expanded. */
function session(overrides: Record<string, unknown> = {}) {
  return {
    id: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqR',
    livemode: false,
    created: 1_796_000_000,
    status: 'complete',
    payment_status: 'unpaid',
    amount_total: 1470,
    customer_email: 'dee@example.com',
    customer_details: { email: 'dee@example.com' },
    metadata: {
      shop: SHOP,
      name: 'Dee Debit',
      quantity: '3',
      dispatch_date: '2026-12-14',
      debit_dispatch_date: '2026-12-21',
    },
    payment_intent: { id: 'pi_1', status: 'processing' },
    ...overrides,
  };
}

describe('checkPendingDebit: a session whose money is with the bank', () => {
  it('complete, unpaid, its PaymentIntent processing: the facts of the waiting email, the debit’s day', () => {
    expect(checkPendingDebit(session(), SHOP)).toEqual({
      kind: 'pending',
      facts: {
        reference: 'i9J0kLmNoPqR',
        sessionId: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqR',
        livemode: false,
        bottles: 3,
        totalPence: 1470,
        customerName: 'Dee Debit',
        customerEmail: 'dee@example.com',
        dispatchDate: '2026-12-21',
        checkoutCreatedAt: '2026-11-30T00:53:20.000Z',
      },
    });
  });

  it.each([
    ['paid', { payment_status: 'paid' }],
    ['collected (intent succeeded)', { payment_intent: { id: 'pi_1', status: 'succeeded' } }],
    [
      'refused (intent back to a method)',
      { payment_intent: { id: 'pi_1', status: 'requires_payment_method' } },
    ],
    ['intent not expanded', { payment_intent: 'pi_1' }],
    ['still open', { status: 'open' }],
    ['no debit day', { metadata: { shop: SHOP, name: 'Dee Debit', quantity: '3' } }],
    ['no email', { customer_email: null, customer_details: null }],
  ])('%s: not pending', (_label, overrides) => {
    expect(checkPendingDebit(session(overrides), SHOP)).toEqual({ kind: 'not-pending' });
  });

  it('another shop’s session: not ours', () => {
    expect(checkPendingDebit(session(), 'LiveAquatics-other')).toEqual({ kind: 'not-ours' });
  });
});

describe('firstDispatchDay: the day a new order goes', () => {
  it('a delayed payment keeps the later day it was promised; never earlier than the next day it can go', () => {
    const debit = { ...paidCheckout(), delayedPayment: true, promisedDispatchDate: '2026-12-21' };
    expect(firstDispatchDay(debit, '2026-12-14')).toBe('2026-12-21');
    expect(firstDispatchDay(debit, '2026-12-28')).toBe('2026-12-28');
  });

  it('a card payment goes on the next day it can, whatever it was shown', () => {
    const card = { ...paidCheckout(), delayedPayment: false, promisedDispatchDate: '2026-12-21' };
    expect(firstDispatchDay(card, '2026-12-14')).toBe('2026-12-14');
  });
});
