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
  simulator = await startStripeSimulator({ port: 0, webhook: { url: receiver.url, secret: WEBHOOK_SECRET } });
  stripe = stripeFor(simulator);
});
afterEach(async () => {
  await simulator.close();
  await receiver.close();
});

/** A session paid by card (£14.70), and its PaymentIntent id. */
async function paidSession(): Promise<{ sessionId: string; paymentIntent: string }> {
  const { id } = await stripe.checkout.sessions.create(shopSessionParams());
  const session = await simulator.completeSession(id);
  if (typeof session.payment_intent !== 'string') throw new Error('no payment_intent');
  return { sessionId: id, paymentIntent: session.payment_intent };
}

/** The `charge.refunded` events received, verified as the shop verifies them. */
function refundedCharges(): Stripe.Charge[] {
  return receiver.received.flatMap(({ rawBody, signature }) => {
    const event = stripe.webhooks.constructEvent(rawBody, signature, WEBHOOK_SECRET);
    return event.type === 'charge.refunded' ? [event.data.object] : [];
  });
}

describe('POST /v1/refunds', () => {
  it('refunds a PaymentIntent in full and sends a signed charge.refunded', async () => {
    const { paymentIntent } = await paidSession();

    const refund = await stripe.refunds.create({
      payment_intent: paymentIntent,
      reason: 'requested_by_customer',
      metadata: { reference: 'LA-123' },
    });
    await simulator.idle();

    expect(refund).toMatchObject({
      object: 'refund',
      amount: 1470,
      currency: 'gbp',
      status: 'succeeded',
      payment_intent: paymentIntent,
      reason: 'requested_by_customer',
      metadata: { reference: 'LA-123' },
    });
    expect(refund.id).toMatch(/^re_/);
    expect(refundedCharges()).toEqual([
      expect.objectContaining({
        id: refund.charge,
        amount: 1470,
        amount_refunded: 1470,
        refunded: true,
        payment_intent: paymentIntent,
      }),
    ]);
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({ id: refund.id, amount: 1470 });
    expect(await stripe.charges.retrieve(String(refund.charge))).toMatchObject({
      amount_refunded: 1470,
      refunded: true,
    });
  });

  it('replays a refund for the same idempotency key, refunding once', async () => {
    const { paymentIntent } = await paidSession();
    const key = `refund:${randomUUID()}`;

    const first = await stripe.refunds.create({ payment_intent: paymentIntent }, { idempotencyKey: key });
    const second = await stripe.refunds.create({ payment_intent: paymentIntent }, { idempotencyKey: key });
    await simulator.idle();

    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(simulator.refunds).toHaveLength(1);
    expect(refundedCharges()).toHaveLength(1);
  });

  it('refuses a second refund of a fully refunded charge with charge_already_refunded', async () => {
    const { paymentIntent } = await paidSession();
    const { charge } = await stripe.refunds.create({ payment_intent: paymentIntent });

    const error = await rejectionOf(stripe.refunds.create({ payment_intent: paymentIntent }));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'charge_already_refunded',
      message: `Charge ${String(charge)} has already been refunded.`,
    });
    expect(simulator.refunds).toHaveLength(1);
  });

  it('refunds part, then refuses more than is left; refunding by charge id works too', async () => {
    const { paymentIntent } = await paidSession();
    const part = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 495 });
    if (typeof part.charge !== 'string') throw new Error('refund without charge id');

    const tooMuch = await rejectionOf(stripe.refunds.create({ charge: part.charge, amount: 1000 }));
    const rest = await stripe.refunds.create({ charge: part.charge });
    await simulator.idle();

    expect(tooMuch).toMatchObject({
      statusCode: 400,
      param: 'amount',
      message: 'Refund amount (£10.00) is greater than unrefunded amount on charge (£9.75)',
    });
    expect(rest.amount).toBe(975);
    expect(refundedCharges().map((charge) => [charge.amount_refunded, charge.refunded])).toEqual([
      [495, false],
      [1470, true],
    ]);
  });

  it('refuses an amount over the charge, an unpaid or unknown payment, and a missing target', async () => {
    const { paymentIntent } = await paidSession();
    const { id: unpaidId } = await stripe.checkout.sessions.create(shopSessionParams());
    const unpaid = await simulator.completeSession(unpaidId, { paymentStatus: 'unpaid' });

    const overCharge = await rejectionOf(
      stripe.refunds.create({ payment_intent: paymentIntent, amount: 1471 }),
    );
    const processing = await rejectionOf(
      stripe.refunds.create({ payment_intent: String(unpaid.payment_intent) }),
    );
    const unknown = await rejectionOf(stripe.refunds.create({ payment_intent: 'pi_unknown' }));
    const neither = await rejectionOf(stripe.refunds.create({ amount: 100 }));

    expect(overCharge).toMatchObject({
      param: 'amount',
      message: 'Refund amount (£14.71) is greater than charge amount (£14.70)',
    });
    expect(processing).toMatchObject({
      param: 'payment_intent',
      message: `This PaymentIntent (${String(unpaid.payment_intent)}) does not have a successful charge to refund.`,
    });
    expect(unknown).toMatchObject({ code: 'resource_missing', param: 'payment_intent' });
    expect(neither).toMatchObject({ statusCode: 400, rawType: 'invalid_request_error' });
    expect(simulator.refunds).toEqual([]);
  });

  it('refuses a reason Stripe does not know, naming the parameter', async () => {
    const { paymentIntent } = await paidSession();

    const error = await rejectionOf(
      stripe.rawRequest('POST', '/v1/refunds', { payment_intent: paymentIntent, reason: 'dead_on_arrival' }),
    );

    expect(error).toMatchObject({
      param: 'reason',
      message: 'Invalid reason: must be one of duplicate, fraudulent, requested_by_customer',
    });
  });

  it('answers an unknown refund id with a 404 resource_missing', async () => {
    const error = await rejectionOf(stripe.refunds.retrieve('re_unknown'));

    expect(error).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such refund: 're_unknown'",
    });
  });
});

describe('refundFromDashboard (test hook)', () => {
  it('refunds a session in full and sends charge.refunded, as a refund made in the Dashboard does', async () => {
    const { sessionId, paymentIntent } = await paidSession();

    const refund = await simulator.refundFromDashboard(sessionId);
    const again = await rejectionOf(simulator.refundFromDashboard(paymentIntent));

    expect(refund).toMatchObject({ amount: 1470, payment_intent: paymentIntent, status: 'succeeded' });
    expect(refundedCharges()).toEqual([
      expect.objectContaining({ amount_refunded: 1470, refunded: true, payment_intent: paymentIntent }),
    ]);
    expect(again).toMatchObject({ body: { code: 'charge_already_refunded' } });
    expect(simulator.refunds.map((made) => made.id)).toEqual([refund.id]);
  });

  it('says so for a session nobody paid', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    await expect(simulator.refundFromDashboard(id)).rejects.toThrow(/has no payment to refund/);
  });
});
