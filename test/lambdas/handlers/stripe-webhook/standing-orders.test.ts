import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSessionParams } from '../../../../lambdas/domain/checkout/create-checkout-session';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { withStandingOrder } from '../../../../lambdas/domain/standing-deliveries/subscription-session';
import { readStandingOrder } from '../../../../lambdas/domain/storage/standing-orders';
import { checkoutRequestSchema } from '../../../../shared/checkout-request';
import { orderReference } from '../../../../shared/checkout-status';
import { addDays, dispatchDayOfWeekOf, nextDispatchDate } from '../../../../shared/dispatch';
import { quoteOrder } from '../../../../shared/pricing';
import {
  type FulfilmentHarness,
  MERCHANT_EMAIL,
  startFulfilmentHarness,
} from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';
import { eventPayload, stripeEvent } from '../../../support/stripe-events';

// Standing orders (issue 50) end to end through the webhook: the Stripe simulator's subscriptions
// behind the real SDK, events signed by the SDK's test helper, dynalite and the SES stand-in.
// The code's clock and the simulator's move together, so this passes on any day and hour.

const WEEK_MS = 7 * 86_400_000;
let h: FulfilmentHarness;

beforeAll(async () => {
  h = await startFulfilmentHarness();
});
afterAll(() => h?.close());

