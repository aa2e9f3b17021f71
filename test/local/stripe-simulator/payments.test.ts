import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import {
  rejectionOf,
  shopSessionParams,
  startWebhookReceiver,
  stripeFor,
  WEBHOOK_SECRET,
  type WebhookReceiver,
} from './support';

let simulator: StripeSimulator;
let stripe: Stripe;
let receiver: WebhookReceiver;

beforeEach(async () => {
  receiver = await startWebhookReceiver();
  simulator = await startStripeSimulator({
    port: 0,
    webhook: { url: receiver.url, secret: WEBHOOK_SECRET },
    asyncSettleDelayMs: 50,
  });
  stripe = stripeFor(simulator);
});
afterEach(async () => {
  await simulator.close();
  await receiver.close();
});

/** When the `index`th event was created, in Unix seconds. */
function receivedAt(index: number): number {
  const webhook = receiver.received[index];
  if (webhook === undefined) throw new Error(`no webhook #${index}`);
  return stripe.webhooks.constructEvent(webhook.rawBody, webhook.signature, WEBHOOK_SECRET).created;
}

/** The types and payment statuses of every event received so far, each verified as the shop verifies it. */
function received(): Array<[string, string | null]> {
  return receiver.received.map(({ rawBody, signature }) => {
    const event = stripe.webhooks.constructEvent(rawBody, signature, WEBHOOK_SECRET);
    const object = event.data.object;
    return [event.type, 'payment_status' in object ? object.payment_status : null];
  });
}

function payOnPage(id: string, form: Record<string, string>, path = ''): Promise<Response> {
  return fetch(`${simulator.url}/c/pay/${id}${path}`, {
    method: 'POST',
    body: new URLSearchParams(form),
    redirect: 'manual',
  });
}

async function intentOf(sessionId: string): Promise<Stripe.PaymentIntent> {
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  if (typeof session.payment_intent !== 'string') throw new Error('session has no payment_intent');
  return stripe.paymentIntents.retrieve(session.payment_intent, { expand: ['latest_charge'] });
}

function chargeOf(intent: Stripe.PaymentIntent): Stripe.Charge {
  if (typeof intent.latest_charge !== 'object' || intent.latest_charge === null) {
    throw new Error('latest_charge not expanded');
  }
  return intent.latest_charge;
}

