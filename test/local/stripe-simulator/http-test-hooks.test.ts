import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import { subscriptionSessionParams } from './subscription-support';
import { startWebhookReceiver, stripeFor, WEBHOOK_SECRET, type WebhookReceiver } from './support';

// What the browser tests reach from their own process (issue 50): a test clock moves Stripe's
// time while the deliveries stay signed on the host's clock, and a renewal declined over HTTP.

const WEEK = 7 * 24 * 60 * 60;
let simulator: StripeSimulator;
let stripe: Stripe;
let receiver: WebhookReceiver;

beforeEach(async () => {
  receiver = await startWebhookReceiver();
  simulator = await startStripeSimulator({
    port: 0,
    webhook: { url: receiver.url, secret: WEBHOOK_SECRET },
    webhookRetryDelaysMs: [],
    signingNow: Date.now,
  });
  stripe = stripeFor(simulator);
});

afterEach(async () => {
  await simulator.close();
  await receiver.close();
});

async function subscribe(): Promise<string> {
  const { id } = await stripe.checkout.sessions.create(subscriptionSessionParams(3, 1));
  return String((await simulator.completeSession(id)).subscription);
}

async function advanceAWeek(): Promise<void> {
  const now = simulator.nowSeconds();
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: now });
  await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: now + WEEK + 60 });
  await simulator.idle();
}

describe("the simulator's HTTP test hooks and host-clock signatures", () => {
  it('signs a renewal a week ahead on the host clock, so a handler on the real clock accepts it', async () => {
    await subscribe();
    await advanceAWeek();

    const renewal = receiver.received.find((webhook) => webhook.rawBody.includes('"subscription_cycle"'));
    if (renewal === undefined) throw new Error('no renewal delivered');
    const event = stripe.webhooks.constructEvent(renewal.rawBody, renewal.signature, WEBHOOK_SECRET, 300);
    expect(event.type).toMatch(/^invoice\./);
    expect(simulator.nowSeconds() - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(WEEK);
  });

  it('POST /test-hooks/subscriptions/:id/fail-next-renewal declines the next renewal; an unknown id is 404', async () => {
    const id = await subscribe();

    const hook = await fetch(`${simulator.url}/test-hooks/subscriptions/${id}/fail-next-renewal`, {
      method: 'POST',
    });
    const unknown = await fetch(`${simulator.url}/test-hooks/subscriptions/sub_nope/fail-next-renewal`, {
      method: 'POST',
    });
    await advanceAWeek();

    expect(hook.status).toBe(204);
    expect(unknown.status).toBe(404);
    const [, renewal] = simulator.getInvoices({ subscription: id });
    expect(renewal).toMatchObject({ status: 'open', billing_reason: 'subscription_cycle' });
    expect(simulator.getSubscription(id)?.status).toBe('past_due');
  });
});
