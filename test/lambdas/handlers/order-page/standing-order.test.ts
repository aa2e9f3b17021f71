import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSessionParams } from '../../../../lambdas/domain/checkout/create-checkout-session';
import { withStandingOrder } from '../../../../lambdas/domain/standing-deliveries/subscription-session';
import { readStandingOrder } from '../../../../lambdas/domain/storage/standing-orders';
import type { createOrderPageHandler } from '../../../../lambdas/handlers/order-page/handler';
import { checkoutRequestSchema } from '../../../../shared/checkout-request';
import { orderReference } from '../../../../shared/checkout-status';
import { nextDispatchDate } from '../../../../shared/dispatch';
import { quoteOrder } from '../../../../shared/pricing';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import {
  type FulfilmentHarness,
  MERCHANT_EMAIL,
  SITE_URL,
  startFulfilmentHarness,
} from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';
import { orderPageOn } from '../../../support/standing-orders';
import { eventPayload, stripeEvent } from '../../../support/stripe-events';

// The standing order's own page (issue 50, ADR 0059) against the Stripe simulator, dynalite and
// the SES stand-in: the link in a delivery's confirmation opens it, and its changes move Stripe.
// The code's clock and the simulator's move together, so this passes on any day and hour.

const WEEK_MS = 7 * 86_400_000;
let h: FulfilmentHarness;
let page: ReturnType<typeof createOrderPageHandler>;

beforeAll(async () => {
  h = await startFulfilmentHarness();
  page = await orderPageOn(h, 'sk_test_order_page');
});
afterAll(() => h?.close());

