import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyStandingOrderToStripe } from '../../../../lambdas/domain/standing-deliveries/follow-record';
import {
  readStandingOrder,
  type StandingOrderItem,
} from '../../../../lambdas/domain/storage/standing-orders';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { makeStandingOrder } from '../../../support/standing-orders';

// Stripe follows the standing order's record (ADR 0059), against the Stripe simulator: only what
// differs is written, so a repeat (or the reconciler) changes nothing and makes one read only.

let h: FulfilmentHarness;
let subscriptionId = '';
let record: StandingOrderItem;
beforeAll(async () => {
  h = await startFulfilmentHarness();
  ({ subscriptionId } = await makeStandingOrder(h, 'Ada', 3));
  const read = await readStandingOrder(h.deps.table, subscriptionId);
  if (read === undefined) throw new Error('no standing order recorded');
  record = read;
});
afterAll(() => h?.close());

const deps = () => ({ stripe: h.deps.stripe, now: h.deps.now });
const subscription = () => h.simulator.getSubscription(subscriptionId);

/** Applies the record and answers how many Stripe requests it made. */
async function apply(changed: StandingOrderItem): Promise<number> {
  const before = h.stripeCalls();
  await applyStandingOrderToStripe(changed, deps());
  return h.stripeCalls() - before;
}

describe('applyStandingOrderToStripe', () => {
  it('an active record as Stripe already holds it: one read, no write', async () => {
    expect(await apply(record)).toBe(1);
    expect(subscription()).toMatchObject({ pause_collection: null, metadata: { quantity: '3' } });
  });

  it('paused by the customer: collection voided with no end, once; resumed: cleared, once', async () => {
    const paused = { ...record, pausedByCustomerAt: h.deps.now().toISOString() };
    expect(await apply(paused)).toBe(2);
    expect(subscription()?.pause_collection).toEqual({ behavior: 'void', resumes_at: null });
    expect(await apply(paused)).toBe(1);

    expect(await apply(record)).toBe(2);
    expect(subscription()?.pause_collection).toBeNull();
  });

  it("the coming delivery skipped: voided until an hour after its payment's moment, once", async () => {
    const day = String(record.nextPaymentDelivery);
    const skipped = { ...record, skippedDeliveries: [day] };
    expect(await apply(skipped)).toBe(2);
    expect(subscription()?.pause_collection).toEqual({
      behavior: 'void',
      resumes_at: Date.parse(String(record.nextPaymentAt)) / 1000 + 3_600,
    });
    expect(await apply(skipped)).toBe(1);
    expect(await apply(record)).toBe(2);
  });

  it("6 bottles: the bottles line's quantity with no proration and the quantity metadata, once", async () => {
    const six = { ...record, bottles: 6, totalPence: 2445 };
    expect(await apply(six)).toBe(2);
    expect(subscription()?.items.data[0]?.quantity).toBe(6);
    expect(subscription()?.metadata.quantity).toBe('6');
    expect(await apply(six)).toBe(1);
  });

  it('cancelled: the subscription cancelled in Stripe, once; a cancelled subscription is never written', async () => {
    const cancelled: StandingOrderItem = { ...record, status: 'cancelled' };
    expect(await apply(cancelled)).toBe(2);
    expect(subscription()?.status).toBe('canceled');
    expect(await apply(cancelled)).toBe(1);
    expect(await apply({ ...record, bottles: 9, totalPence: 3420 })).toBe(1);
    expect(subscription()?.metadata.quantity).toBe('6');
  });
});
