import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  expectTypes,
  invoiceOf,
  simulatorPerTest,
  subscriptionIdOf,
  subscriptionSessionParams,
  verifiedEvents,
  WEEK_MS,
} from './subscription-support';

const WEEK = 7 * 24 * 60 * 60;

const stand = simulatorPerTest();

/** A standing order paid at checkout; answers its subscription's id and its start. */
async function subscribe(bottles = 3, weeks: 1 | 2 = 1): Promise<{ id: string; start: number }> {
  const { id } = await stand.stripe.checkout.sessions.create(subscriptionSessionParams(bottles, weeks));
  const session = await stand.simulator.completeSession(id);
  const subscription = stand.simulator.getSubscription(String(session.subscription));
  if (subscription === undefined) throw new Error('no subscription was made');
  return { id: subscription.id, start: subscription.start_date };
}

/** The events after the checkout's three (completed, invoice.paid, invoice.payment_succeeded). */
async function eventsAfterCheckout(): Promise<Stripe.Event[]> {
  await stand.simulator.idle();
  return verifiedEvents(stand).slice(3);
}

function cycleInvoices(subscription: string): Stripe.Invoice[] {
  return stand.simulator
    .getInvoices({ subscription })
    .filter((invoice) => invoice.billing_reason === 'subscription_cycle');
}

