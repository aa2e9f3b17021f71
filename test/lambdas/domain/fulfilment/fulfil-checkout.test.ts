import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfilCheckout } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import { orderItemSchema } from '../../../../lambdas/domain/storage/order';
import type { CheckoutSessionRecord } from '../../../../local/stripe-simulator/server';
import { nextDispatchDate } from '../../../../shared/dispatch';
import { jsonBody } from '../../../support/api-gateway-event';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { captureLogs } from '../../../support/logs';

// An order exists if and only if Stripe says the session is paid, for an amount, currency and
// quantity we priced; emails escape every customer string and go to one recipient each.
describe('fulfilCheckout', () => {
  let h: FulfilmentHarness;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  /** A mismatch patched into the stored session after payment, as if Stripe charged something else. */
  const mismatches: Array<[string, (session: CheckoutSessionRecord) => Partial<CheckoutSessionRecord>]> = [
    ['an amount that is not our total', () => ({ amount_total: 1 })],
    ['a currency other than GBP', () => ({ currency: 'eur' })],
    [
      'a quantity of 4 bottles',
      (s) => ({
        line_items: withItem(s, { quantity: 4, amount_subtotal: 1300, amount_total: 1300 }),
        amount_total: 1795,
      }),
    ],
    [
      'a unit price that is not £3.25',
      (s) => ({ line_items: withItem(s, { price: { ...firstItem(s).price, unit_amount: 1 } }) }),
    ],
    [
      'no delivery charge',
      (s) => ({
        shipping_cost: s.shipping_cost && { ...s.shipping_cost, amount_total: 0 },
        amount_total: 975,
      }),
    ],
    ['metadata saying another quantity', (s) => ({ metadata: { ...s.metadata, quantity: '9' } })],
  ];

  function firstItem(session: CheckoutSessionRecord) {
    const item = session.line_items.data[0];
    if (!item) throw new Error('session without line items');
    return item;
  }
  function withItem(session: CheckoutSessionRecord, patch: Partial<ReturnType<typeof firstItem>>) {
    return { ...session.line_items, data: [{ ...firstItem(session), ...patch }] };
  }

  it.each(mismatches)(
    'paid session with %s, not matching our price table: no automatic fulfilment, an error logged for the merchant',
    async (_case, patch) => {
      // Prepare
      const session = await h.paidSession();
      const stored = h.simulator.getSession(session.id);
      if (!stored) throw new Error('session not in the simulator');
      h.simulator.patchSession(session.id, patch(stored));
      const payload = await h.eventFor('checkout.session.completed', session.id);
      const metricsBefore = h.metricLines.length;

      // Act
      let result: Awaited<ReturnType<typeof h.webhook>> | undefined;
      const logs = await captureLogs(async () => {
        result = await h.webhook(h.delivery(payload));
      });

      // Assess: 2xx so Stripe stops retrying a session that will never change.
      expect(result?.statusCode).toBe(200);
      expect(jsonBody(result ?? {})).toEqual({ received: true, outcome: 'needs-review' });
      expect(await h.ordersFor(session.id)).toHaveLength(0);
      expect(await h.emailsFor(session.id)).toEqual({ confirmation: [], merchantNotice: [] });
      expect(logs).toContainEqual(
        expect.objectContaining({ level: 'ERROR', alarm: 'PaidCheckoutNeedsReview', sessionId: session.id }),
      );
      const metric = JSON.parse(h.metricLines[metricsBefore] ?? '{}');
      expect(metric).toMatchObject({ PaidCheckoutNeedsReview: 1 });
      expect(JSON.stringify(metric._aws)).toContain('"Namespace":"LiveAquatics"');
    },
  );

  it('records the order with every field, recomputing the dispatch date at payment', async () => {
    // Prepare: the customer was shown an old date (the session sat open past the cut-off).
    const session = await h.paidSession({ quantity: 6 });
    h.simulator.patchSession(session.id, {
      metadata: { ...(h.simulator.getSession(session.id)?.metadata ?? {}), dispatch_date: '2020-01-06' },
    });
    const intent = await h.stripe.paymentIntents.retrieve(
      String(h.simulator.getSession(session.id)?.payment_intent),
      {
        expand: ['latest_charge'],
      },
    );
    const charge = intent.latest_charge;
    if (typeof charge !== 'object' || charge === null) throw new Error('a paid session has a charge');
    const paidAt = new Date(charge.created * 1000);
    // Recorded an hour after the payment (a retry, the reconciler): paidAt is still Stripe's time.
    h.clock.advance(3_600_000);

    // Act
    const result = await fulfilCheckout(session.id, h.deps);
    h.clock.reset();

    // Assess
    expect(result).toMatchObject({
      outcome: 'fulfilled',
      orderCreated: true,
      reference: session.id.slice(-12),
    });
    const [item] = await h.ordersFor(session.id);
    const order = orderItemSchema.parse(item);
    const dispatchDate = nextDispatchDate(new Date(order.createdAt));
    expect(order).toMatchObject({
      pk: `ORDER#${session.id}`,
      sessionId: session.id,
      status: 'paid',
      bottles: 6,
      unitPricePence: 325,
      subtotalPence: 1950,
      shippingPence: 495,
      totalPence: 2445,
      currency: 'gbp',
      customerName: 'Zoë Brontë',
      customerEmail: session.customer_email,
      customerPhone: '07700 900123',
      deliveryAddress: 'Flat 2, 10 Downing Street\nLondon',
      postcode: 'SW1A 2AA',
      promisedDispatchDate: '2020-01-06',
      dispatchDate,
      paidAt: paidAt.toISOString(),
      confirmationEmailState: 'sent',
      merchantNoticeEmailState: 'sent',
      gsi1pk: `DISPATCH#${dispatchDate}`,
      gsi1sk: `paid#${paidAt.toISOString()}#${session.id.slice(-12)}`,
    });
    expect(order.paymentIntentId).toMatch(/^pi_/);
    // What Stripe's page showed by the pay button, as the session Stripe returns holds it.
    expect(order.termsShown).toBe(h.simulator.getSession(session.id)?.custom_text.submit?.message);
    expect(order.termsShown).toContain(
      'As live, perishable goods, Daphnia cannot be returned and the 14-day right to cancel does not apply.',
    );
  });

  it('keeps for an order paid by Direct Debit the day given for a debit: the success page, the waiting email and the confirmation agree', async () => {
    // Prepare
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(session.id, 'succeeded');

    // Act
    const result = await fulfilCheckout(session.id, h.deps);

    // Assess
    expect(result).toMatchObject({ outcome: 'fulfilled', orderCreated: true });
    const order = orderItemSchema.parse((await h.ordersFor(session.id))[0]);
    const metadata = h.simulator.getSession(session.id)?.metadata;
    expect(metadata?.debit_dispatch_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(order.promisedDispatchDate).toBe(metadata?.debit_dispatch_date);
    expect(order.promisedDispatchDate).not.toBe(metadata?.dispatch_date);
    // Not the earlier card day the debit would make now: the day the customer was told (ADR 0047).
    expect(order.dispatchDate).toBe(metadata?.debit_dispatch_date);
    expect(order.dispatchDate).not.toBe(nextDispatchDate(new Date(order.createdAt)));
    const [confirmation] = (await h.emailsFor(session.id)).confirmation.filter((email) =>
      email.subject.includes('confirmed'),
    );
    expect(confirmation?.body.text).not.toMatch(/shown at checkout|expected at checkout/);
  });

  it('a debit the bank pays after its promised day closed: the next day it can go, and the confirmation says it moved', async () => {
    // Prepare: the bank pays three weeks later than promised.
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(session.id, 'succeeded');
    h.clock.advance(21 * 86_400_000);

    // Act
    try {
      await fulfilCheckout(session.id, h.deps);
    } finally {
      h.clock.reset();
    }

    // Assess
    const order = orderItemSchema.parse((await h.ordersFor(session.id))[0]);
    expect(order.dispatchDate).toBe(nextDispatchDate(new Date(order.createdAt)));
    expect(order.dispatchDate > String(order.promisedDispatchDate)).toBe(true);
    const [confirmation] = (await h.emailsFor(session.id)).confirmation;
    expect(confirmation?.body.text).toContain('This is later than the');
  });

  it('names and addresses like <img src=x onerror=alert(1)> and "><a href=...> come out escaped in the HTML part of both emails', async () => {
    // Prepare
    const session = await h.paidSession({
      customer: {
        name: '<img src=x onerror=alert(1)>',
        address: '"><a href="https://evil.test">win</a>\nLondon',
      },
    });

    // Act
    await fulfilCheckout(session.id, h.deps);

    // Assess
    const { confirmation, merchantNotice } = await h.emailsFor(session.id);
    expect(confirmation).toHaveLength(1);
    expect(merchantNotice).toHaveLength(1);
    for (const email of [...confirmation, ...merchantNotice]) {
      expect(email.body.html).not.toContain('<img');
      expect(email.body.html).not.toContain('<a href="https://evil.test"');
      expect(email.body.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(email.body.html).toContain(
        '&quot;&gt;&lt;a href=&quot;https://evil.test&quot;&gt;win&lt;/a&gt;',
      );
      expect(email.body.text).toContain('<img src=x onerror=alert(1)>');
      expect(email.subject).not.toMatch(/[\r\n]/);
    }
  });

  it('does nothing for a session that is not paid yet', async () => {
    // Prepare
    const session = await createCheckoutSession(h.stripe);

    // Act
    const result = await fulfilCheckout(session.id, h.deps);

    // Assess
    expect(result).toEqual({ outcome: 'not-paid', paymentStatus: 'unpaid' });
    expect(await h.ordersFor(session.id)).toHaveLength(0);
  });
});
