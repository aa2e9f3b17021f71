import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchDaysFrom, followingDispatchDay } from '../../../../lambdas/domain/capacity/holds';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { syncStandingHolds } from '../../../../lambdas/domain/standing-deliveries/standing-holds';
import { holdStandingChange } from '../../../../lambdas/domain/storage/capacity-changes';
import type { CapacitySettings } from '../../../../lambdas/domain/storage/capacity-settings';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { writeCapacitySettings } from '../../../../lambdas/domain/storage/settings-store';
import {
  listActiveStandingOrderIds,
  readStandingOrder,
  type StandingOrderItem,
} from '../../../../lambdas/domain/storage/standing-orders';
import {
  createCheckoutHandler,
  loadCheckoutDeps,
} from '../../../../lambdas/handlers/create-checkout/handler';
import {
  addDays,
  dispatchDayOfWeekOf,
  formatDispatchDate,
  type IsoDate,
  nextDispatchDate,
} from '../../../../shared/dispatch';
import { PUBLIC_API_ROUTES } from '../../../../shared/public-routes';
import { apiGatewayEvent } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';
import { standInEnvironment } from '../../../support/stand-ins';
import { eventPayload, stripeEvent } from '../../../support/stripe-events';

// Issue 50's capacity (ADR 0060) against dynalite and the Stripe simulator: a standing order's
// coming deliveries hold their bottles within the 8 weeks, a paid renewal's sale takes its hold's
// place, one-off checkouts and new standing orders see the room they leave. The code's clock and
// the simulator's move together, so this passes on any day and hour.

const WEEK_MS = 7 * 86_400_000;
let h: FulfilmentHarness;
beforeAll(async () => {
  h = await startFulfilmentHarness();
});
afterAll(() => h?.close());

const table = () => ({ client: h.standIns.inspector, tableName: h.standIns.tableName });
const store = () => capacityStoreFromTable(table());

/** POSTs a checkout as the page does: 3 bottles, once or with a repeat. */
async function checkout(repeat?: 'weekly' | 'fortnightly') {
  const env = {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_standing_holds',
    STRIPE_API_BASE: h.simulator.url,
    SITE_URL: 'https://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    ...standInEnvironment(h.standIns),
  };
  const result = await createCheckoutHandler(() => loadCheckoutDeps(env))(
    apiGatewayEvent({
      method: 'POST',
      path: PUBLIC_API_ROUTES.createCheckout.path,
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: {
        name: 'Cara Capacity',
        email: `cara.${randomUUID().slice(0, 8)}@example.com`,
        phone: '07700 900789',
        address: '4 Weir Walk\nBath',
        postcode: 'BA1 1AA',
        quantity: 3,
        subtotal: 9.75,
        shipping: 4.95,
        total: 14.7,
        ...(repeat !== undefined && { repeat }),
      },
    }),
  );
  return {
    statusCode: result.statusCode,
    body: JSON.parse(result.body ?? '{}') as { sessionId?: string; error?: string },
  };
}

async function deliver(type: string, object: unknown): Promise<void> {
  const payload = eventPayload(stripeEvent(type, object, { created: h.clock.nowSeconds() }));
  expect((await h.webhook(h.delivery(payload))).statusCode).toBe(200);
}

/** A weekly standing order for 3 bottles through create-checkout, paid, its first invoice delivered. */
async function subscribe(): Promise<{ subscriptionId: string; record: StandingOrderItem }> {
  const { statusCode, body } = await checkout('weekly');
  expect(statusCode).toBe(200);
  const sessionId = body.sessionId ?? '';
  await h.simulator.completeSession(sessionId);
  const paid = await h.stripe.checkout.sessions.retrieve(sessionId);
  const subscriptionId =
    typeof paid.subscription === 'string' ? paid.subscription : (paid.subscription?.id ?? '');
  const [first] = h.simulator.getInvoices({ subscription: subscriptionId });
  await deliver('invoice.paid', first);
  const record = await readStandingOrder(table(), subscriptionId);
  if (!record) throw new Error('no standing order recorded');
  return { subscriptionId, record };
}

/** The days from two weeks back to 9 weeks ahead on which the subscription holds bottles. */
async function heldDays(subscriptionId: string, now: Date): Promise<IsoDate[]> {
  const days = dispatchDaysFrom(dispatchDayOfWeekOf(addDays(nextDispatchDate(now), -14)), 12);
  const read = await Promise.all(days.map((day) => store().read(day)));
  return read.filter((day) => day.standing.has(`${subscriptionId}:3`)).map((day) => day.date);
}

async function setCapacity(settings: CapacitySettings): Promise<void> {
  await writeCapacitySettings(table(), settings, new Date());
}

