import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, loadWebhookDeps } from '../../lambdas/handlers/stripe-webhook/handler';
import { WEBHOOK_SECRET } from '../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../support/shop';
import { standInEnvironment } from '../support/stand-ins';
import { eventPayload, stripeEvent } from '../support/stripe-events';
import { type OpsHarness, startOpsHarness } from './harness';

// Each order keeps who did what to it, written by the same conditional update as the change:
// the CLI names the signed-in merchant (the admin API reads the email from the token), the webhook names
// the Stripe Dashboard for a refund the shop did not ask for. The clock is Wednesday 25 November
// 2026; orders paid on Tuesday 24 November go on Monday 30 November.
let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

const WEDNESDAY = new Date('2026-11-25T10:00:00Z');
const PAID = new Date('2026-11-24T10:00:00Z');
const AS_PACKER = { env: { USER: 'packer' } };

async function historyOf(sessionId: string): Promise<unknown> {
  const [item] = await h.shop.ordersFor(sessionId);
  return item?.history;
}

describe('orders CLI: the history of each order', () => {
  it('names the local operator for dispatch, delay and refund, once each however often they run', async () => {
    h.setNow(WEDNESDAY);
    const shipped = await h.orderPaidAt(PAID, 1);
    const moved = await h.orderPaidAt(PAID, 2);

    await h.orders(
      ['mark-dispatched', shipped.reference, '--tracking', 'AB 1234 5678 GB', '--local'],
      AS_PACKER,
    );
    await h.orders(['mark-dispatched', shipped.reference, '--local'], AS_PACKER);
    const delay = [
      'delay',
      '--dispatch',
      '2026-11-30',
      '--to',
      '2026-12-01',
      '--reason',
      'weather',
      '--local',
    ];
    expect((await h.orders(delay, AS_PACKER)).code).toBe(0);
    await h.orders(delay, AS_PACKER);
    const refunded = await h.paidOrder({ customer: { email: 'refund.history@example.com' } });
    h.setNow(new Date('2026-11-25T11:30:00Z'));
    const refund = ['refund', refunded.reference, '--reason', 'supply', '--local'];
    expect((await h.orders(refund, AS_PACKER)).code).toBe(0);
    expect((await h.orders(refund, AS_PACKER)).code).toBe(1);
    h.setNow(undefined);

    expect(await historyOf(shipped.sessionId)).toEqual([
      { at: '2026-11-24T10:00:00.000Z', actor: 'Stripe', action: 'paid' },
      {
        at: '2026-11-25T10:00:00.000Z',
        actor: 'merchant@live-aquatics.test',
        action: 'dispatched',
        detail: 'tracking AB12345678GB',
      },
    ]);
    expect(await historyOf(moved.sessionId)).toEqual([
      { at: '2026-11-24T10:00:00.000Z', actor: 'Stripe', action: 'paid' },
      {
        at: '2026-11-25T10:00:00.000Z',
        actor: 'merchant@live-aquatics.test',
        action: 'delayed',
        detail: '2026-11-30 to 2026-12-01, weather',
      },
    ]);
    const [stripeRefund] = h.shop.simulator.refunds.filter(
      (r) => r.payment_intent === refunded.paymentIntentId,
    );
    expect(await historyOf(refunded.sessionId)).toEqual([
      { at: refunded.paidAt, actor: 'Stripe', action: 'paid' },
      {
        at: '2026-11-25T11:30:00.000Z',
        actor: 'merchant@live-aquatics.test',
        action: 'refunded',
        detail: `supply, ${stripeRefund?.id}`,
      },
    ]);
  });

  it('names the Stripe Dashboard for a refund made there, recorded once by charge.refunded', async () => {
    const order = await h.paidOrder({ customer: { email: 'dashboard.history@example.com' } });
    await h.shop.simulator.refundFromDashboard(order.sessionId);

    expect((await deliverChargeRefunded(String(order.paymentIntentId))).statusCode).toBe(200);
    expect((await deliverChargeRefunded(String(order.paymentIntentId))).statusCode).toBe(200);

    expect(await historyOf(order.sessionId)).toEqual([
      { at: order.paidAt, actor: 'Stripe', action: 'paid' },
      { at: expect.stringMatching(ISO), actor: 'Stripe Dashboard', action: 'refunded', detail: 'stripe' },
    ]);
  });

  it('names the shop for a refund it asked for before history named who asked', async () => {
    const order = await h.paidOrder({ customer: { email: 'older.refund@example.com' } });
    // As a refund command of the version before history left the order, Stripe not yet answered.
    await h.shop.standIns.inspector.send(
      new UpdateCommand({
        TableName: h.shop.standIns.tableName,
        Key: { pk: order.pk },
        UpdateExpression: 'SET refundReason = :reason, refundRequestedAt = :at',
        ExpressionAttributeValues: { ':reason': 'supply', ':at': '2026-11-25T09:00:00.000Z' },
      }),
    );
    await h.shop.simulator.refundFromDashboard(order.sessionId);

    expect((await deliverChargeRefunded(String(order.paymentIntentId))).statusCode).toBe(200);

    expect(await historyOf(order.sessionId)).toEqual([
      { at: order.paidAt, actor: 'Stripe', action: 'paid' },
      { at: expect.stringMatching(ISO), actor: 'the shop', action: 'refunded', detail: 'supply' },
    ]);
  });
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The `charge.refunded` event Stripe sends after a refund, delivered to the webhook built from its environment. */
async function deliverChargeRefunded(paymentIntentId: string) {
  const webhook = createWebhookHandler(() =>
    loadWebhookDeps({
      STRIPE_LIVEMODE: 'false',
      SHOP_ID: TEST_SHOP_ID,
      STRIPE_SECRET_KEY: 'sk_test_history',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: h.shop.simulator.url,
      SITE_URL: 'http://shop.test',
      ...standInEnvironment(h.shop.standIns),
    }),
  );
  const intent = await h.shop.stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
  const charge = intent.latest_charge;
  if (charge === null || typeof charge === 'string') throw new Error('no charge');
  return webhook(
    h.shop.delivery(
      eventPayload(stripeEvent('charge.refunded', charge, { created: h.shop.clock.nowSeconds() })),
    ),
  );
}
