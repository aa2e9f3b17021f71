import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveBottles } from '../../../../lambdas/domain/capacity/holds';
import { buildSessionParams } from '../../../../lambdas/domain/checkout/create-checkout-session';
import { releaseLapsedHolds } from '../../../../lambdas/domain/fulfilment/lapsed-holds';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { checkoutRequestSchema } from '../../../../shared/checkout-request';
import { firstComingDispatchDay } from '../../../../shared/dispatch';
import { quoteOrder } from '../../../../shared/pricing';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';

// The reconciler's sweep of holds the webhook never released: sessions Stripe lists as expired
// (this shop's only), and holds whose expiry, written in their id, is more than 30 minutes past.
// Against dynalite and the Stripe simulator through the real SDK.

let h: FulfilmentHarness;
beforeAll(async () => {
  h = await startFulfilmentHarness();
});
afterAll(() => h?.close());

const store = () => capacityStoreFromTable({ client: h.standIns.inspector, tableName: h.standIns.tableName });

/** Now, on a whole second, so the margin's boundary can be hit exactly. */
function wholeSecondNow(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

const token = () => randomUUID().replaceAll('-', '').slice(0, 20);

async function sweep(now: Date, shopId = TEST_SHOP_ID) {
  return releaseLapsedHolds({ stripe: h.stripe, store: store(), shopId, now: () => now });
}

/** An expired session of `shopId` carrying `hold` on `date`, as create-checkout makes them. */
async function expiredSession(hold: string, date: string, shopId: string) {
  const quote = quoteOrder(3);
  const input = checkoutRequestSchema.parse({
    name: 'Pat Pond',
    email: `pat.${randomUUID().slice(0, 8)}@example.com`,
    phone: '07700 900123',
    address: '1 Reed Row\nBath',
    postcode: 'BA1 1AA',
    quantity: 3,
    subtotal: 9.75,
    shipping: 4.99,
    total: 14.74,
  });
  const session = await h.stripe.checkout.sessions.create(
    buildSessionParams({
      input,
      quote,
      siteUrl: 'http://shop.test',
      shopId,
      clientReferenceId: `ord_${token()}`,
      dispatchDate: date,
      debitDispatchDate: date,
      expiresAt: Math.floor(Date.now() / 1000) + 3_600,
      capacityHold: hold,
    }),
  );
  await h.stripe.checkout.sessions.expire(session.id);
}

describe('releaseLapsedHolds', () => {
  it('gives back a checkout hold only once its expiry is more than 30 minutes past', async () => {
    const now = wholeSecondNow();
    const day = firstComingDispatchDay(now);
    const seconds = now.getTime() / 1000;
    const atMargin = `c${token()}.${seconds - 1800}:3`;
    const pastMargin = `c${token()}.${seconds - 1801}:3`;
    await reserveBottles(store(), { from: day, hold: atMargin, capacity: undefined });
    await reserveBottles(store(), { from: day, hold: pastMargin, capacity: undefined });

    await sweep(now);

    const after = await store().read(day);
    expect(after.holds.has(atMargin)).toBe(true);
    expect(after.holds.has(pastMargin)).toBe(false);
  });

  it("gives back an expired session's hold at once, before its margin, but never another shop's", async () => {
    const now = wholeSecondNow();
    const day = firstComingDispatchDay(now);
    const ours = `c${token()}.${now.getTime() / 1000 + 600}:3`;
    const theirs = `c${token()}.${now.getTime() / 1000 + 600}:3`;
    await reserveBottles(store(), { from: day, hold: ours, capacity: undefined });
    await reserveBottles(store(), { from: day, hold: theirs, capacity: undefined });
    await expiredSession(ours, day, TEST_SHOP_ID);
    await expiredSession(theirs, day, 'another-shop');

    await sweep(now);

    const after = await store().read(day);
    expect(after.holds.has(ours)).toBe(false);
    expect(after.holds.has(theirs)).toBe(true);
  });

  it("looks on an expired session's own day even when it is no longer a coming one", async () => {
    const now = wholeSecondNow();
    // A Monday in the past: outside the coming days the sweep reads by itself.
    const pastDay = '2026-01-05';
    const hold = `c${token()}.${now.getTime() / 1000 + 600}:6`;
    await reserveBottles(store(), { from: pastDay, hold, capacity: undefined });
    await expiredSession(hold, pastDay, TEST_SHOP_ID);

    await sweep(now);

    expect((await store().read(pastDay)).holds.has(hold)).toBe(false);
  });

  it('counts what it released, and a second sweep finds nothing left', async () => {
    const now = wholeSecondNow();
    const day = firstComingDispatchDay(now);
    const seconds = now.getTime() / 1000;
    const request = `rR${token().slice(0, 11).toUpperCase()}.${seconds - 3600}:9`;
    await reserveBottles(store(), { from: day, hold: request, capacity: undefined });

    const first = await sweep(now);
    const second = await sweep(now);

    expect(first).toBeGreaterThanOrEqual(1);
    expect(second).toBe(0);
    expect((await store().read(day)).holds.has(request)).toBe(false);
  });

  it('never gives back a hold with no expiry of its own (a request recorded before requests lapsed)', async () => {
    const now = wholeSecondNow();
    const day = firstComingDispatchDay(now);
    const hold = `rR${token().slice(0, 11).toUpperCase()}:3`;
    await reserveBottles(store(), { from: day, hold, capacity: undefined });

    await sweep(now);

    expect((await store().read(day)).holds.has(hold)).toBe(true);
  });
});
