import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  expectTypes,
  invoiceOf,
  simulatorPerTest,
  subscriptionIdOf,
  subscriptionSessionParams,
  verifiedEvents,
} from './subscription-support';
import { rejectionOf } from './support';

const stand = simulatorPerTest();

function sessionOf(event: Stripe.Event | undefined): Stripe.Checkout.Session {
  if (event?.type !== 'checkout.session.completed')
    throw new Error(`not a completed session: ${event?.type}`);
  return event.data.object;
}

describe('Checkout in subscription mode (standing orders)', () => {
  it('makes an open subscription session: recurring weekly prices, card only, £14.70 for 3 bottles', async () => {
    const session = await stand.stripe.checkout.sessions.create({
      ...subscriptionSessionParams(3, 1),
      expand: ['line_items'],
    });

    expect(session).toMatchObject({
      mode: 'subscription',
      status: 'open',
      payment_method_types: ['card'],
      amount_total: 1470,
      subscription: null,
      invoice: null,
      payment_intent: null,
    });
    expect(
      session.line_items?.data.map((item) => [item.quantity, item.price?.unit_amount, item.price?.recurring]),
    ).toEqual([
      [3, 325, expect.objectContaining({ interval: 'week', interval_count: 1 })],
      [1, 495, expect.objectContaining({ interval: 'week', interval_count: 1 })],
    ]);
    const page = await (await fetch(`${stand.simulator.url}/c/pay/${session.id}`)).text();
    expect(page).toContain('Then £14.70 every week, until cancelled.');
    expect(page).not.toContain('Bacs Direct Debit');
  });

  it('paid on the hosted page: a customer, an active subscription and its paid first invoice, then completed, invoice.paid and invoice.payment_succeeded in that order, signed', async () => {
    const { id } = await stand.stripe.checkout.sessions.create(subscriptionSessionParams(3, 1));

    const payment = await fetch(`${stand.simulator.url}/c/pay/${id}`, {
      method: 'POST',
      body: new URLSearchParams({ card_number: '4242 4242 4242 4242' }),
      redirect: 'manual',
    });
    const arrivedBeforeRedirect = stand.receiver.received.length;
    const events = verifiedEvents(stand);

    expect(payment.status).toBe(303);
    expect(arrivedBeforeRedirect).toBe(3);
    expectTypes(events, ['checkout.session.completed', 'invoice.paid', 'invoice.payment_succeeded']);
    const session = sessionOf(events[0]);
    expect(session).toMatchObject({ id, status: 'complete', payment_status: 'paid', mode: 'subscription' });
    expect(session.subscription).toMatch(/^sub_/);
    expect(session.invoice).toMatch(/^in_/);
    expect(session.customer).toMatch(/^cus_/);
    const invoice = invoiceOf(events[1]);
    expect(invoiceOf(events[2]).id).toBe(invoice.id);
    const now = stand.simulator.nowSeconds();
    expect(invoice).toMatchObject({
      id: session.invoice,
      billing_reason: 'subscription_create',
      status: 'paid',
      amount_due: 1470,
      amount_paid: 1470,
      currency: 'gbp',
      customer: session.customer,
      customer_email: 'zoe@example.com',
      parent: {
        type: 'subscription_details',
        subscription_details: {
          subscription: session.subscription,
          metadata: { shop_id: 'live-aquatics', standing_order: 'so_test_123', quantity: '3' },
        },
      },
    });
    expect(subscriptionIdOf(invoice)).toBe(session.subscription);
    expect(invoice.status_transitions.paid_at).toBeGreaterThanOrEqual(now - 5);
    expect(invoice.lines.data.map((line) => [line.quantity, line.amount])).toEqual([
      [3, 975],
      [1, 495],
    ]);
    // Like Stripe, `payments` is included only when expanded: the event does not carry it.
    expect(invoice.payments).toBeUndefined();
    const retrieved = await stand.stripe.invoices.retrieve(invoice.id, { expand: ['payments'] });
    const paymentIntent = retrieved.payments?.data[0]?.payment.payment_intent;
    expect(paymentIntent).toMatch(/^pi_/);
    expect(await stand.stripe.paymentIntents.retrieve(String(paymentIntent))).toMatchObject({
      status: 'succeeded',
      amount_received: 1470,
      customer: session.customer,
    });
  });

  it('the subscription: active, weekly periods on its items, the metadata of subscription_data, its first invoice latest', async () => {
    const { id } = await stand.stripe.checkout.sessions.create(subscriptionSessionParams(3, 1));
    const session = await stand.simulator.completeSession(id);
    await stand.simulator.idle();

    const subscription = stand.simulator.getSubscription(String(session.subscription));
    const start = subscription?.start_date ?? 0;
    expect(subscription).toMatchObject({
      status: 'active',
      customer: session.customer,
      latest_invoice: session.invoice,
      metadata: { shop_id: 'live-aquatics', standing_order: 'so_test_123', quantity: '3' },
      cancel_at_period_end: false,
      pause_collection: null,
      collection_method: 'charge_automatically',
    });
    expect(
      subscription?.items.data.map((item) => [
        item.quantity,
        item.price.unit_amount,
        item.current_period_start,
        item.current_period_end,
      ]),
    ).toEqual([
      [3, 325, start, start + 7 * 24 * 60 * 60],
      [1, 495, start, start + 7 * 24 * 60 * 60],
    ]);
    expect(stand.simulator.getCustomer(String(session.customer))).toMatchObject({ email: 'zoe@example.com' });
    expect(
      stand.simulator
        .getInvoices({ subscription: String(session.subscription) })
        .map((invoice) => invoice.id),
    ).toEqual([session.invoice]);
  });

  it('every 2 weeks: the period is a fortnight', async () => {
    const { id } = await stand.stripe.checkout.sessions.create(subscriptionSessionParams(2, 2));
    const session = await stand.simulator.completeSession(id);

    const [item] = stand.simulator.getSubscription(String(session.subscription))?.items.data ?? [];
    expect((item?.current_period_end ?? 0) - (item?.current_period_start ?? 0)).toBe(14 * 24 * 60 * 60);
    expect(item?.price.recurring).toMatchObject({ interval: 'week', interval_count: 2 });
  });

  it('a declined card pays nothing and makes no subscription', async () => {
    const { id } = await stand.stripe.checkout.sessions.create(subscriptionSessionParams());

    const page = await fetch(`${stand.simulator.url}/c/pay/${id}`, {
      method: 'POST',
      body: new URLSearchParams({ card_number: '4000 0000 0000 0002' }),
    });

    expect(page.status).toBe(402);
    expect(stand.receiver.received).toEqual([]);
    expect(stand.simulator.getInvoices()).toEqual([]);
  });

  it.each([
    [
      'a monthly price',
      {
        line_items: [
          {
            price_data: {
              currency: 'gbp',
              unit_amount: 325,
              recurring: { interval: 'month' },
              product_data: { name: 'Daphnia' },
            },
            quantity: 3,
          },
        ],
      },
      'line_items[0][price_data][recurring][interval]',
      /only recurring\[interval\]=week/,
    ],
    [
      'a one-time price',
      {
        line_items: [
          {
            price_data: { currency: 'gbp', unit_amount: 325, product_data: { name: 'Daphnia' } },
            quantity: 3,
          },
        ],
      },
      'line_items[0][price_data][recurring]',
      /only recurring prices/,
    ],
    [
      'weekly and fortnightly lines together',
      {
        line_items: [
          ...(subscriptionSessionParams(3, 1).line_items ?? []).slice(0, 1),
          ...(subscriptionSessionParams(3, 2).line_items ?? []).slice(1),
        ],
      },
      'line_items',
      /same `recurring.interval`/,
    ],
    [
      'a subscription that does not say card only',
      { allowed_payment_method_types: ['card', 'bacs_debit'] },
      'allowed_payment_method_types',
      /by card only/,
    ],
  ] as const)('refuses %s', async (_name, overrides, param, message) => {
    const error = await rejectionOf(
      stand.stripe.checkout.sessions.create({
        ...subscriptionSessionParams(),
        ...(overrides as Partial<Stripe.Checkout.SessionCreateParams>),
      }),
    );

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, param, message: expect.stringMatching(message) });
  });
});
