import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import {
  shopSessionParams,
  startWebhookReceiver,
  stripeFor,
  WEBHOOK_SECRET,
  type WebhookReceiver,
} from './support';

let simulator: StripeSimulator;
let stripe: Stripe;
let receiver: WebhookReceiver;

/** Starts a simulator sending to a fresh receiver that answers `statuses` in turn, then 200. */
async function setUp(statuses: number[] = [], retryDelaysMs = [20, 20]): Promise<void> {
  receiver = await startWebhookReceiver(statuses);
  simulator = await startStripeSimulator({
    port: 0,
    webhook: { url: receiver.url, secret: WEBHOOK_SECRET },
    webhookRetryDelaysMs: retryDelaysMs,
  });
  stripe = stripeFor(simulator);
}

/** Verifies a received webhook exactly as the shop's handler must: raw body, header, secret. */
function verify(index: number): Stripe.Event {
  const webhook = receiver.received[index];
  if (webhook === undefined) throw new Error(`no webhook #${index} arrived`);
  return stripe.webhooks.constructEvent(webhook.rawBody, webhook.signature, WEBHOOK_SECRET);
}

function sessionOf(event: Stripe.Event): Stripe.Checkout.Session {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
      return event.data.object;
    default:
      throw new Error(`unexpected event ${event.type}`);
  }
}

afterEach(async () => {
  await simulator.close();
  await receiver.close();
});

describe('webhook delivery', () => {
  beforeEach(() => setUp());

  it('sends a signed checkout.session.completed that verifies with constructEvent, before redirecting the customer', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    const payment = await fetch(`${simulator.url}/c/pay/${id}`, {
      method: 'POST',
      body: new URLSearchParams({ card_number: '4242 4242 4242 4242' }),
      redirect: 'manual',
    });
    const arrivedBeforeRedirect = receiver.received.length;
    const event = verify(0);

    expect(payment.status).toBe(303);
    expect(arrivedBeforeRedirect).toBe(1);
    expect(event).toMatchObject({
      object: 'event',
      type: 'checkout.session.completed',
      livemode: false,
      api_version: Stripe.API_VERSION,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    expect(event.id).toMatch(/^evt_/);
    expect(sessionOf(event)).toMatchObject({
      id,
      status: 'complete',
      payment_status: 'paid',
      amount_total: 1470,
    });
    // Like Stripe's, the event never carries line items; the handler must retrieve them.
    expect(sessionOf(event).line_items).toBeUndefined();
    expect(receiver.received[0]?.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
    });
    expect(simulator.deliveries).toMatchObject([
      { eventId: event.id, eventType: 'checkout.session.completed', attempt: 1, statusCode: 200, ok: true },
    ]);
  });

  it('sends a body that only verifies byte for byte', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    await simulator.completeSession(id);
    const webhook = receiver.received[0];
    if (webhook === undefined) throw new Error('no webhook arrived');

    const reserialised = JSON.stringify(JSON.parse(webhook.rawBody));

    expect(webhook.rawBody).toContain('\n  "id": "evt_');
    expect(() => stripe.webhooks.constructEvent(reserialised, webhook.signature, WEBHOOK_SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() => stripe.webhooks.constructEvent(webhook.rawBody, webhook.signature, 'whsec_other')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('sends checkout.session.expired when a session is expired through the API', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    await stripe.checkout.sessions.expire(id);
    await simulator.idle();

    const event = verify(0);
    expect(event.type).toBe('checkout.session.expired');
    expect(sessionOf(event)).toMatchObject({ id, status: 'expired' });
  });

  it('follows a delayed payment: completed but unpaid, then async_payment_succeeded or _failed', async () => {
    const settles = await stripe.checkout.sessions.create(shopSessionParams());
    const fails = await stripe.checkout.sessions.create(shopSessionParams());

    const pending = await simulator.completeSession(settles.id, { paymentStatus: 'unpaid' });
    const settled = await simulator.settleAsyncPayment(settles.id, 'succeeded');
    await simulator.completeSession(fails.id, { paymentStatus: 'unpaid' });
    const failed = await simulator.settleAsyncPayment(fails.id, 'failed');

    const events = receiver.received.map((_, index) => verify(index));
    expect(events.map((event) => [event.type, sessionOf(event).id, sessionOf(event).payment_status])).toEqual(
      [
        ['checkout.session.completed', settles.id, 'unpaid'],
        ['checkout.session.async_payment_succeeded', settles.id, 'paid'],
        ['checkout.session.completed', fails.id, 'unpaid'],
        ['checkout.session.async_payment_failed', fails.id, 'unpaid'],
      ],
    );
    expect(pending).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
    expect(settled.payment_status).toBe('paid');
    expect(failed.payment_status).toBe('unpaid');
    const withIntent = await stripe.checkout.sessions.retrieve(settles.id, { expand: ['payment_intent'] });
    expect(withIntent.payment_intent).toMatchObject({
      status: 'succeeded',
      metadata: { shop: 'live-aquatics' },
    });
  });

  it('refuses test hooks that make no sense for the session state', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    await simulator.completeSession(id);

    await expect(simulator.completeSession(id)).rejects.toThrow(/is complete, not open/);
    await expect(simulator.settleAsyncPayment(id, 'succeeded')).rejects.toThrow(
      /no payment waiting to settle/,
    );
    await expect(simulator.completeSession('cs_test_unknown')).rejects.toThrow(/No such Checkout Session/);
  });

  it('sends nothing when no webhook is configured', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    simulator.setWebhook(undefined);

    await simulator.completeSession(id);

    expect(receiver.received).toEqual([]);
    expect(simulator.deliveries).toEqual([]);
  });
});

describe('webhook retries', () => {
  it('retries after a 500 until the endpoint answers 2xx, re-signing each attempt with a fresh timestamp', async () => {
    // Over a second apart, so the two attempts cannot share a timestamp.
    await setUp([500], [1100]);
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    await simulator.completeSession(id);
    const afterFirstAttempt = simulator.deliveries.length;
    await simulator.idle();

    expect(afterFirstAttempt).toBe(1);
    expect(simulator.deliveries).toMatchObject([
      { attempt: 1, statusCode: 500, ok: false },
      { attempt: 2, statusCode: 200, ok: true },
    ]);
    const [first, second] = receiver.received;
    expect(second?.rawBody).toBe(first?.rawBody);
    expect(second?.signature).not.toBe(first?.signature);
    expect(simulator.deliveries[1]?.signedAt).toBeGreaterThan(simulator.deliveries[0]?.signedAt ?? Infinity);
    expect(verify(0).id).toBe(verify(1).id);
  });

  it('retries after network errors and gives up after the last delay', async () => {
    await setUp();
    const unreachable = await startWebhookReceiver();
    await unreachable.close();
    simulator.setWebhook({ url: unreachable.url, secret: WEBHOOK_SECRET });
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    await simulator.completeSession(id);
    await simulator.idle();

    expect(simulator.deliveries.map((delivery) => delivery.attempt)).toEqual([1, 2, 3]);
    for (const delivery of simulator.deliveries) {
      expect(delivery).toMatchObject({
        statusCode: null,
        ok: false,
        error: expect.stringMatching(/ECONNREFUSED/),
      });
    }
  });

  it('counts a redirect as a failed delivery, as Stripe does', async () => {
    await setUp([302, 302, 302]);
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    await simulator.completeSession(id);
    await simulator.idle();

    expect(simulator.deliveries.map((delivery) => [delivery.statusCode, delivery.ok])).toEqual([
      [302, false],
      [302, false],
      [302, false],
    ]);
  });
});
