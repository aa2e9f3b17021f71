import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followingDispatchDay } from '../../../../lambdas/domain/capacity/holds';
import { jsonBody } from '../../../support/api-gateway-event';
import { type CapacityShop, startCapacityShop } from '../../../support/capacity-shop';

// The dispatch days' bottles end to end: create-checkout as deployed (its signed-fetch
// reservation), the simulator's page, the webhook writing orders. Each test uses days of its own:
// the first of them a few weeks ahead, set by a per-day limit.

let shop: CapacityShop;
// A shop of its own for each test: its days' counters start empty.
beforeEach(async () => {
  shop = await startCapacityShop();
});
afterEach(() => shop?.close());

/** Three consecutive dispatch days starting `weeks` after the first one an order can go on now. */
function days(weeks: number): [string, string, string] {
  let day = shop.firstDay();
  for (let i = 0; i < weeks; i += 1) day = followingDispatchDay(day);
  const second = followingDispatchDay(day);
  return [day, second, followingDispatchDay(second)];
}

describe('create-checkout reserves each order on a dispatch day with room', () => {
  it('40 concurrent checkouts of 3 bottles at a day with 12 left, every one paid: 4 orders that day, the rest on later days they fit, none lost, none doubled', async () => {
    // Prepare: the first day has 12 bottles, every day after it 60.
    const [first, second, third] = days(0);
    await shop.setCapacity({ weekly: 60, days: { [first]: 12 } });

    // Act: 40 customers at once, then each pays.
    const created = await Promise.all(Array.from({ length: 40 }, () => shop.checkout(3)));
    const sessions = created.map((result) => {
      expect(result.statusCode, result.body).toBe(200);
      return result.sessionId ?? '';
    });
    // Paid ten at a time: the reservations are what races here, not the webhook.
    const paid = [];
    for (let i = 0; i < sessions.length; i += 10) {
      paid.push(...(await Promise.all(sessions.slice(i, i + 10).map((id) => shop.pay(id)))));
    }

    // Assess
    expect(paid.find((result) => result.statusCode !== 200)?.body).toBeUndefined();
    expect(paid.map((result) => result.statusCode)).toEqual(Array(40).fill(200));
    const orders = await shop.h.standIns.orderItems();
    const ordersOf = (id: string) => orders.filter((item) => item.sessionId === id);
    expect(sessions.map((id) => ordersOf(id).length)).toEqual(Array(40).fill(1));
    const dated = (day: string) => orders.filter((item) => item.dispatchDate === day).length;
    expect([dated(first), dated(second), dated(third)]).toEqual([4, 20, 16]);
    // Each order is dated the day its session reserved and showed the customer.
    for (const id of sessions) {
      const [order] = ordersOf(id);
      expect(order?.dispatchDate).toBe(shop.metadata(id).dispatch_date);
      expect(order?.promisedDispatchDate).toBe(order?.dispatchDate);
    }
    expect(await shop.day(first)).toMatchObject({ taken: 12, sold: 12, holds: new Set() });
    expect(await shop.day(second)).toMatchObject({ taken: 60, sold: 60, holds: new Set() });
    expect(await shop.day(third)).toMatchObject({ taken: 48, sold: 48, holds: new Set() });
  }, 30_000);

  it("the session states the reserved day: its metadata, Stripe's shipping line and the text by the pay button", async () => {
    const [first, second] = days(0);
    await shop.setCapacity({ days: { [first]: 0 } });

    const { sessionId = '' } = await shop.checkout(6);

    const session = shop.h.simulator.getSession(sessionId);
    expect(session?.metadata).toMatchObject({
      dispatch_date: second,
      capacity_hold: expect.stringMatching(/:6$/),
    });
    const shown = new Intl.DateTimeFormat('en-GB', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    })
      .format(new Date(`${second}T00:00:00Z`))
      .replace(',', '');
    expect(session?.custom_text?.submit?.message).toContain(`Dispatch on ${shown}`);
    expect(session?.shipping_options?.[0]?.shipping_rate).toBeDefined();
    expect((await shop.day(second)).holds).toEqual(new Set([session?.metadata?.capacity_hold]));
  });

  it('a retry with the same idempotency key reserves once and gets the same session', async () => {
    const [first] = days(0);
    await shop.setCapacity({ weekly: 60, days: { [first]: 12 } });
    const before = await shop.day(shop.firstDay());

    const [a, b] = await Promise.all([
      shop.checkout(3, 'retry-key-0001'),
      shop.checkout(3, 'retry-key-0001'),
    ]);
    const again = await shop.checkout(3, 'retry-key-0001');

    const ids = [a, b, again].filter((r) => r.statusCode === 200).map((r) => r.sessionId);
    expect(new Set(ids).size).toBe(1);
    const day = shop.metadata(ids[0] ?? '').dispatch_date ?? '';
    const after = await shop.day(day);
    const taken = day === shop.firstDay() ? after.taken - before.taken : after.taken;
    expect(taken).toBe(3);
  });

  it('no dispatch day within 8 weeks has room: 409 with a clear message, no session, nothing held', async () => {
    await shop.setCapacity({ weekly: 2 });

    const result = await shop.checkout(3);

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toEqual({
      error: 'Sorry, every dispatch day in the next 8 weeks is fully booked. Please try again in a few days.',
    });
    expect((await shop.h.stripe.checkout.sessions.list()).data).toEqual([]);
    for (const day of [...days(0), ...days(3), ...days(5)]) expect((await shop.day(day)).taken).toBe(0);
  });

  it('Stripe failing during create-checkout: the hold is released at once', async () => {
    // The first day is closed, so the reservation lands on the second, past its first failure.
    const [first, day] = days(0);
    await shop.setCapacity({ days: { [first]: 0 } });
    shop.h.simulator.injectFault({ status: 500, pathPrefix: '/v1/checkout/sessions', times: 5 });

    const result = await shop.checkout(9);
    shop.h.simulator.clearFaults();

    expect(result.statusCode).toBe(502);
    expect(await shop.day(day)).toMatchObject({ taken: 0, holds: new Set() });
    // The same checkout once Stripe is back: the hold is taken again, and kept.
    expect((await shop.checkout(9)).statusCode).toBe(200);
    expect((await shop.day(day)).taken).toBe(9);
  });
});

