import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ordersToPack } from '../../../../lambdas/domain/operations/listing';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { jsonBody } from '../../../support/api-gateway-event';
import { inputContaining } from '../../../support/aws-faults';
import { type CapacityShop, startCapacityShop } from '../../../support/capacity-shop';
import { MERCHANT_EMAIL } from '../../../support/fulfilment-harness';

// A payment the merchant refunded in the Stripe Dashboard before the shop recorded its order:
// `checkout.session.completed` late (an outage, Stripe's retries), or never. Whatever order the
// events come in, and whichever path records it (webhook or reconciler), it is one order,
// `refunded`: never confirmed, never on a dispatch list, its bottles back on their day. Sessions
// are made by create-checkout as deployed; each test delivers exactly the events it names,
// signed with the SDK's own helper, to the real webhook over dynalite, SES and the simulator.

let shop: CapacityShop;
beforeEach(async () => {
  shop = await startCapacityShop();
});
afterEach(() => shop?.close());

/** A checkout of `bottles` paid by card in the simulator; no event delivered yet. */
async function paidCheckout(bottles: 3 | 6 | 9) {
  const { sessionId = '' } = await shop.checkout(bottles);
  await shop.h.simulator.completeSession(sessionId);
  return { sessionId, reference: sessionId.slice(-12), day: shop.metadata(sessionId).dispatch_date ?? '' };
}

const deliverCompleted = (sessionId: string) => shop.deliver('checkout.session.completed', sessionId);
const deliverChargeRefunded = async (sessionId: string) =>
  shop.h.webhook(shop.h.delivery(await shop.h.chargeRefundedEventFor(sessionId)));

/** Every email about the reference, by subject, oldest first. */
async function subjectsAbout(reference: string): Promise<string[]> {
  return (await shop.h.standIns.emails())
    .filter((email) => email.subject.includes(reference))
    .map((email) => email.subject);
}

async function merchantEmailsAbout(reference: string) {
  return (await shop.h.standIns.emails()).filter(
    (email) => email.subject.includes(reference) && email.destination.to.includes(MERCHANT_EMAIL),
  );
}

async function onDispatchList(day: string, sessionId: string): Promise<boolean> {
  const table = { client: shop.h.standIns.inspector, tableName: shop.h.standIns.tableName };
  return (await ordersToPack(day, { table })).some((order) => order.sessionId === sessionId);
}

/**
 * Runs `action` once, just before the code's first `PutItemCommand` whose input contains every
 * part, and lets the put go only when it resolves: another process's work landing in between.
 */
function beforePut(parts: string[], action: () => Promise<void>): void {
  const name = `before-put-${randomUUID()}`;
  const client = shop.h.clients.documentClient;
  const matches = inputContaining(...parts);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'PutItemCommand' && matches(args.input)) {
        client.middlewareStack.remove(name);
        await action();
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
}

