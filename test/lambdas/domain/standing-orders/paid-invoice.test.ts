import { describe, expect, it } from 'vitest';
import {
  assessInvoice,
  invoiceDispatchDay,
  invoiceSubscriptionId,
} from '../../../../lambdas/domain/standing-orders/paid-invoice';

// A standing order's invoice and subscription as Stripe returns them (the SDK's API version puts
// the subscription under parent.subscription_details), judged without I/O.

const SHOP = 'shop-test';
const PAID_AT = Date.parse('2026-12-07T09:00:00Z') / 1000;

const subscription = (metadata: Record<string, string> = {}) => ({
  id: 'sub_123',
  status: 'active',
  metadata: {
    shop: SHOP,
    order_version: '1',
    name: 'Zoë Brontë',
    phone: '07700 900123',
    address: '10 Downing Street\nLondon',
    postcode: 'SW1A 2AA',
    quantity: '3',
    dispatch_date: '2026-12-14',
    debit_dispatch_date: '2026-12-21',
    capacity_hold: 'cabc.1796000000:3',
    repeat: 'weekly',
    ...metadata,
  },
  items: { data: [{ current_period_end: PAID_AT + 7 * 86_400 }] },
});

const invoice = (fields: Record<string, unknown> = {}) => ({
  id: 'in_first0001',
  livemode: false,
  status: 'paid',
  currency: 'gbp',
  amount_paid: 1470,
  billing_reason: 'subscription_create',
  created: PAID_AT - 5,
  customer: 'cus_1',
  customer_email: 'zoe@example.com',
  status_transitions: { paid_at: PAID_AT },
  parent: { subscription_details: { subscription: 'sub_123' } },
  ...fields,
});

describe('assessInvoice', () => {
  it('makes a paid first invoice of 3 x 325 + 495 = 1470 pence an order keyed by the invoice, promised its checkout day', () => {
    const result = assessInvoice(invoice(), subscription(), SHOP);
    if (result.kind !== 'payable') throw new Error(`expected payable, got ${result.kind}`);
    expect(result.invoice).toMatchObject({
      subscriptionId: 'sub_123',
      repeat: 'weekly',
      first: true,
      paidAt: new Date('2026-12-07T09:00:00Z'),
      nextPaymentAt: new Date('2026-12-14T09:00:00Z'),
      subscriptionMetadata: { capacity_hold: 'cabc.1796000000:3' },
    });
    expect(result.invoice.checkout).toMatchObject({
      sessionId: 'in_first0001',
      quote: { bottles: 3, unitPricePence: 325, shippingPence: 495, totalPence: 1470 },
      customer: { name: 'Zoë Brontë', email: 'zoe@example.com', postcode: 'SW1A 2AA' },
      promisedDispatchDate: '2026-12-14',
      delayedPayment: false,
    });
  });

  it('promises a renewal no day (nobody was shown one), and reads the subscription from `subscription` of older API versions', () => {
    const result = assessInvoice(
      invoice({ billing_reason: 'subscription_cycle', parent: null, subscription: 'sub_123' }),
      subscription(),
      SHOP,
    );
    if (result.kind !== 'payable') throw new Error(`expected payable, got ${result.kind}`);
    expect(result.invoice.first).toBe(false);
    expect(result.invoice.checkout.promisedDispatchDate).toBeUndefined();
  });

  it("takes the customer's email when the invoice carries none", () => {
    const result = assessInvoice(invoice({ customer_email: null }), subscription(), SHOP, 'cus@example.com');
    expect(result.kind === 'payable' && result.invoice.checkout.customer.email).toBe('cus@example.com');
    expect(assessInvoice(invoice({ customer_email: null }), subscription(), SHOP)).toEqual({
      kind: 'needs-review',
      problems: ['no customer email'],
    });
  });

  it("is not ours without this deployment's marker on the subscription", () => {
    expect(assessInvoice(invoice(), subscription({ shop: 'other' }), SHOP)).toEqual({ kind: 'not-ours' });
  });

  it('is not paid while open (a failed renewal)', () => {
    expect(assessInvoice(invoice({ status: 'open' }), subscription(), SHOP)).toEqual({
      kind: 'not-paid',
      status: 'open',
    });
  });

  it('sends for review an amount, currency or quantity we did not price, or another subscription', () => {
    expect(assessInvoice(invoice({ amount_paid: 1469 }), subscription(), SHOP)).toEqual({
      kind: 'needs-review',
      problems: ['amount_paid 1469 is not 1470'],
    });
    expect(assessInvoice(invoice({ currency: 'eur' }), subscription(), SHOP)).toMatchObject({
      kind: 'needs-review',
      problems: ['currency eur is not gbp'],
    });
    expect(assessInvoice(invoice(), subscription({ quantity: '4' }), SHOP)).toMatchObject({
      kind: 'needs-review',
      problems: ['quantity 4 is not 3, 6 or 9'],
    });
    expect(
      assessInvoice(
        invoice({ parent: { subscription_details: { subscription: 'sub_other' } } }),
        subscription(),
        SHOP,
      ),
    ).toMatchObject({ kind: 'needs-review', problems: ['invoice of another subscription'] });
    expect(assessInvoice(invoice(), subscription({ repeat: 'daily' }), SHOP).kind).toBe('needs-review');
  });
});

