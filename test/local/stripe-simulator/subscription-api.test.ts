import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { startStripeSimulator } from '../../../local/stripe-simulator/server';
import {
  expectTypes,
  simulatorPerTest,
  subscriptionSessionParams,
  verifiedEvents,
} from './subscription-support';
import { rejectionOf, stripeFor } from './support';

const WEEK = 7 * 24 * 60 * 60;

const stand = simulatorPerTest();

async function subscribe(bottles = 3, weeks: 1 | 2 = 1): Promise<Stripe.Checkout.Session> {
  const { id } = await stand.stripe.checkout.sessions.create(subscriptionSessionParams(bottles, weeks));
  return stand.simulator.completeSession(id);
}

function expectMissing(error: unknown, message: string, status = 404): void {
  expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  expect(error).toMatchObject({ statusCode: status, code: 'resource_missing', message });
}

describe('subscriptions, invoices, customers and test clocks through the real SDK', () => {
  it('retrieves a subscription, its customer and latest invoice expanded, and the customer alone', async () => {
    const session = await subscribe();

    const subscription = await stand.stripe.subscriptions.retrieve(String(session.subscription), {
      expand: ['customer', 'latest_invoice'],
    });
    const customer = await stand.stripe.customers.retrieve(String(session.customer));

    expect(subscription).toMatchObject({
      object: 'subscription',
      status: 'active',
      customer: { id: session.customer, email: 'zoe@example.com' },
      latest_invoice: { id: session.invoice, status: 'paid', amount_paid: 1470 },
    });
    expect(customer).toMatchObject({ object: 'customer', id: session.customer, email: 'zoe@example.com' });
  });

  it('an unknown subscription, invoice, customer or test clock: 404 resource_missing', async () => {
    expectMissing(
      await rejectionOf(stand.stripe.subscriptions.retrieve('sub_nope')),
      "No such subscription: 'sub_nope'",
    );
    expectMissing(
      await rejectionOf(stand.stripe.subscriptions.update('sub_nope', { cancel_at_period_end: true })),
      "No such subscription: 'sub_nope'",
    );
    expectMissing(
      await rejectionOf(stand.stripe.subscriptions.cancel('sub_nope')),
      "No such subscription: 'sub_nope'",
    );
    expectMissing(await rejectionOf(stand.stripe.invoices.retrieve('in_nope')), "No such invoice: 'in_nope'");
    expectMissing(
      await rejectionOf(stand.stripe.customers.retrieve('cus_nope')),
      "No such customer: 'cus_nope'",
    );
    expectMissing(
      await rejectionOf(stand.stripe.testHelpers.testClocks.retrieve('clock_nope')),
      "No such test_helpers.test_clock: 'clock_nope'",
    );
  });

  it('refuses what the simulator does not play, with Stripe-shaped errors', async () => {
    const session = await subscribe();
    const id = String(session.subscription);
    const subscription = await stand.stripe.subscriptions.retrieve(id);
    const item = subscription.items.data[0]?.id ?? '';

    const prorated = await rejectionOf(
      stand.stripe.subscriptions.update(id, { items: [{ id: item, quantity: 6 }] }),
    );
    const draft = await rejectionOf(
      stand.stripe.subscriptions.update(id, { pause_collection: { behavior: 'keep_as_draft' } }),
    );
    const unknownItem = await rejectionOf(
      stand.stripe.subscriptions.update(id, {
        items: [{ id: 'si_nope', quantity: 6 }],
        proration_behavior: 'none',
      }),
    );
    const unknownParam = await rejectionOf(
      stand.stripe.subscriptions.update(id, { trial_end: 'now' } as Stripe.SubscriptionUpdateParams),
    );

    expect(prorated).toMatchObject({ statusCode: 400, param: 'proration_behavior' });
    expect(draft).toMatchObject({ statusCode: 400, param: 'pause_collection[behavior]' });
    expect(unknownItem).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'items[0][id]' });
    expect(unknownParam).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'trial_end' });
  });

  it('lists invoices by subscription, status and created[gte], newest first, a page at a time', async () => {
    const session = await subscribe();
    const id = String(session.subscription);
    const other = await subscribe(1);
    stand.simulator.failNextRenewal(id);
    await stand.simulator.advanceClock(3 * WEEK * 1000 + 60_000);
    const start = (await stand.stripe.subscriptions.retrieve(id)).start_date;

    const all = await stand.stripe.invoices.list({ subscription: id });
    const paid = await stand.stripe.invoices.list({ subscription: id, status: 'paid' });
    const recent = await stand.stripe.invoices.list({ subscription: id, created: { gte: start + 2 * WEEK } });
    const first = await stand.stripe.invoices.list({ subscription: id, limit: 2 });
    const next = await stand.stripe.invoices.list({
      subscription: id,
      limit: 2,
      starting_after: first.data[1]?.id,
    });
    const everyone = await stand.stripe.invoices.list({ limit: 100 });

    expect(all.object).toBe('list');
    expect(all.data.map((invoice) => [invoice.created - start, invoice.status])).toEqual([
      [3 * WEEK, 'paid'],
      [2 * WEEK, 'paid'],
      [WEEK, 'open'],
      [0, 'paid'],
    ]);
    expect(paid.data).toHaveLength(3);
    expect(recent.data.map((invoice) => invoice.created - start)).toEqual([3 * WEEK, 2 * WEEK]);
    expect(first).toMatchObject({ has_more: true });
    expect(next.data.map((invoice) => invoice.created - start)).toEqual([WEEK, 0]);
    expect(next.has_more).toBe(false);
    expect(everyone.data).toHaveLength(8);
    expect(everyone.data.filter((invoice) => invoice.customer === other.customer)).toHaveLength(4);
  });

  it('lists subscriptions by customer and status; canceled ones only when asked', async () => {
    const kept = await subscribe();
    const ended = await subscribe();
    await stand.stripe.subscriptions.cancel(String(ended.subscription));

    const active = await stand.stripe.subscriptions.list();
    const mine = await stand.stripe.subscriptions.list({ customer: String(kept.customer) });
    const canceled = await stand.stripe.subscriptions.list({ status: 'canceled' });
    const all = await stand.stripe.subscriptions.list({ status: 'all', limit: 1 });

    expect(active.data.map((subscription) => subscription.id)).toEqual([kept.subscription]);
    expect(mine.data.map((subscription) => subscription.id)).toEqual([kept.subscription]);
    expect(canceled.data.map((subscription) => subscription.id)).toEqual([ended.subscription]);
    expect(all).toMatchObject({
      has_more: true,
      data: [expect.objectContaining({ object: 'subscription' })],
    });
  });

  it('an invoice retrieved with its subscription and payments expanded', async () => {
    const session = await subscribe();

    const invoice = await stand.stripe.invoices.retrieve(String(session.invoice), {
      expand: ['parent.subscription_details.subscription', 'payments', 'customer'],
    });

    expect(invoice.parent?.subscription_details?.subscription).toMatchObject({
      id: session.subscription,
      object: 'subscription',
    });
    expect(invoice.payments?.data[0]).toMatchObject({ amount_paid: 1470, status: 'paid' });
    expect(invoice.customer).toMatchObject({ id: session.customer, object: 'customer' });
  });

  it('a test clock advanced through the API moves the simulator clock and renews before answering', async () => {
    const session = await subscribe();
    const now = stand.simulator.nowSeconds();
    const clock = await stand.stripe.testHelpers.testClocks.create({
      frozen_time: now,
      name: 'standing orders',
    });

    const advanced = await stand.stripe.testHelpers.testClocks.advance(clock.id, {
      frozen_time: now + WEEK + 60,
    });
    const renewed = await stand.stripe.invoices.list({
      subscription: String(session.subscription),
      status: 'paid',
    });
    const backwards = await rejectionOf(
      stand.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: now }),
    );

    expect(advanced).toMatchObject({
      object: 'test_helpers.test_clock',
      status: 'ready',
      frozen_time: now + WEEK + 60,
    });
    expect(await stand.stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({
      frozen_time: now + WEEK + 60,
    });
    expect(stand.simulator.nowSeconds()).toBeGreaterThanOrEqual(now + WEEK + 60);
    expect(renewed.data.map((invoice) => invoice.billing_reason)).toEqual([
      'subscription_cycle',
      'subscription_create',
    ]);
    expectTypes(verifiedEvents(stand).slice(3), ['invoice.paid', 'invoice.payment_succeeded']);
    expect(backwards).toMatchObject({ statusCode: 400, param: 'frozen_time' });
  });

  it('creates a customer', async () => {
    const customer = await stand.stripe.customers.create({
      email: 'ann@example.com',
      name: 'Ann',
      metadata: { a: 'b' },
    });

    expect(customer).toMatchObject({
      object: 'customer',
      email: 'ann@example.com',
      name: 'Ann',
      metadata: { a: 'b' },
    });
    expect(await stand.stripe.customers.retrieve(customer.id)).toMatchObject({ id: customer.id });
  });

  it('an update retried with its idempotency key is replayed: one change, one event', async () => {
    const session = await subscribe();
    const id = String(session.subscription);

    const first = await stand.stripe.subscriptions.update(
      id,
      { metadata: { skip: '1' } },
      { idempotencyKey: 'upd-1' },
    );
    const again = await stand.stripe.subscriptions.update(
      id,
      { metadata: { skip: '1' } },
      { idempotencyKey: 'upd-1' },
    );
    await stand.simulator.idle();

    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expectTypes(verifiedEvents(stand).slice(3), ['customer.subscription.updated']);
  });
});

describe('kept between runs', () => {
  it('keeps customers, subscriptions and invoices, and renews after a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'simulator-billing-')), 'stripe-simulator.json');
    const before = await startStripeSimulator({ port: 0, stateFile: file });
    const beforeStripe = stripeFor(before);
    const { id } = await beforeStripe.checkout.sessions.create(subscriptionSessionParams());
    const session = await before.completeSession(id);
    await before.close();

    const after = await startStripeSimulator({ port: 0, stateFile: file });
    try {
      const afterStripe = stripeFor(after);
      await after.advanceClock(WEEK * 1000 + 60_000);
      const invoices = await afterStripe.invoices.list({ subscription: String(session.subscription) });

      expect(await afterStripe.customers.retrieve(String(session.customer))).toMatchObject({
        email: 'zoe@example.com',
      });
      expect(invoices.data.map((invoice) => invoice.billing_reason)).toEqual([
        'subscription_cycle',
        'subscription_create',
      ]);
    } finally {
      await after.close();
    }
  });
});
