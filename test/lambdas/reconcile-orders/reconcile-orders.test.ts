import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReconcileHandler,
  RECONCILE_SAFETY_MARGIN_MS,
} from '../../../lambdas/reconcile-orders/handler';
import {
  RECONCILE_LOOKBACK_MS,
  ReconcileIncompleteError,
  reconcileOrders,
} from '../../../lambdas/reconcile-orders/reconcile-orders';
import { injectAwsFault } from '../../support/aws-faults';
import { createCheckoutSession } from '../../support/checkout-sessions';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../support/fulfilment-harness';

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

  it('fulfils a paid session whose webhook never arrived, and says so in a metric', async () => {
    // Prepare: paid on Stripe; no event was ever delivered.
    const session = await h.paidSession();

    // Act
    const summary = await createReconcileHandler(h.deps)();

    // Assess
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect(summary.fulfilledMissedOrders).toBeGreaterThanOrEqual(1);
    expect(missedOrderMetrics().at(-1)).toBe(summary.fulfilledMissedOrders);
  });

  it('leaves one order when the reconciler and a late webhook meet, at once or one after the other', async () => {
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

  it('leaves alone sessions that are not ours, not paid, or older than three days', async () => {
    // Prepare
    const notOurs = await h.paidSession({ notOurs: true });
    const unpaid = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(unpaid.id, { paymentStatus: 'unpaid' });
    const old = await h.paidSession();
    h.simulator.patchSession(old.id, {
      created: Math.floor((Date.now() - RECONCILE_LOOKBACK_MS) / 1000) - 60,
    });

    // Act
    await reconcileOrders(h.deps);

    // Assess
    expect(await h.counts(notOurs.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
    expect(await h.counts(unpaid.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
    expect(await h.counts(old.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
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