describe('assessInvoice, a renewal charged before a change of quantity reached the shop', () => {
  const renewal = (amountPaid: number) =>
    invoice({ id: 'in_renew0001', billing_reason: 'subscription_cycle', amount_paid: amountPaid });

  it('is the 3 bottles it was charged 1470 pence for, though the subscription now says 6', () => {
    const result = assessInvoice(renewal(1470), subscription({ quantity: '6' }), SHOP);
    if (result.kind !== 'payable') throw new Error(`expected payable, got ${result.kind}`);
    expect(result.invoice.checkout.quote).toEqual({
      bottles: 3,
      unitPricePence: 325,
      subtotalPence: 975,
      shippingPence: 495,
      totalPence: 1470,
    });
  });

  it('is the 9 bottles of 3420 pence, though the subscription now says 3', () => {
    const result = assessInvoice(renewal(3420), subscription({ quantity: '3' }), SHOP);
    expect(result.kind === 'payable' && result.invoice.checkout.quote.bottles).toBe(9);
  });

  it('still sends for review an amount that is no price of ours, and a first payment not of its checkout', () => {
    expect(assessInvoice(renewal(2000), subscription({ quantity: '6' }), SHOP)).toEqual({
      kind: 'needs-review',
      problems: ['amount_paid 2000 is not 2445'],
    });
    expect(assessInvoice(invoice({ amount_paid: 2445 }), subscription(), SHOP)).toEqual({
      kind: 'needs-review',
      problems: ['amount_paid 2445 is not 1470'],
    });
  });
});

describe('invoiceSubscriptionId', () => {
  it('reads either place, and nothing for an invoice of no subscription', () => {
    expect(invoiceSubscriptionId(invoice())).toBe('sub_123');
    expect(invoiceSubscriptionId(invoice({ parent: null, subscription: { id: 'sub_9' } }))).toBe('sub_9');
    expect(invoiceSubscriptionId(invoice({ parent: null }))).toBeUndefined();
  });
});

describe('invoiceDispatchDay', () => {
  // Cut-off 0: a Monday's orders go that Monday until midnight London time before it.
  const weekly = (first: string | undefined, index: number, paidAt: string) => ({
    repeat: 'weekly' as const,
    delivery: { first, index },
    paidAt: new Date(paidAt),
  });

  it("is the first delivery's day for the first payment, as a one-off paid then gets", () => {
    const sundayMorning = '2026-12-06T10:00:00Z';
    expect(invoiceDispatchDay(weekly('2026-12-07', 0, sundayMorning), new Date(sundayMorning), 0)).toBe(
      '2026-12-07',
    );
  });

  it('gives each later payment a week of its own, whatever its weekday and hour', () => {
    // First delivery Monday 7 December; the second payment, on Sunday 13th, is for the week after.
    expect(
      invoiceDispatchDay(
        weekly('2026-12-07', 1, '2026-12-13T10:00:00Z'),
        new Date('2026-12-13T10:00:00Z'),
        0,
      ),
    ).toBe('2026-12-14');
    // The third is for the week of Monday 21 December, paid on Sunday 20th before its cut-off.
    expect(
      invoiceDispatchDay(
        weekly('2026-12-07', 2, '2026-12-20T10:00:00Z'),
        new Date('2026-12-20T10:00:00Z'),
        0,
      ),
    ).toBe('2026-12-21');
  });

  it('is never a day whose cut-off had passed when paid (a payment retried late) or already closed when recorded', () => {
    // Due in the week of 14 December but paid on Tuesday 15th: the next day still packed.
    expect(
      invoiceDispatchDay(
        weekly('2026-12-07', 1, '2026-12-15T10:00:00Z'),
        new Date('2026-12-15T10:00:00Z'),
        0,
      ),
    ).toBe('2026-12-21');
    // Paid in time, recorded on Tuesday 15th after the Monday packed.
    expect(
      invoiceDispatchDay(
        weekly('2026-12-07', 1, '2026-12-13T10:00:00Z'),
        new Date('2026-12-15T10:00:00Z'),
        0,
      ),
    ).toBe('2026-12-21');
  });

  it('takes the bank holidays of the one-off rules: Monday 28 December 2026 is one, so Tuesday 29', () => {
    expect(
      invoiceDispatchDay(
        weekly('2026-12-21', 1, '2026-12-20T10:00:00Z'),
        new Date('2026-12-20T10:00:00Z'),
        0,
      ),
    ).toBe('2026-12-29');
  });

  it('without a first day on the session, is the day a one-off paid then gets', () => {
    expect(
      invoiceDispatchDay(weekly(undefined, 3, '2026-12-24T10:00:00Z'), new Date('2026-12-24T10:00:00Z'), 0),
    ).toBe('2026-12-29');
  });
});