describe('an idempotency key whose first request failed inside Stripe', () => {
  it('replays the stored 500 to a retry with the same key, and runs afresh for a new key', async () => {
    const key = randomUUID();
    const params = shopSessionParams({ client_reference_id: key });
    simulator.injectFault({ status: 500, storedForKey: true, pathPrefix: '/v1/checkout/sessions' });

    const first = await rejectionOf(stripe.checkout.sessions.create(params, { idempotencyKey: key }));
    const retry = await rejectionOf(stripe.checkout.sessions.create(params, { idempotencyKey: key }));
    const fresh = await stripe.checkout.sessions.create(params, { idempotencyKey: randomUUID() });

    expect(first).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(first).toMatchObject({ statusCode: 500, message: 'Simulated failure' });
    expect(retry).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(retry).toMatchObject({ statusCode: 500, headers: { 'idempotent-replayed': 'true' } });
    expect(fresh.status).toBe('open');
    const sessions = await stripe.checkout.sessions.list({ limit: 100 });
    expect(sessions.data.map((session) => session.id)).toEqual([fresh.id]);
  });

  it('stores nothing for a 500 in front of the API, so a retry with the key runs', async () => {
    const key = randomUUID();
    simulator.injectFault({ status: 500 });

    await rejectionOf(stripe.checkout.sessions.create(shopSessionParams(), { idempotencyKey: key }));
    const retry = await stripe.checkout.sessions.create(shopSessionParams(), { idempotencyKey: key });

    expect(retry.status).toBe('open');
    expect(retry.lastResponse.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('PaymentIntent and Charge of a paid session', () => {
  it('pays by card: PaymentIntent succeeded, its latest_charge succeeded and created when the customer paid', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    const before = Math.floor(Date.now() / 1000);

    await payOnPage(id, { card_number: '4242 4242 4242 4242' });
    const intent = await intentOf(id);
    const charge = chargeOf(intent);

    expect(intent).toMatchObject({
      object: 'payment_intent',
      status: 'succeeded',
      amount: 1470,
      amount_received: 1470,
      currency: 'gbp',
      payment_method_types: ['card'],
      metadata: { shop: 'live-aquatics', quantity: '3' },
      description: '3 x Daphnia Magna (250ml), dispatch 2026-11-30',
    });
    expect(charge).toMatchObject({
      object: 'charge',
      status: 'succeeded',
      paid: true,
      amount: 1470,
      amount_refunded: 0,
      refunded: false,
      payment_intent: intent.id,
      payment_method_details: { type: 'card' },
    });
    expect(charge.id).toMatch(/^ch_/);
    expect(charge.created).toBeGreaterThanOrEqual(before);
    expect(charge.created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('expands payment_intent.latest_charge on the session too', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    await simulator.completeSession(id);

    const session = await stripe.checkout.sessions.retrieve(id, { expand: ['payment_intent.latest_charge'] });

    expect(session.payment_intent).toMatchObject({
      object: 'payment_intent',
      latest_charge: { object: 'charge', status: 'succeeded' },
    });
  });

  it('answers an unknown PaymentIntent with a 404 resource_missing', async () => {
    const error = await rejectionOf(stripe.paymentIntents.retrieve('pi_unknown'));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such payment_intent: 'pi_unknown'",
    });
  });
});

describe('Bacs Direct Debit on the hosted page', () => {
  it('offers the Direct Debit with its three outcomes', async () => {
    const session = await stripe.checkout.sessions.create(shopSessionParams());

    const html = await (await fetch(session.url ?? '')).text();

    expect(html).toContain('Bacs Direct Debit (test)');
    expect(html).toContain(
      '<input type="radio" name="outcome" value="collected" checked> Collected at once (succeeds)',
    );
    expect(html).toContain('value="collected_later"> Settles later: succeeds');
    expect(html).toContain('value="fails_later"> Settles later: fails');
    expect(session.payment_method_types).toEqual(['card', 'bacs_debit']);
    // One button says "Pay £14.70", so a browser test finding the card's button by name finds only it.
    expect(html).toContain('<button type="submit" class="secondary">Confirm Direct Debit of £14.70</button>');
    expect(html.match(/<button[^>]*>[^<]*Pay £14\.70/g)).toHaveLength(1);
  });

  it('collected at once: completed unpaid, then async_payment_succeeded, both before the redirect', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    const response = await payOnPage(id, { method: 'bacs_debit', outcome: 'collected' });
    const arrivedBeforeRedirect = received();
    const intent = await intentOf(id);

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`http://localhost:3000/success?session_id=${id}`);
    expect(arrivedBeforeRedirect).toEqual([
      ['checkout.session.completed', 'unpaid'],
      ['checkout.session.async_payment_succeeded', 'paid'],
    ]);
    expect(intent).toMatchObject({
      status: 'succeeded',
      amount_received: 1470,
      payment_method_types: ['bacs_debit'],
    });
    expect(chargeOf(intent)).toMatchObject({ status: 'succeeded', paid: true });
  });

  it('settles later (succeeds): async_payment_succeeded once the delay passes, the charge keeping its time', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    const submittedAt = Math.floor(Date.now() / 1000);

    await payOnPage(id, { method: 'bacs_debit', outcome: 'collected_later' });
    await expect.poll(() => receiver.received.length).toBe(2);
    const settled = await intentOf(id);

    expect(received()).toEqual([
      ['checkout.session.completed', 'unpaid'],
      ['checkout.session.async_payment_succeeded', 'paid'],
    ]);
    expect(settled).toMatchObject({ status: 'succeeded', amount_received: 1470 });
    // Like Stripe, the charge is made when the debit is submitted, and keeps that time when it settles.
    expect(chargeOf(settled).status).toBe('succeeded');
    expect(chargeOf(settled).created).toBeGreaterThanOrEqual(submittedAt);
    expect(chargeOf(settled).created).toBeLessThanOrEqual(receivedAt(1));
  });

  it('settles later (fails): async_payment_failed, PaymentIntent back to requires_payment_method, charge failed', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    await payOnPage(id, { method: 'bacs_debit', outcome: 'fails_later' });
    await expect.poll(() => receiver.received.length).toBe(2);
    const intent = await intentOf(id);

    expect(received()).toEqual([
      ['checkout.session.completed', 'unpaid'],
      ['checkout.session.async_payment_failed', 'unpaid'],
    ]);
    expect(intent).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { type: 'invalid_request_error' },
    });
    expect(chargeOf(intent)).toMatchObject({
      status: 'failed',
      paid: false,
      failure_code: 'debit_not_authorized',
    });
  });

  it('settles on demand from the processing page, and the delay then finds nothing to do', async () => {
    const slow = await startStripeSimulator({
      port: 0,
      webhook: { url: receiver.url, secret: WEBHOOK_SECRET },
      asyncSettleDelayMs: 60_000,
    });
    const slowStripe = stripeFor(slow);
    try {
      const { id } = await slowStripe.checkout.sessions.create(shopSessionParams());
      await fetch(`${slow.url}/c/pay/${id}`, {
        method: 'POST',
        body: new URLSearchParams({ method: 'bacs_debit', outcome: 'fails_later' }),
        redirect: 'manual',
      });

      const session = await slowStripe.checkout.sessions.retrieve(id, {
        expand: ['payment_intent.latest_charge'],
      });
      const pending = session.payment_intent;
      if (typeof pending !== 'object' || pending === null) throw new Error('payment_intent not expanded');
      const processing = await fetch(`${slow.url}/c/pay/${id}`);
      const processingHtml = await processing.text();
      const settle = await fetch(`${slow.url}/c/pay/${id}/settle`, {
        method: 'POST',
        body: new URLSearchParams({ outcome: 'succeeded' }),
      });
      const again = await fetch(`${slow.url}/c/pay/${id}/settle`, {
        method: 'POST',
        body: new URLSearchParams({ outcome: 'failed' }),
      });

      expect(session).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
      expect(pending).toMatchObject({ status: 'processing', amount_received: 0 });
      expect(chargeOf(pending)).toMatchObject({ status: 'pending', paid: false });
      expect(processing.status).toBe(200);
      expect(processingHtml).toContain('Direct Debit processing');
      expect(processingHtml).toContain(`<form method="post" action="/c/pay/${id}/settle">`);
      expect(settle.status).toBe(200);
      expect(await settle.text()).toContain('Direct Debit collected');
      expect(again.status).toBe(409);
      expect((await slowStripe.checkout.sessions.retrieve(id)).payment_status).toBe('paid');
      expect(received().map(([type]) => type)).toEqual([
        'checkout.session.completed',
        'checkout.session.async_payment_succeeded',
      ]);
    } finally {
      await slow.close();
    }
  });
});

