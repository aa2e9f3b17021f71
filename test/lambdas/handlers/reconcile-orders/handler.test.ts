import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ReconcileIncompleteError,
  type ReconcileSummary,
  reconcileOrders,
} from '../../../../lambdas/domain/reconcile/reconcile-orders';
import {
  createReconcileHandler,
  loadReconcileDeps,
} from '../../../../lambdas/handlers/reconcile-orders/handler';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { FULFILMENT_ENV } from '../../../support/shop';

describe('loadReconcileDeps: the Lambda entry point as configured', () => {
  it('takes the window the stack sets in RECONCILE_LOOKBACK_DAYS, and leaves it to the 10-day default when unset', async () => {
    expect((await loadReconcileDeps({ ...FULFILMENT_ENV, RECONCILE_LOOKBACK_DAYS: '14' })).lookbackDays).toBe(
      14,
    );
    expect((await loadReconcileDeps(FULFILMENT_ENV)).lookbackDays).toBeUndefined();
  });
});

describe('ReconcileIncompleteError: what the Errors log says', () => {
  const summary = (overrides: Partial<ReconcileSummary>): ReconcileSummary => ({
    checked: 7,
    paid: 5,
    settledLater: 0,
    fulfilledMissedOrders: 1,
    emailsRetried: 0,
    needsReview: 0,
    failed: 2,
    holdsReleased: 0,
    failedDebitsNotified: 0,
    pendingDebitsTold: 0,
    stoppedAtDeadline: false,
    ...overrides,
  });

  it('names the failed sessions, or where the deadline stopped the run', () => {
    const failed = new ReconcileIncompleteError(summary({}));
    expect(failed.name).toBe('ReconcileIncompleteError');
    expect(failed.message).toBe('Reconciliation left 2 session(s) for the next run');

    const stopped = new ReconcileIncompleteError(summary({ stoppedAtDeadline: true, failed: 0 }));
    expect(stopped.message).toBe(
      'Reconciliation stopped at its deadline after 7 session(s); the next run goes on',
    );
  });
});

describe('reconcileOrders: the deadline', () => {
  let h: FulfilmentHarness;
  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  it('starts no session at the deadline itself (a frozen clock that reads exactly the deadline)', async () => {
    const session = await h.paidSession();
    const at = new Date();

    const run = reconcileOrders({ ...h.deps, now: () => at }, { deadline: at });

    await expect(run).rejects.toMatchObject({
      name: 'ReconcileIncompleteError',
      summary: { checked: 0, stoppedAtDeadline: true },
    });
    expect(await h.counts(session.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
  });

  it('a handler given a function loads its dependencies through it, at the first run', async () => {
    const session = await h.paidSession();
    let loads = 0;
    const handler = createReconcileHandler(async () => {
      loads += 1;
      return h.deps;
    });

    const summary = await handler({}, { getRemainingTimeInMillis: () => 5 * 60_000 });

    expect(loads).toBe(1);
    expect(summary.fulfilledMissedOrders).toBeGreaterThanOrEqual(1);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });
});
