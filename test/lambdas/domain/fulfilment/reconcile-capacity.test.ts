import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkoutReservationId, holdId, reserveBottles } from '../../../../lambdas/domain/capacity/holds';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { type CapacityShop, startCapacityShop } from '../../../support/capacity-shop';

// The reconciler under the webhook, for the dispatch days' bottles: what a missed event should
// have done to them, it does, once. Sessions are made by create-checkout as deployed; no event
// reaches the webhook unless a test delivers it.

let shop: CapacityShop;
beforeEach(async () => {
  shop = await startCapacityShop();
});
afterEach(() => shop?.close());

describe('reconcile-orders: the bottles of sessions whose events were missed', () => {
  it('an expired session whose checkout.session.expired never arrived: its hold is released, once', async () => {
    const { sessionId = '' } = await shop.checkout(6);
    const kept = await shop.checkout(3);
    await shop.h.stripe.checkout.sessions.expire(sessionId);
    const day = shop.metadata(sessionId).dispatch_date ?? '';

    const first = await reconcileOrders(shop.h.deps);
    const second = await reconcileOrders(shop.h.deps);

    expect(first.holdsReleased).toBe(1);
    expect(second.holdsReleased).toBe(0);
    expect(await shop.day(day)).toMatchObject({
      taken: 3,
      holds: new Set([shop.metadata(kept.sessionId ?? '').capacity_hold]),
    });
  });

  it('a hold no session carries (the function stopped before Stripe) is released once its expiry is past', async () => {
    const store = capacityStoreFromTable({
      client: shop.h.standIns.inspector,
      tableName: shop.h.standIns.tableName,
    });
    const day = shop.firstDay();
    const nowSeconds = Math.floor(Date.now() / 1000);
    const lapsed = holdId(checkoutReservationId('stoppedbeforestripe0', nowSeconds - 31 * 60), 3);
    const recent = holdId(checkoutReservationId('stillpayable00000000', nowSeconds - 29 * 60), 3);
    const request = holdId('rR0123456789A', 9);
    for (const hold of [lapsed, recent, request])
      await reserveBottles(store, { from: day, hold, capacity: undefined });

    const summary = await reconcileOrders(shop.h.deps);

    expect(summary.holdsReleased).toBe(1);
    expect(await shop.day(day)).toMatchObject({ taken: 12, holds: new Set([recent, request]) });
  });

  it('a paid session whose webhook never arrived: its order and its sale, its hold never released', async () => {
    const { sessionId = '' } = await shop.checkout(9);
    await shop.h.simulator.completeSession(sessionId);
    const day = shop.metadata(sessionId).dispatch_date ?? '';

    const summary = await reconcileOrders(shop.h.deps);

    expect(summary).toMatchObject({ fulfilledMissedOrders: 1, holdsReleased: 0 });
    expect(await shop.h.ordersFor(sessionId)).toMatchObject([{ dispatchDate: day }]);
    expect(await shop.day(day)).toMatchObject({ taken: 9, sold: 9, holds: new Set() });
  });

  it('a debit whose events were missed: kept sold while pending, given back once it failed', async () => {
    const { sessionId = '' } = await shop.checkout(3);
    await shop.h.simulator.completeSession(sessionId, { paymentStatus: 'unpaid' });
    const day = shop.metadata(sessionId).dispatch_date ?? '';

    await reconcileOrders(shop.h.deps);
    expect(await shop.day(day)).toMatchObject({ taken: 3, sold: 3, holds: new Set() });
    await shop.h.simulator.settleAsyncPayment(sessionId, 'failed');
    await reconcileOrders(shop.h.deps);
    await reconcileOrders(shop.h.deps);

    expect(await shop.day(day)).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
    expect(await shop.h.ordersFor(sessionId)).toHaveLength(0);
  });
});