describe('what gives the bottles back, once', () => {
  /** A session reserved on a day of its own (all days before it closed), with that day. */
  async function reserved(weeks: number, quantity: 3 | 6 | 9 = 3) {
    const [day] = days(weeks);
    const closed: Record<string, number> = {};
    for (let d = shop.firstDay(); d < day; d = followingDispatchDay(d)) closed[d] = 0;
    await shop.setCapacity({ weekly: 30, days: closed });
    const { sessionId = '' } = await shop.checkout(quantity);
    expect(shop.metadata(sessionId).dispatch_date).toBe(day);
    return { sessionId, day, hold: shop.metadata(sessionId).capacity_hold };
  }

  it('checkout.session.expired releases the hold; a replay releases nothing more', async () => {
    const { sessionId, day } = await reserved(1);
    await shop.checkout(3); // another customer's hold on the same day stays
    expect((await shop.day(day)).taken).toBe(6);
    await shop.h.stripe.checkout.sessions.expire(sessionId);

    const first = await shop.deliver('checkout.session.expired', sessionId);
    const replay = await shop.deliver('checkout.session.expired', sessionId);

    expect([first.statusCode, replay.statusCode]).toEqual([200, 200]);
    expect(await shop.day(day)).toMatchObject({ taken: 3, sold: 0 });
    expect((await shop.day(day)).holds.size).toBe(1);
  });

  it('a paid session is never released: expired delivered after completed moves nothing', async () => {
    const { sessionId, day, hold } = await reserved(2, 6);
    await shop.pay(sessionId);

    await shop.deliver('checkout.session.expired', sessionId);
    await shop.pay(sessionId).catch(() => undefined);
    await shop.deliver('checkout.session.completed', sessionId);

    expect(await shop.day(day)).toMatchObject({
      taken: 6,
      sold: 6,
      holds: new Set(),
      sales: new Set([hold]),
    });
  });

  it('a debit: completed unpaid keeps the bottles sold; async_payment_failed gives them back, once', async () => {
    const { sessionId, day } = await reserved(3, 9);

    await shop.pay(sessionId, 'unpaid');
    expect(await shop.day(day)).toMatchObject({ taken: 9, sold: 9, holds: new Set() });
    await shop.h.simulator.settleAsyncPayment(sessionId, 'failed');
    const failed = await shop.deliver('checkout.session.async_payment_failed', sessionId);
    await shop.deliver('checkout.session.async_payment_failed', sessionId);

    expect(jsonBody(failed)).toEqual({ received: true, outcome: 'payment-failed' });
    expect(await shop.day(day)).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
    expect(await shop.h.ordersFor(sessionId)).toHaveLength(0);
  });

  it('a debit that settles: one order on the reserved day, the bottles sold once', async () => {
    const { sessionId, day } = await reserved(4, 3);
    await shop.pay(sessionId, 'unpaid');
    await shop.h.simulator.settleAsyncPayment(sessionId, 'succeeded');

    await shop.deliver('checkout.session.async_payment_succeeded', sessionId);
    await shop.deliver('checkout.session.async_payment_succeeded', sessionId);

    expect(await shop.h.ordersFor(sessionId)).toMatchObject([{ dispatchDate: day, capacityDate: day }]);
    expect(await shop.day(day)).toMatchObject({ taken: 3, sold: 3 });
  });

  it('a session recorded after its day closed (paid across the cut-off): the order and its bottles move to the next day with room', async () => {
    const [first, second, third] = days(0);
    const { sessionId = '' } = await shop.checkout(3);
    expect(shop.metadata(sessionId).dispatch_date).toBe(first);
    await shop.h.simulator.completeSession(sessionId);
    // The payment reaches the shop a week later, past the first day's cut-off; the second is full.
    await shop.setCapacity({ days: { [second]: 0 } });
    shop.h.clock.advance(7 * 86_400_000);

    await shop.deliver('checkout.session.completed', sessionId);
    await shop.deliver('checkout.session.completed', sessionId);

    expect(await shop.h.ordersFor(sessionId)).toMatchObject([
      { dispatchDate: third, capacityDate: third, promisedDispatchDate: first },
    ]);
    expect(await shop.day(first)).toMatchObject({ taken: 0, sold: 0, holds: new Set() });
    expect(await shop.day(second)).toMatchObject({ taken: 0, sold: 0 });
    expect(await shop.day(third)).toMatchObject({ taken: 3, sold: 3 });
  });
});