describe('expanding the PaymentIntents of a session list', () => {
  it('answers data.payment_intent.latest_charge, so one request finds when each payment was made', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    await simulator.completeSession(id, { paymentStatus: 'unpaid' });

    const list = await stripe.checkout.sessions.list({ expand: ['data.payment_intent.latest_charge'] });

    expect(list.data[0]?.payment_intent).toMatchObject({
      status: 'processing',
      latest_charge: { object: 'charge', status: 'pending' },
    });
  });
});

describe('listing completed sessions of the last days, as the reconciler does', () => {
  it('filters by status and created[gte]/[lte], and pages with limit and starting_after', async () => {
    const now = Math.floor(Date.now() / 1000);
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const { id } = await stripe.checkout.sessions.create(shopSessionParams());
      ids.push(id);
    }
    const [tooOld, old, recent, newest, open] = ids;
    if (!tooOld || !old || !recent || !newest || !open) throw new Error('sessions were not created');
    for (const id of [tooOld, old, recent, newest]) await simulator.completeSession(id);
    simulator.patchSession(tooOld, { created: now - 11 * 24 * 60 * 60 });
    simulator.patchSession(old, { created: now - 9 * 24 * 60 * 60 });

    const found = await stripe.checkout.sessions
      .list({ status: 'complete', created: { gte: now - 10 * 24 * 60 * 60 }, limit: 1 })
      .autoPagingToArray({ limit: 100 });
    const window = await stripe.checkout.sessions.list({
      created: { gte: now - 10 * 24 * 60 * 60, lte: now - 24 * 60 * 60 },
    });

    expect(found.map((session) => session.id)).toEqual([newest, recent, old]);
    expect(window.data.map((session) => session.id)).toEqual([old]);
  });
});
