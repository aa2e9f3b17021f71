import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ReconcileIncompleteError,
  reconcileOrders,
} from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { orderItemSchema } from '../../../../lambdas/domain/storage/order';
import {
  createReconcileHandler,
  RECONCILE_SAFETY_MARGIN_MS,
} from '../../../../lambdas/handlers/reconcile-orders/handler';
import { injectAwsFault } from '../../../support/aws-faults';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';

// The reconciler finds paid sessions the webhook missed and fulfils each exactly once.
describe('reconcile-orders', () => {
  let h: FulfilmentHarness;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  /** The EMF metric lines for the reconciler's count, as CloudWatch would read them. */
  function missedOrderMetrics(): number[] {
    return h.metricLines
      .map((line): Record<string, unknown> => JSON.parse(line))
      .filter((line) => JSON.stringify(line._aws).includes('"Namespace":"LiveAquatics"'))
      .flatMap((line) =>
        typeof line.ReconcilerFulfilledMissedOrders === 'number'
          ? [line.ReconcilerFulfilledMissedOrders]
          : [],
      );
  }

  it('a paid session whose webhook never arrived: found and fulfilled by the reconciler, and said so in a metric', async () => {
    // Prepare: paid on Stripe; no event was ever delivered.
    const session = await h.paidSession();

    // Act
    const summary = await createReconcileHandler(h.deps)();

    // Assess
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect(summary.fulfilledMissedOrders).toBeGreaterThanOrEqual(1);
    expect(missedOrderMetrics().at(-1)).toBe(summary.fulfilledMissedOrders);
  });

  it('the reconciler and a late webhook together, at once or one after the other: still one order', async () => {
    // Prepare
    const together = await h.paidSession();
    const after = await h.paidSession();

    // Act
    const [concurrentWebhook] = await Promise.all([
      h.webhook(h.delivery(await h.eventFor('checkout.session.completed', together.id))),
      reconcileOrders(h.deps),
    ]);
    const lateWebhook = await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', after.id)));

    // Assess
    expect([concurrentWebhook.statusCode, lateWebhook.statusCode]).toEqual([200, 200]);
    expect(await h.counts(together.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect(await h.counts(after.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  it('sends the emails an earlier attempt left unsent, and nothing twice', async () => {
    // Prepare: the webhook wrote the order, but SES was down for both emails.
    const session = await h.paidSession();
    const sesDown = injectAwsFault(h.clients.ses, { command: 'SendEmailCommand', when: 'before', times: 2 });
    const webhook = await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));
    sesDown.remove();
    const beforeRun = await h.counts(session.id);

    // Act
    const summary = await reconcileOrders(h.deps);
    await reconcileOrders(h.deps);

    // Assess
    expect(webhook.statusCode).toBe(500);
    expect(beforeRun).toEqual({ orders: 1, confirmation: 0, merchantNotice: 0 });
    expect(summary.emailsRetried).toBeGreaterThanOrEqual(2);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  it('walks every page of the session list', async () => {
    // Prepare: the missed session is the oldest of five, so on the third page of two.
    const missed = await h.paidSession();
    for (let i = 0; i < 4; i += 1) await h.paidSession();

    // Act
    const summary = await reconcileOrders(h.deps, { pageSize: 2 });

    // Assess
    expect(summary.checked).toBeGreaterThanOrEqual(5);
    expect(await h.counts(missed.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  const DAY_SECONDS = 86_400;
  /** Moves a session's `created` back by `days` (and a minute more or less), as if made then. */
  function ageSession(id: string, days: number, extraSeconds = 0): void {
    h.simulator.patchSession(id, {
      created: Math.floor(Date.now() / 1000) - days * DAY_SECONDS - extraSeconds,
    });
  }

  it('leaves alone sessions that are not ours, or not paid (whose customer hears only that it waits for the bank)', async () => {
    // Prepare
    const notOurs = await h.paidSession({ notOurs: true });
    const unpaid = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(unpaid.id, { paymentStatus: 'unpaid' });

    // Act
    await reconcileOrders(h.deps);

    // Assess
    expect(await h.counts(notOurs.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
    expect(await h.counts(unpaid.id)).toEqual({ orders: 0, confirmation: 1, merchantNotice: 0 });
    const [waiting] = (await h.emailsFor(unpaid.id)).confirmation;
    expect(waiting?.subject).toBe(
      `Live Aquatics Ltd: order ${unpaid.id.slice(-12)} received, waiting for your bank`,
    );
  });

  it('looks back 10 days by default: a session 9 days old is found, one 11 days old is not', async () => {
    // Prepare
    const nineDays = await h.paidSession();
    ageSession(nineDays.id, 9);
    const elevenDays = await h.paidSession();
    ageSession(elevenDays.id, 11);

    // Act
    await reconcileOrders(h.deps);

    // Assess
    expect(await h.counts(nineDays.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect(await h.counts(elevenDays.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
  });

  it('takes its window from configuration: 4 days finds a 3-day-old session, not a 5-day-old one', async () => {
    // Prepare
    const threeDays = await h.paidSession();
    ageSession(threeDays.id, 3);
    const fiveDays = await h.paidSession();
    ageSession(fiveDays.id, 5);

    // Act
    await reconcileOrders({ ...h.deps, lookbackDays: 4 });

    // Assess
    expect(await h.counts(threeDays.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect(await h.counts(fiveDays.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
  });

  it('fulfils a delayed payment that settled 8 days after checkout and whose webhook was lost, paid at Stripe’s time', async () => {
    // Prepare: Bacs Direct Debit; the success event goes nowhere (no endpoint), as if lost.
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(session.id, 'succeeded');
    ageSession(session.id, 8);
    const intent = await h.stripe.paymentIntents.retrieve(
      String(h.simulator.getSession(session.id)?.payment_intent),
      {
        expand: ['latest_charge'],
      },
    );
    const charge = intent.latest_charge;
    if (typeof charge !== 'object' || charge === null) throw new Error('a settled payment has a charge');
    // The reconciler runs 2 hours after the money arrived.
    h.clock.advance(2 * 3_600_000);

    // Act
    await reconcileOrders(h.deps);
    h.clock.reset();

    // Assess
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    const order = orderItemSchema.parse((await h.ordersFor(session.id))[0]);
    expect(order.paidAt).toBe(new Date(charge.created * 1000).toISOString());
    expect(order.paidAt).not.toBe(order.createdAt);
  });

  it('fulfils a session still marked unpaid whose PaymentIntent has succeeded', async () => {
    // Prepare
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(session.id, 'succeeded');
    h.simulator.patchSession(session.id, { payment_status: 'unpaid' });
    ageSession(session.id, 6);

    // Act
    const summary = await reconcileOrders(h.deps);

    // Assess
    expect(summary.settledLater).toBeGreaterThanOrEqual(1);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  it('does not fulfil a delayed payment that failed: no order, only the failure’s two emails', async () => {
    // Prepare
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(session.id, 'failed');
    const reference = session.id.slice(-12);

    // Act
    await reconcileOrders(h.deps);

    // Assess
    expect(await h.ordersFor(session.id)).toEqual([]);
    const emails = await h.emailsFor(session.id);
    expect(emails.confirmation.map((email) => email.subject)).toEqual([
      `Live Aquatics Ltd: your Direct Debit for order ${reference} did not go through`,
    ]);
    expect(emails.merchantNotice.map((email) => email.subject)).toEqual([
      `Direct Debit failed: ${reference}, 3 bottles (no order)`,
    ]);
  });

  it('carries on past a session that fails, then reports the run as incomplete', async () => {
    // Prepare: the first order write of the run fails.
    const session = await h.paidSession();
    const dynamoDown = injectAwsFault(h.clients.documentClient, {
      command: 'PutItemCommand',
      when: 'before',
    });

    // Act
    const run = reconcileOrders(h.deps);

    // Assess
    await expect(run).rejects.toBeInstanceOf(ReconcileIncompleteError);
    dynamoDown.remove();
    await reconcileOrders(h.deps);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  it('stops between sessions before the Lambda time limit, says the run is incomplete, and the next run finishes', async () => {
    // Prepare: a missed order, and a run invoked with no time to spare beyond the safety margin.
    const session = await h.paidSession();
    const metricsBefore = h.metricLines.length;
    const outOfTime = { getRemainingTimeInMillis: () => RECONCILE_SAFETY_MARGIN_MS };
    const plentyOfTime = { getRemainingTimeInMillis: () => 5 * 60_000 };

    // Act
    const cutShort = createReconcileHandler(h.deps)({}, outOfTime);
    await expect(cutShort).rejects.toBeInstanceOf(ReconcileIncompleteError);
    const afterCutShort = await h.counts(session.id);
    const nextRun = await createReconcileHandler(h.deps)({}, plentyOfTime);

    // Assess: nothing started past the deadline, yet the run still reported its metric.
    expect(afterCutShort).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
    expect(h.metricLines.length).toBeGreaterThan(metricsBefore);
    expect(nextRun.fulfilledMissedOrders).toBeGreaterThanOrEqual(1);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });
});