describe('renewals on the simulator clock', () => {
  it('a week later: one more invoice, made and paid at the period end, then invoice.paid and invoice.payment_succeeded', async () => {
    const { id, start } = await subscribe();

    await stand.simulator.advanceClock(WEEK_MS + 60_000);

    const events = await eventsAfterCheckout();
    expectTypes(events, ['invoice.paid', 'invoice.payment_succeeded']);
    const invoice = invoiceOf(events[0]);
    expect(invoice).toMatchObject({
      billing_reason: 'subscription_cycle',
      status: 'paid',
      amount_paid: 1470,
      created: start + WEEK,
      status_transitions: { paid_at: start + WEEK },
    });
    expect(subscriptionIdOf(invoice)).toBe(id);
    expect(invoice.lines.data[0]?.period).toEqual({ start: start + WEEK, end: start + 2 * WEEK });
    expect(invoiceOf(events[1]).id).toBe(invoice.id);
    expect(stand.simulator.getSubscription(id)).toMatchObject({
      status: 'active',
      latest_invoice: invoice.id,
    });
    expect(stand.simulator.getSubscription(id)?.items.data[0]).toMatchObject({
      current_period_start: start + WEEK,
      current_period_end: start + 2 * WEEK,
    });
  });

  it('nothing before the period ends', async () => {
    const { id } = await subscribe();

    await stand.simulator.advanceClock(WEEK_MS - 60_000);

    expect(await eventsAfterCheckout()).toEqual([]);
    expect(cycleInvoices(id)).toEqual([]);
  });

  it('3 weeks at once on a weekly order: 3 invoices, one for each week, in order', async () => {
    const { id, start } = await subscribe();

    await stand.simulator.advanceClock(3 * WEEK_MS + 60_000);

    const events = await eventsAfterCheckout();
    expectTypes(events, [
      'invoice.paid',
      'invoice.payment_succeeded',
      'invoice.paid',
      'invoice.payment_succeeded',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
    expect(
      cycleInvoices(id).map((invoice) => [invoice.status_transitions.paid_at, invoice.amount_paid]),
    ).toEqual([
      [start + WEEK, 1470],
      [start + 2 * WEEK, 1470],
      [start + 3 * WEEK, 1470],
    ]);
  });

  it('every 2 weeks: nothing after one week, then one invoice each fortnight', async () => {
    const { id, start } = await subscribe(2, 2);

    await stand.simulator.advanceClock(WEEK_MS + DAY_MS);
    const afterOneWeek = cycleInvoices(id).length;
    await stand.simulator.advanceClock(WEEK_MS);
    const afterTwoWeeks = cycleInvoices(id).length;
    await stand.simulator.advanceClock(2 * WEEK_MS);

    expect(afterOneWeek).toBe(0);
    expect(afterTwoWeeks).toBe(1);
    // 2 × £3.25 + £4.95 = £11.45 each fortnight.
    expect(cycleInvoices(id).map((invoice) => [invoice.created, invoice.amount_paid])).toEqual([
      [start + 2 * WEEK, 1145],
      [start + 4 * WEEK, 1145],
    ]);
  });

  it('a failed renewal: invoice.payment_failed, the invoice left open and unpaid, the subscription past_due; the next week pays again', async () => {
    const { id } = await subscribe();
    stand.simulator.failNextRenewal(id);

    await stand.simulator.advanceClock(WEEK_MS + 60_000);
    const failed = await eventsAfterCheckout();
    const pastDue = stand.simulator.getSubscription(id)?.status;
    await stand.simulator.advanceClock(WEEK_MS);

    expectTypes(failed, ['invoice.payment_failed', 'customer.subscription.updated']);
    const invoice = invoiceOf(failed[0]);
    expect(invoice).toMatchObject({
      status: 'open',
      amount_due: 1470,
      amount_paid: 0,
      amount_remaining: 1470,
      attempted: true,
      status_transitions: { paid_at: null },
    });
    expect(pastDue).toBe('past_due');
    const withPayment = await stand.stripe.invoices.retrieve(invoice.id, { expand: ['payments'] });
    const intent = await stand.stripe.paymentIntents.retrieve(
      String(withPayment.payments?.data[0]?.payment.payment_intent),
    );
    expect(intent).toMatchObject({ status: 'requires_payment_method', amount_received: 0 });
    expect(cycleInvoices(id).map((each) => each.status)).toEqual(['open', 'paid']);
    expect(stand.simulator.getSubscription(id)?.status).toBe('active');
  });

  it('pause_collection void: the renewal is voided (invoice.voided, nothing charged) until resumes_at, then paid again', async () => {
    const { id, start } = await subscribe();
    await stand.stripe.subscriptions.update(id, {
      pause_collection: { behavior: 'void', resumes_at: start + WEEK + DAY_MS / 1000 },
    });

    await stand.simulator.advanceClock(WEEK_MS + 60_000);
    const paused = await eventsAfterCheckout();
    await stand.simulator.advanceClock(WEEK_MS);

    expectTypes(paused, ['customer.subscription.updated', 'invoice.voided']);
    const voided = invoiceOf(paused[1]);
    expect(voided).toMatchObject({
      status: 'void',
      amount_paid: 0,
      status_transitions: { voided_at: start + WEEK },
    });
    const withPayment = await stand.stripe.invoices.retrieve(voided.id, { expand: ['payments'] });
    expect(withPayment.payments?.data).toEqual([]);
    expect(cycleInvoices(id).map((invoice) => [invoice.status, invoice.amount_paid])).toEqual([
      ['void', 0],
      ['paid', 1470],
    ]);
    expect(stand.simulator.getSubscription(id)?.pause_collection).toBeNull();
  });

  it('pause_collection without resumes_at voids every renewal; clearing it with "" pays the next', async () => {
    const { id } = await subscribe();
    await stand.stripe.subscriptions.update(id, { pause_collection: { behavior: 'void' } });

    await stand.simulator.advanceClock(2 * WEEK_MS + 60_000);
    await stand.stripe.subscriptions.update(id, { pause_collection: '' });
    await stand.simulator.advanceClock(WEEK_MS);

    expect(cycleInvoices(id).map((invoice) => invoice.status)).toEqual(['void', 'void', 'paid']);
  });

  it('a quantity change without proration: the next invoice is for 6 bottles, 6 × 325 + 495 = 2445 pence', async () => {
    const { id } = await subscribe(3);
    const subscription = await stand.stripe.subscriptions.retrieve(id);
    const bottles = subscription.items.data[0]?.id ?? '';

    const updated = await stand.stripe.subscriptions.update(id, {
      items: [{ id: bottles, quantity: 6 }],
      proration_behavior: 'none',
      metadata: { quantity: '6' },
    });
    await stand.simulator.advanceClock(WEEK_MS + 60_000);

    expect(updated.items.data.map((item) => item.quantity)).toEqual([6, 1]);
    const events = await eventsAfterCheckout();
    expectTypes(events, ['customer.subscription.updated', 'invoice.paid', 'invoice.payment_succeeded']);
    const invoice = invoiceOf(events[1]);
    expect(invoice.amount_paid).toBe(2445);
    expect(invoice.lines.data.map((line) => [line.quantity, line.amount])).toEqual([
      [6, 1950],
      [1, 495],
    ]);
    expect(invoice.parent?.subscription_details?.metadata).toMatchObject({ quantity: '6' });
  });

  it('cancel: canceled at once, customer.subscription.deleted, and no more invoices', async () => {
    const { id } = await subscribe();

    const canceled = await stand.stripe.subscriptions.cancel(id);
    await stand.simulator.advanceClock(3 * WEEK_MS);

    expect(canceled).toMatchObject({ id, status: 'canceled', ended_at: expect.any(Number) });
    const events = await eventsAfterCheckout();
    expectTypes(events, ['customer.subscription.deleted']);
    expect(cycleInvoices(id)).toEqual([]);
  });

  it('cancel_at_period_end: the period paid for runs out, then customer.subscription.deleted and no invoice', async () => {
    const { id, start } = await subscribe();

    const updated = await stand.stripe.subscriptions.update(id, { cancel_at_period_end: true });
    await stand.simulator.advanceClock(2 * WEEK_MS);

    expect(updated).toMatchObject({ cancel_at_period_end: true, cancel_at: start + WEEK, status: 'active' });
    const events = await eventsAfterCheckout();
    expectTypes(events, ['customer.subscription.updated', 'customer.subscription.deleted']);
    expect(stand.simulator.getSubscription(id)).toMatchObject({ status: 'canceled', ended_at: start + WEEK });
    expect(cycleInvoices(id)).toEqual([]);
  });
});