/** A weekly standing order for 3 bottles, made as create-checkout makes it, paid on the simulator's page. */
async function subscribeAndPay(): Promise<{
  session: Stripe.Checkout.Session;
  subscriptionId: string;
  email: string;
}> {
  const email = `zoe.${randomUUID().slice(0, 8)}@example.com`;
  const input = checkoutRequestSchema.parse({
    name: 'Zoë Brontë',
    email,
    phone: '07700 900123',
    address: '10 Downing Street\nLondon',
    postcode: 'SW1A 2AA',
    quantity: 3,
    subtotal: 9.75,
    shipping: 4.95,
    total: 14.7,
    repeat: 'weekly',
  });
  const now = h.deps.now();
  const day = nextDispatchDate(now);
  const oneOff = buildSessionParams({
    input,
    quote: quoteOrder(3),
    siteUrl: 'https://shop.test',
    shopId: TEST_SHOP_ID,
    clientReferenceId: `ord_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    dispatchDate: day,
    debitDispatchDate: day,
    expiresAt: Math.floor(now.getTime() / 1000) + 3_600,
  });
  const session = await h.stripe.checkout.sessions.create(
    withStandingOrder(oneOff, input, quoteOrder(3), day),
  );
  await h.simulator.completeSession(session.id);
  const paid = await h.stripe.checkout.sessions.retrieve(session.id);
  const subscriptionId = typeof paid.subscription === 'string' ? paid.subscription : paid.subscription?.id;
  if (subscriptionId === undefined) throw new Error('no subscription');
  return { session: paid, subscriptionId, email };
}

/** Delivers an event about `object`, signed now, and answers the webhook's outcome. */
async function deliver(type: string, object: unknown): Promise<string> {
  const payload = eventPayload(stripeEvent(type, object, { created: h.clock.nowSeconds() }));
  const response = await h.webhook(h.delivery(payload));
  expect(response.statusCode).toBe(200);
  return JSON.parse(String(response.body)).outcome;
}

function invoicesOf(subscriptionId: string): Stripe.Invoice[] {
  return h.simulator.getInvoices({ subscription: subscriptionId });
}

async function advanceAWeek(): Promise<void> {
  h.clock.advance(WEEK_MS);
  await h.simulator.advanceClock(WEEK_MS);
}

async function emailsTo(address: string, about: string) {
  return (await h.standIns.emails()).filter(
    (email) => email.destination.to.includes(address) && email.subject.includes(about),
  );
}

describe('a weekly standing order for 3 bottles', () => {
  let subscriptionId: string;
  let email: string;
  /** The first delivery's day, as the checkout reserved it. */
  let firstDay = '';
  const events: Array<[string, unknown]> = [];

  it('makes one order for the first payment, 3 x 325 + 495 = 1470 pence, whether completed or invoice.paid comes first', async () => {
    const paid = await subscribeAndPay();
    subscriptionId = paid.subscriptionId;
    email = paid.email;
    const [first] = invoicesOf(subscriptionId);
    if (first === undefined) throw new Error('no first invoice');
    events.push(['invoice.paid', first], ['checkout.session.completed', paid.session]);

    expect(await deliver('invoice.paid', first)).toBe('fulfilled');
    expect(await deliver('checkout.session.completed', paid.session)).toBe('fulfilled');

    const orders = await h.ordersFor(first.id);
    expect(orders).toHaveLength(1);
    // The first delivery is the day the checkout reserved and promised.
    firstDay = paid.session.metadata?.dispatch_date ?? '';
    expect(orders[0]).toMatchObject({
      pk: `ORDER#${first.id}`,
      bottles: 3,
      unitPricePence: 325,
      shippingPence: 495,
      totalPence: 1470,
      subscriptionId,
      repeat: 'weekly',
      dispatchDate: firstDay,
    });
    expect(await h.counts(first.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    // No order of the session's own: its payment is the invoice's.
    expect(await h.ordersFor(paid.session.id)).toHaveLength(0);
    expect(await readStandingOrder(h.deps.table, subscriptionId)).toMatchObject({
      status: 'active',
      repeat: 'weekly',
      bottles: 3,
      totalPence: 1470,
      customerEmail: email,
      nextDelivery: orders[0]?.dispatchDate,
      firstDelivery: firstDay,
      lastDeliveryIndex: 0,
      pageKey: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
  });

  it('a week later: one more order and one more confirmation, its bottles sold on its day', async () => {
    await advanceAWeek();
    const invoices = invoicesOf(subscriptionId);
    expect(invoices).toHaveLength(2);
    const renewal = invoices[1];
    if (renewal === undefined) throw new Error('no renewal');
    expect(renewal).toMatchObject({
      status: 'paid',
      amount_paid: 1470,
      billing_reason: 'subscription_cycle',
    });
    events.push(['invoice.paid', renewal]);

    expect(await deliver('invoice.paid', renewal)).toBe('fulfilled');

    const [order] = await h.ordersFor(renewal.id);
    // The week after the first delivery's: its Monday, or Tuesday after a bank-holiday Monday.
    const day = dispatchDayOfWeekOf(addDays(firstDay, 7));
    expect(order).toMatchObject({ totalPence: 1470, dispatchDate: day, capacityHold: `s${renewal.id}:3` });
    expect(await h.counts(renewal.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect((await h.deps.capacity?.read(day))?.sales.has(`s${renewal.id}:3`)).toBe(true);
    expect(await readStandingOrder(h.deps.table, subscriptionId)).toMatchObject({
      nextDelivery: day,
      firstDelivery: firstDay,
      lastDeliveryIndex: 1,
    });
  });

  it('replaying every event changes nothing', async () => {
    const before = await h.standIns.orderItems();
    const emailsBefore = (await h.standIns.emails()).length;
    for (const [type, object] of events) await deliver(type, object);
    await Promise.all(events.map(([type, object]) => deliver(type, object)));
    expect((await h.standIns.orderItems()).length).toBe(before.length);
    expect((await h.standIns.emails()).length).toBe(emailsBefore);
  });

  it('a failed renewal: no order, one email to the customer and one to the merchant, however often told', async () => {
    h.simulator.failNextRenewal(subscriptionId);
    await advanceAWeek();
    const failed = invoicesOf(subscriptionId)[2];
    if (failed === undefined) throw new Error('no failed renewal');
    expect(failed.status).toBe('open');

    expect(await deliver('invoice.payment_failed', failed)).toBe('renewal-failed');
    expect(await deliver('invoice.payment_failed', failed)).toBe('renewal-failed');

    expect(await h.ordersFor(failed.id)).toHaveLength(0);
    const reference = orderReference(subscriptionId);
    expect(await emailsTo(email, reference)).toHaveLength(1);
    expect(await emailsTo(MERCHANT_EMAIL, reference)).toHaveLength(1);
    expect((await emailsTo(MERCHANT_EMAIL, reference))[0]?.subject).toBe(
      `Standing order payment failed: ${reference}, 3 bottles (no order)`,
    );
  });
  it('a cancel: the record cancelled, and no more payments or orders', async () => {
    const cancelled = await h.stripe.subscriptions.cancel(subscriptionId);

    expect(await deliver('customer.subscription.deleted', cancelled)).toBe('subscription-cancelled');
    expect(await deliver('customer.subscription.deleted', cancelled)).toBe(
      'subscription-already-cancelled-or-unknown',
    );

    expect(await readStandingOrder(h.deps.table, subscriptionId)).toMatchObject({ status: 'cancelled' });
    const invoices = invoicesOf(subscriptionId).length;
    const orders = (await h.standIns.orderItems()).filter(
      (item) => item.subscriptionId === subscriptionId,
    ).length;
    await advanceAWeek();
    expect(invoicesOf(subscriptionId)).toHaveLength(invoices);
    expect(
      (await h.standIns.orderItems()).filter((item) => item.subscriptionId === subscriptionId),
    ).toHaveLength(orders);
  });
});

describe('the reconciler', () => {
  it("fulfils a paid invoice whose webhooks never came, with the webhook's function, once", async () => {
    const { subscriptionId } = await subscribeAndPay();
    const [first] = invoicesOf(subscriptionId);
    if (first === undefined) throw new Error('no first invoice');

    const summary = await reconcileOrders(h.deps);
    await reconcileOrders(h.deps);

    expect(summary.fulfilledMissedOrders).toBe(1);
    expect(await h.counts(first.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });
});