describe('a day that sells out', () => {
  it('the sale that fills it: the merchant notice says so, and one DispatchDaySoldOut metric', async () => {
    const [first] = days(0);
    await shop.setCapacity({ days: { [first]: 8 } });
    const a = await shop.checkout(3);
    const b = await shop.checkout(3);
    await shop.pay(a.sessionId ?? '');
    const before = shop.h.metricLines.length;

    await shop.pay(b.sessionId ?? '');
    await shop.deliver('checkout.session.completed', b.sessionId ?? '');

    const notices = await shop.h.emailsFor(b.sessionId ?? '');
    expect(notices.merchantNotice).toHaveLength(1);
    expect(notices.merchantNotice[0]?.body.text).toMatch(/is now full: 6 of 8 bottles sold\./);
    expect((await shop.h.emailsFor(a.sessionId ?? '')).merchantNotice[0]?.body.text).not.toContain(
      'is now full',
    );
    const soldOut = shop.h.metricLines.slice(before).filter((line) => line.includes('DispatchDaySoldOut'));
    expect(soldOut).toHaveLength(1);
    const emf = JSON.parse(soldOut[0] ?? '{}');
    // The day is a property the dashboard's table reads, not a dimension (a metric per date);
    // Powertools' metadata is text, so the figures come as strings.
    expect(emf).toMatchObject({
      DispatchDaySoldOut: 1,
      service: 'live-aquatics-shop',
      dispatchDate: first,
      sold: '6',
      capacity: '8',
    });
    expect(emf._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'LiveAquatics',
        Dimensions: [['service']],
        Metrics: [{ Name: 'DispatchDaySoldOut', Unit: 'Count' }],
      },
    ]);
  });
});