describe('a weekly standing order of 3 bottles', () => {
  let subscriptionId = '';
  let record: StandingOrderItem;
  const deps = () => ({ capacity: store(), cutoffHours: 36 });
  const clockNow = () => new Date(h.clock.nowSeconds() * 1000);

  it('after its first paid invoice, holds 3 bottles on each of its 7 coming days within the 8 weeks, none on the first', async () => {
    ({ subscriptionId, record } = await subscribe());
    const held = await heldDays(subscriptionId, clockNow());

    expect(held).toHaveLength(7);
    expect(held).toEqual(dispatchDaysFrom(followingDispatchDay(record.firstDelivery), 7));
    // Its first day's bottles are the checkout's sale, not a hold.
    expect((await store().read(record.firstDelivery)).standing.size).toBe(0);
    expect(await listActiveStandingOrderIds(table())).toContain(subscriptionId);
  });

  it('syncing again changes nothing', async () => {
    const day = followingDispatchDay(record.firstDelivery);
    const before = await store().read(day);
    expect(await syncStandingHolds(record, deps(), clockNow())).toEqual([]);
    expect((await store().read(day)).taken).toBe(before.taken);
  });

  it('the reconciler sets holds a stopped change lost, and the window rolls: a week on, the 8th week holds', async () => {
    const now = clockNow();
    await syncStandingHolds({ ...record, status: 'cancelled' }, deps(), now);
    expect(await heldDays(subscriptionId, now)).toEqual([]);
    await reconcileOrders(h.deps).catch(() => undefined);
    expect(await heldDays(subscriptionId, now)).toHaveLength(7);

    // A week on, its renewal not paid yet (the record as it was): delivery 8 joins the window.
    const later = new Date(now.getTime() + WEEK_MS);
    await syncStandingHolds(record, deps(), later);
    const held = await heldDays(subscriptionId, later);
    expect(held).toHaveLength(8);
    expect(held.at(-1)).toBe(dispatchDaysFrom(record.firstDelivery, 9).at(-1));
    await syncStandingHolds(record, deps(), now);
    expect(await heldDays(subscriptionId, now)).toHaveLength(7);
  });

  it('a day its standing holds fill refuses a one-off: the checkout goes to the next day', async () => {
    const first = nextDispatchDate(new Date());
    const taken = (await store().read(first)).taken;
    await store().apply(first, holdStandingChange('sub_filler_one_off:3', 3));
    await setCapacity({ days: { [first]: taken + 3 } });
    try {
      const { statusCode, body } = await checkout();
      expect(statusCode).toBe(200);
      expect(h.simulator.getSession(body.sessionId ?? '')?.metadata?.dispatch_date).toBe(
        followingDispatchDay(first),
      );
      expect((await store().read(first)).taken).toBe(taken + 3);
    } finally {
      await setCapacity({});
    }
  });

  it('a new standing order is refused before payment when one of its coming days lacks room, its first day given back', async () => {
    const first = nextDispatchDate(new Date());
    const full = followingDispatchDay(followingDispatchDay(first));
    const takenFull = (await store().read(full)).taken;
    const takenFirst = (await store().read(first)).taken;
    await setCapacity({ days: { [full]: takenFull + 2 } });
    try {
      const { statusCode, body } = await checkout('weekly');
      expect(statusCode).toBe(409);
      expect(body.error).toBe(
        `Sorry, ${formatDispatchDate(full, { today: first })} is fully booked, and this standing order would deliver 3 bottles then. Please choose fewer bottles, or order "Once".`,
      );
      expect((await store().read(first)).taken).toBe(takenFirst);
      // A one-off of the same bottles is still sold.
      expect((await checkout()).statusCode).toBe(200);
    } finally {
      await setCapacity({});
    }
  });

  it("a week later, its paid renewal turns that day's hold into the sale (taken unchanged), replays change nothing, and the 8th week holds", async () => {
    const renewalDay = followingDispatchDay(record.firstDelivery);
    const before = await store().read(renewalDay);
    h.clock.advance(WEEK_MS);
    await h.simulator.advanceClock(WEEK_MS);
    const renewal: Stripe.Invoice | undefined = h.simulator.getInvoices({ subscription: subscriptionId })[1];
    await deliver('invoice.paid', renewal);
    await deliver('invoice.paid', renewal);

    const after = await store().read(renewalDay);
    expect(after.standing.has(`${subscriptionId}:3`)).toBe(false);
    expect(after.sales.has(`s${renewal?.id}:3`)).toBe(true);
    expect(after.taken - before.taken).toBe(0);
    expect(after.sold - before.sold).toBe(3);
    expect(await heldDays(subscriptionId, clockNow())).toEqual(
      dispatchDaysFrom(followingDispatchDay(renewalDay), 7),
    );
  });

  it('paused: every hold goes; resumed: they come back', async () => {
    const now = clockNow();
    const current = await readStandingOrder(table(), subscriptionId);
    if (!current) throw new Error('no record');
    await syncStandingHolds({ ...current, pausedByCustomerAt: now.toISOString() }, deps(), now);
    expect(await heldDays(subscriptionId, now)).toEqual([]);
    await syncStandingHolds(current, deps(), now);
    expect(await heldDays(subscriptionId, now)).toHaveLength(7);
  });

  it('cancelled (customer.subscription.deleted): every hold goes, and it leaves the active list', async () => {
    const cancelled = await h.stripe.subscriptions.cancel(subscriptionId);
    await deliver('customer.subscription.deleted', cancelled);
    expect(await heldDays(subscriptionId, clockNow())).toEqual([]);
    expect(await listActiveStandingOrderIds(table())).not.toContain(subscriptionId);
  });
});