async function subscribeAndPay(email: string): Promise<string> {
  const input = checkoutRequestSchema.parse({
    ...{ name: 'Zoë Brontë', email, phone: '07700 900123', address: '10 Downing Street\nLondon' },
    ...{ postcode: 'SW1A 2AA', quantity: 3, subtotal: 9.75, shipping: 4.95, total: 14.7, repeat: 'weekly' },
  });
  const now = h.deps.now();
  const day = nextDispatchDate(now);
  const oneOff = buildSessionParams({
    ...{ input, quote: quoteOrder(3), siteUrl: SITE_URL, shopId: TEST_SHOP_ID },
    clientReferenceId: `ord_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    ...{ dispatchDate: day, debitDispatchDate: day, expiresAt: Math.floor(now.getTime() / 1000) + 3_600 },
  });
  const session = await h.stripe.checkout.sessions.create(
    withStandingOrder(oneOff, input, quoteOrder(3), day),
  );
  await h.simulator.completeSession(session.id);
  const paid = await h.stripe.checkout.sessions.retrieve(session.id);
  if (typeof paid.subscription !== 'string') throw new Error('no subscription');
  return paid.subscription;
}

async function deliver(type: string, object: unknown): Promise<string> {
  const payload = eventPayload(stripeEvent(type, object, { created: h.clock.nowSeconds() }));
  const response = await h.webhook(h.delivery(payload));
  expect(response.statusCode).toBe(200);
  return JSON.parse(String(response.body)).outcome;
}

const invoicesOf = (subscriptionId: string): Stripe.Invoice[] =>
  h.simulator.getInvoices({ subscription: subscriptionId });

async function advanceAWeek(): Promise<void> {
  h.clock.advance(WEEK_MS);
  await h.simulator.advanceClock(WEEK_MS);
}

async function emailsTo(address: string, about: string) {
  return (await h.standIns.emails()).filter(
    (email) => email.destination.to.includes(address) && email.subject.includes(about),
  );
}

const view = (token: string) =>
  page(
    apiGatewayEvent({ method: 'GET', path: '/functions/v1/order-page', queryStringParameters: { token } }),
  );
const change = (body: Record<string, unknown>) =>
  page(
    apiGatewayEvent({
      method: 'POST',
      path: '/functions/v1/order-page/standing-order',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );

type View = {
  status: string;
  bottles: number;
  actions: string[];
  deliveries: Array<{ day: string; state: string }>;
};

describe("a weekly standing order's own page", () => {
  const email = `zoe.${randomUUID().slice(0, 8)}@example.com`;
  let subscriptionId = '';
  let token = '';

  it("opens from the link in a delivery's confirmation, with no Stripe id in it", async () => {
    subscriptionId = await subscribeAndPay(email);
    const [first] = invoicesOf(subscriptionId);
    expect(await deliver('invoice.paid', first)).toBe('fulfilled');
    const [confirmation] = await emailsTo(email, 'confirmed');
    const link = /https:\/\/shop\.test\/order\/([A-Za-z0-9_-]+)/.exec(confirmation?.body.text ?? '');
    token = link?.[1] ?? '';

    const result = await view(token);

    expect(result.statusCode).toBe(200);
    const body = jsonBody(result) as View;
    expect(body).toMatchObject({ kind: 'standing-order', status: 'active', bottles: 3, totalPence: 1470 });
    expect(body.actions).toEqual(['skip', 'pause', 'quantity', 'cancel']);
    expect(JSON.stringify(body)).not.toContain('sub_');
  });

  it('answers the one 404 to a tampered token, read or change', async () => {
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BA' : 'AA'}`;
    expect((await view(tampered)).statusCode).toBe(404);
    expect((await change({ token: tampered, action: 'pause' })).statusCode).toBe(404);
  });

  it('skips the paid first delivery before its cut-off: refunded in full, one email saying so, and a replay changes nothing', async () => {
    const before = jsonBody(await view(token)) as View;
    const day = before.deliveries[0]?.day ?? '';
    const emailsBefore = (await emailsTo(email, '')).length;

    const result = await change({ token, action: 'skip', day });

    expect(result.statusCode).toBe(200);
    const [first] = invoicesOf(subscriptionId);
    expect((await h.ordersFor(first?.id ?? ''))[0]).toMatchObject({ status: 'refunded' });
    // One email to the customer: the skip's, with the refund in it (the refund sends none of its own).
    const emailsAfter = await emailsTo(email, '');
    expect(emailsAfter).toHaveLength(emailsBefore + 1);
    const [skipped] = await emailsTo(email, 'is skipped, £14.70 refunded');
    expect(skipped?.body.text).toContain('Its payment of £14.70 is refunded to your card');
    const replay = await change({ token, action: 'skip', day });
    expect(replay.statusCode).toBe(409);
    expect(await emailsTo(email, 'is skipped')).toHaveLength(1);
  });

  it('skips the next, unpaid delivery: no charge and no order that week', async () => {
    const next = (jsonBody(await view(token)) as View).deliveries.find(({ state }) => state === 'due');

    expect((await change({ token, action: 'skip', day: next?.day })).statusCode).toBe(200);
    await advanceAWeek();

    const voided = invoicesOf(subscriptionId)[1];
    expect(voided?.status).toBe('void');
    expect(await h.ordersFor(voided?.id ?? '')).toHaveLength(0);
  });

  it('refuses to skip a delivery that is not the next one', async () => {
    const result = await change({ token, action: 'skip', day: '2026-01-05' });
    expect(result.statusCode).toBe(409);
  });

  it('changes the quantity to 6: the next renewal is 6 x 325 + 495 = 2445 pence and makes its order', async () => {
    expect((await change({ token, action: 'quantity', quantity: 6 })).statusCode).toBe(200);
    expect((await change({ token, action: 'quantity', quantity: 6 })).statusCode).toBe(409);
    await advanceAWeek();

    const renewal = invoicesOf(subscriptionId)[2];
    expect(renewal).toMatchObject({ status: 'paid', amount_paid: 2445 });
    expect(await deliver('invoice.paid', renewal)).toBe('fulfilled');
    expect((await h.ordersFor(renewal?.id ?? ''))[0]).toMatchObject({ bottles: 6, totalPence: 2445 });
    expect(await readStandingOrder(h.deps.table, subscriptionId)).toMatchObject({
      bottles: 6,
      totalPence: 2445,
    });
  });

  it('pauses (no charge while paused) and resumes (charged again), and refuses a resume when not paused', async () => {
    expect((await change({ token, action: 'resume' })).statusCode).toBe(409);
    expect((await change({ token, action: 'pause' })).statusCode).toBe(200);
    expect((jsonBody(await view(token)) as View).status).toBe('paused');
    await advanceAWeek();
    expect(invoicesOf(subscriptionId)[3]?.status).toBe('void');

    expect((await change({ token, action: 'resume' })).statusCode).toBe(200);
    await advanceAWeek();
    expect(invoicesOf(subscriptionId)[4]).toMatchObject({ status: 'paid', amount_paid: 2445 });
  });

  it('cancels: no more payments or orders, one email to the customer and one notice to the merchant, however often', async () => {
    const result = await change({ token, action: 'cancel' });
    expect(result.statusCode).toBe(200);
    expect((jsonBody(result) as View).status).toBe('cancelled');
    expect((await change({ token, action: 'cancel' })).statusCode).toBe(409);
    expect((await change({ token, action: 'pause' })).statusCode).toBe(409);
    const cancelled = await h.stripe.subscriptions.retrieve(subscriptionId);
    expect(cancelled.status).toBe('canceled');
    // Stripe tells the webhook of the cancel: the write that marked it sent its email already.
    await deliver('customer.subscription.deleted', cancelled);

    const invoices = invoicesOf(subscriptionId).length;
    await advanceAWeek();
    expect(invoicesOf(subscriptionId)).toHaveLength(invoices);
    const reference = orderReference(subscriptionId);
    expect(await emailsTo(email, `${reference} is cancelled`)).toHaveLength(1);
    expect(
      await emailsTo(MERCHANT_EMAIL, `Standing order cancelled by the customer: ${reference}`),
    ).toHaveLength(1);
  });
});

describe('a standing order cancelled in Stripe', () => {
  it('is emailed once, however often the webhook is told', async () => {
    const email = `ada.${randomUUID().slice(0, 8)}@example.com`;
    const subscriptionId = await subscribeAndPay(email);
    expect(await deliver('invoice.paid', invoicesOf(subscriptionId)[0])).toBe('fulfilled');
    const cancelled = await h.stripe.subscriptions.cancel(subscriptionId);

    await deliver('customer.subscription.deleted', cancelled);
    await deliver('customer.subscription.deleted', cancelled);

    expect(await emailsTo(email, `${orderReference(subscriptionId)} is cancelled`)).toHaveLength(1);
    expect(await readStandingOrder(h.deps.table, subscriptionId)).toMatchObject({
      status: 'cancelled',
      cancelledBy: 'Stripe',
    });
  });
});
