import type Stripe from 'stripe';
import { afterEach, beforeEach, expect } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import { startWebhookReceiver, stripeFor, WEBHOOK_SECRET, type WebhookReceiver } from './support';

export interface SubscriptionStand {
  readonly simulator: StripeSimulator;
  readonly stripe: Stripe;
  readonly receiver: WebhookReceiver;
}

/**
 * A fresh simulator (its webhooks to a receiver of the test's own, retried after 20 ms) and the
 * real SDK for each test of the calling file; each stopped after its test.
 */
export function simulatorPerTest(): SubscriptionStand {
  let current: SubscriptionStand | undefined;
  beforeEach(async () => {
    const receiver = await startWebhookReceiver();
    const simulator = await startStripeSimulator({
      port: 0,
      webhook: { url: receiver.url, secret: WEBHOOK_SECRET },
      webhookRetryDelaysMs: [20],
    });
    current = { simulator, stripe: stripeFor(simulator), receiver };
  });
  afterEach(async () => {
    await current?.simulator.close();
    await current?.receiver.close();
    current = undefined;
  });
  const started = (): SubscriptionStand => {
    if (current === undefined) throw new Error('the simulator runs only inside a test');
    return current;
  };
  return {
    get simulator() {
      return started().simulator;
    },
    get stripe() {
      return started().stripe;
    },
    get receiver() {
      return started().receiver;
    },
  };
}

/**
 * A standing order's Checkout Session as the contract of issue 50 describes it: `bottles` × £3.25
 * and one delivery at £4.95, both recurring every `weeks` weeks, card only, the order's metadata
 * on the subscription.
 */
export function subscriptionSessionParams(
  bottles = 3,
  weeks: 1 | 2 = 1,
): Stripe.Checkout.SessionCreateParams {
  const recurring = { interval: 'week', interval_count: weeks } as const;
  return {
    mode: 'subscription',
    allowed_payment_method_types: ['card'],
    customer_email: 'zoe@example.com',
    client_reference_id: 'so_test_123',
    line_items: [
      {
        price_data: {
          currency: 'gbp',
          unit_amount: 325,
          recurring,
          product_data: { name: 'Daphnia (live), 1 litre' },
        },
        quantity: bottles,
      },
      {
        price_data: { currency: 'gbp', unit_amount: 495, recurring, product_data: { name: 'Delivery' } },
        quantity: 1,
      },
    ],
    metadata: { shop_id: 'live-aquatics' },
    subscription_data: {
      metadata: { shop_id: 'live-aquatics', standing_order: 'so_test_123', quantity: String(bottles) },
    },
    success_url: 'http://localhost:3000/order/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:3000/order',
  };
}

/**
 * The events received so far, each verified as the shop's handler must (raw body, header,
 * secret), at the simulator's clock, which tests move weeks ahead of the real one.
 */
export function verifiedEvents({ stripe, receiver, simulator }: SubscriptionStand): Stripe.Event[] {
  return receiver.received.map((webhook) =>
    stripe.webhooks.constructEvent(
      webhook.rawBody,
      webhook.signature,
      WEBHOOK_SECRET,
      300,
      undefined,
      simulator.nowSeconds(),
    ),
  );
}

/** The invoice an `invoice.*` event is about. */
export function invoiceOf(event: Stripe.Event | undefined): Stripe.Invoice {
  switch (event?.type) {
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
    case 'invoice.payment_failed':
    case 'invoice.voided':
      return event.data.object;
    default:
      throw new Error(`not an invoice event: ${event?.type}`);
  }
}

/** The subscription an invoice was made for, as the current API names it. */
export function subscriptionIdOf(invoice: Stripe.Invoice): string | undefined {
  const subscription = invoice.parent?.subscription_details?.subscription;
  return typeof subscription === 'string' ? subscription : subscription?.id;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;

export function expectTypes(events: Stripe.Event[], types: string[]): void {
  expect(events.map((event) => event.type)).toEqual(types);
}