describe('a payment refunded in Stripe before its order was recorded', () => {
  it('refund, then charge.refunded, then the late completed: one refunded order, no confirmation, no bottles sold, not on the dispatch list', async () => {
    // Prepare
    const { sessionId, reference, day } = await paidCheckout(6);
    await shop.h.simulator.refundFromDashboard(sessionId);

    // Act
    const refunded = await deliverChargeRefunded(sessionId);
    const late = await deliverCompleted(sessionId);
    const retried = await deliverCompleted(sessionId);

    // Assess
    expect(jsonBody(refunded)).toEqual({ received: true, outcome: 'refund-recorded' });
    expect(jsonBody(late)).toEqual({ received: true, outcome: 'refunded' });
    expect(jsonBody(retried)).toEqual({ received: true, outcome: 'refunded' });
    const orders = await shop.h.ordersFor(sessionId);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      status: 'refunded',
      bottles: 6,
      totalPence: 2445,
      refundReason: 'stripe',
      refundEmailState: 'sent',
      gsi1sk: expect.stringMatching(/^refunded#/),
    });
    expect(orders[0]).not.toHaveProperty('confirmationEmailState');
    expect(orders[0]).not.toHaveProperty('merchantNoticeEmailState');
    expect(orders[0]?.history).toEqual([
      { at: expect.any(String), actor: 'Stripe', action: 'paid' },
      {
        at: expect.any(String),
        actor: 'Stripe Dashboard',
        action: 'refunded',
        detail: 'stripe, before the order was recorded',
      },
    ]);
    // The customer paid, so one email says the money is going back; nothing was ever confirmed.
    expect(await subjectsAbout(reference)).toEqual([`Live Aquatics Ltd: refund for order ${reference}`]);
    expect(await shop.day(day)).toMatchObject({ taken: 0, sold: 0, holds: new Set(), sales: new Set() });
    expect(await onDispatchList(day, sessionId)).toBe(false);
  });

  it.each([
    ['the late completed alone (its charge.refunded lost)', ['completed']],
    ['the late completed, then charge.refunded', ['completed', 'refunded']],
    ['both at once', ['completed+refunded']],
  ] as const)('%s: one refunded order, no confirmation, no bottles sold', async (_case, deliveries) => {
    const { sessionId, reference, day } = await paidCheckout(3);
    await shop.h.simulator.refundFromDashboard(sessionId);

    for (const delivery of deliveries) {
      const answers =
        delivery === 'completed'
          ? [await deliverCompleted(sessionId)]
          : delivery === 'refunded'
            ? [await deliverChargeRefunded(sessionId)]
            : await Promise.all([deliverCompleted(sessionId), deliverChargeRefunded(sessionId)]);
      for (const answer of answers) expect(answer.statusCode).toBe(200);
    }

    expect(await shop.h.ordersFor(sessionId)).toMatchObject([
      { status: 'refunded', refundEmailState: 'sent' },
    ]);
    expect(await subjectsAbout(reference)).toEqual([`Live Aquatics Ltd: refund for order ${reference}`]);
    expect(await shop.day(day)).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
    expect(await onDispatchList(day, sessionId)).toBe(false);
  });

  it('completed first, then the Dashboard refund and its charge.refunded: the order refunded, confirmed once then the refund email, its bottles back', async () => {
    const { sessionId, reference, day } = await paidCheckout(9);
    expect(jsonBody(await deliverCompleted(sessionId))).toEqual({ received: true, outcome: 'fulfilled' });
    expect(await shop.day(day)).toMatchObject({ taken: 9, sold: 9 });

    await shop.h.simulator.refundFromDashboard(sessionId);
    const refunded = await deliverChargeRefunded(sessionId);
    const redelivered = await deliverCompleted(sessionId);

    expect(jsonBody(refunded)).toEqual({ received: true, outcome: 'refund-recorded' });
    expect(jsonBody(redelivered)).toEqual({ received: true, outcome: 'refunded' });
    expect(await shop.h.ordersFor(sessionId)).toMatchObject([
      { status: 'refunded', confirmationEmailState: 'sent', refundEmailState: 'sent' },
    ]);
    expect(await subjectsAbout(reference)).toEqual([
      `Live Aquatics Ltd: order ${reference} confirmed (9 bottles of Daphnia Magna)`,
      expect.stringMatching(new RegExp(`^New order ${reference}: 9 bottles, dispatch `)),
      `Live Aquatics Ltd: refund for order ${reference}`,
    ]);
    expect(await shop.day(day)).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
    expect(await onDispatchList(day, sessionId)).toBe(false);
  });

  it('the reconciler finding a paid session refunded before any webhook: one refunded order, no confirmation, no notice, no bottles sold', async () => {
    const { sessionId, reference, day } = await paidCheckout(6);
    await shop.h.simulator.refundFromDashboard(sessionId);

    const first = await reconcileOrders(shop.h.deps);
    const second = await reconcileOrders(shop.h.deps);
    const late = await deliverCompleted(sessionId);

    expect(first).toMatchObject({ paid: 1, fulfilledMissedOrders: 1, emailsRetried: 0, holdsReleased: 0 });
    expect(second).toMatchObject({ paid: 1, fulfilledMissedOrders: 0, emailsRetried: 0 });
    expect(jsonBody(late)).toEqual({ received: true, outcome: 'refunded' });
    expect(await shop.h.ordersFor(sessionId)).toMatchObject([
      { status: 'refunded', refundEmailState: 'sent' },
    ]);
    expect(await subjectsAbout(reference)).toEqual([`Live Aquatics Ltd: refund for order ${reference}`]);
    expect(await merchantEmailsAbout(reference)).toEqual([]);
    expect(await shop.day(day)).toMatchObject({ taken: 0, sold: 0, holds: new Set(), sales: new Set() });
    expect(await onDispatchList(day, sessionId)).toBe(false);
  });

  it('a completed that asked Stripe before the refund loses its put to charge.refunded: it reads the refunded order back, confirms nothing, and gives back the bottles it sold', async () => {
    const { sessionId, reference, day } = await paidCheckout(6);
    // The completed has retrieved the session (paid, not refunded) and sold its bottles; just
    // before it writes the order, the merchant refunds and charge.refunded is handled in full.
    beforePut([`ORDER#${sessionId}`, '"status":"paid"'], async () => {
      await shop.h.simulator.refundFromDashboard(sessionId);
      expect(jsonBody(await deliverChargeRefunded(sessionId))).toEqual({
        received: true,
        outcome: 'refund-recorded',
      });
    });

    const late = await deliverCompleted(sessionId);

    expect(jsonBody(late)).toEqual({ received: true, outcome: 'refunded' });
    expect(await shop.h.ordersFor(sessionId)).toMatchObject([{ status: 'refunded' }]);
    expect(await subjectsAbout(reference)).toEqual([`Live Aquatics Ltd: refund for order ${reference}`]);
    expect(await shop.day(day)).toMatchObject({ taken: 0, sold: 0, holds: new Set(), sales: new Set() });
  });

  it('charge.refunded that loses its put to a completed that asked Stripe before the refund: it reads the paid order back and refunds it', async () => {
    const { sessionId, reference, day } = await paidCheckout(3);
    let completedWrote: () => void = () => undefined;
    const completedPut = new Promise<void>((resolve) => {
      completedWrote = resolve;
    });
    let refundAtPut: () => void = () => undefined;
    const refundReachedPut = new Promise<void>((resolve) => {
      refundAtPut = resolve;
    });
    let refundDelivery: Promise<unknown> = Promise.resolve();
    // The completed is about to write a paid order: the merchant refunds, and charge.refunded
    // (finding no order) gets as far as its own put, which waits until the completed's is written.
    beforePut([`ORDER#${sessionId}`, '"status":"paid"'], async () => {
      await shop.h.simulator.refundFromDashboard(sessionId);
      beforePut([`ORDER#${sessionId}`, '"status":"refunded"'], async () => {
        refundAtPut();
        await completedPut;
      });
      refundDelivery = deliverChargeRefunded(sessionId);
      await refundReachedPut;
    });

    const completed = deliverCompleted(sessionId);
    // The completed's put has landed once its answer says fulfilled; then the refund's may go.
    const completedAnswer = await completed.finally(() => completedWrote());
    const refundAnswer = await refundDelivery;

    expect(jsonBody(completedAnswer)).toEqual({ received: true, outcome: 'fulfilled' });
    expect(refundAnswer).toMatchObject({ statusCode: 200 });
    expect(await shop.h.ordersFor(sessionId)).toMatchObject([
      { status: 'refunded', refundEmailState: 'sent' },
    ]);
    // The completed confirmed a payment Stripe had not refunded when it asked; the refund follows.
    expect(await subjectsAbout(reference)).toEqual([
      `Live Aquatics Ltd: order ${reference} confirmed (3 bottles of Daphnia Magna)`,
      expect.stringMatching(new RegExp(`^New order ${reference}: 3 bottles, dispatch `)),
      `Live Aquatics Ltd: refund for order ${reference}`,
    ]);
    expect(await shop.day(day)).toMatchObject({ taken: 0, sold: 0, holds: new Set(), sales: new Set() });
  });

  it('a partial refund before the order was recorded: the order stands, paid and confirmed, with the amount in its history once', async () => {
    const { sessionId, reference, day } = await paidCheckout(6);
    await shop.h.simulator.refundFromDashboard(sessionId, { amount: 500 });

    const refunded = await deliverChargeRefunded(sessionId);
    const late = await deliverCompleted(sessionId);
    const again = await deliverChargeRefunded(sessionId);

    expect(jsonBody(refunded)).toEqual({ received: true, outcome: 'refund-partial' });
    expect(jsonBody(late)).toEqual({ received: true, outcome: 'fulfilled' });
    expect(jsonBody(again)).toEqual({ received: true, outcome: 'refund-partial' });
    const [order] = await shop.h.ordersFor(sessionId);
    expect(order).toMatchObject({ status: 'paid', partlyRefundedPence: 500, confirmationEmailState: 'sent' });
    expect(order?.history).toEqual([
      { at: expect.any(String), actor: 'Stripe', action: 'paid' },
      {
        at: expect.any(String),
        actor: 'Stripe Dashboard',
        action: 'partly-refunded',
        detail: '£5.00 of £24.45, before the order was recorded',
      },
    ]);
    expect(await subjectsAbout(reference)).toEqual([
      `Live Aquatics Ltd: order ${reference} confirmed (6 bottles of Daphnia Magna)`,
      expect.stringMatching(new RegExp(`^New order ${reference}: 6 bottles, dispatch `)),
    ]);
    expect(await shop.day(day)).toMatchObject({ taken: 6, sold: 6 });
    expect(await onDispatchList(day, sessionId)).toBe(true);
  });

  it('a partial refund of a recorded order: kept on the order and in its history, once per amount', async () => {
    const { sessionId } = await paidCheckout(3);
    await deliverCompleted(sessionId);
    await shop.h.simulator.refundFromDashboard(sessionId, { amount: 200 });

    await deliverChargeRefunded(sessionId);
    await deliverChargeRefunded(sessionId);
    await shop.h.simulator.refundFromDashboard(sessionId, { amount: 300 });
    await deliverChargeRefunded(sessionId);

    const [order] = await shop.h.ordersFor(sessionId);
    expect(order).toMatchObject({ status: 'paid', partlyRefundedPence: 500 });
    expect(order?.history).toEqual([
      { at: expect.any(String), actor: 'Stripe', action: 'paid' },
      {
        at: expect.any(String),
        actor: 'Stripe Dashboard',
        action: 'partly-refunded',
        detail: '£2.00 of £14.70',
      },
      {
        at: expect.any(String),
        actor: 'Stripe Dashboard',
        action: 'partly-refunded',
        detail: '£5.00 of £14.70',
      },
    ]);
  });
});

describe('a Direct Debit that failed, then its late completed', () => {
  it('takes no bottles again: async_payment_failed gave them back, and the session is not paid', async () => {
    const { sessionId = '' } = await shop.checkout(9);
    const day = shop.metadata(sessionId).dispatch_date ?? '';
    await shop.h.simulator.completeSession(sessionId, { paymentStatus: 'unpaid' });
    await shop.h.simulator.settleAsyncPayment(sessionId, 'failed');

    const failed = await shop.deliver('checkout.session.async_payment_failed', sessionId);
    const late = await deliverCompleted(sessionId);
    const retried = await deliverCompleted(sessionId);

    expect(jsonBody(failed)).toEqual({ received: true, outcome: 'payment-failed' });
    expect(jsonBody(late)).toEqual({ received: true, outcome: 'not-paid' });
    expect(jsonBody(retried)).toEqual({ received: true, outcome: 'not-paid' });
    expect(await shop.day(day)).toMatchObject({ taken: 0, sold: 0, holds: new Set(), sales: new Set() });
    expect(await shop.h.ordersFor(sessionId)).toEqual([]);
  });
});
