import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reserveBottles, sellHold } from '../../lambdas/domain/capacity/holds';
import {
  holdStandingChange,
  releaseChange,
  releaseStandingChange,
} from '../../lambdas/domain/storage/capacity-changes';
import { capacityStoreFromTable } from '../../lambdas/domain/storage/capacity-table';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { capacityLines } from '../../ops/commands/capacity';
import { penceToPounds, quoteOrder } from '../../shared/pricing';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from '../support/api-gateway-event';
import { TEST_SHOP_ID } from '../support/shop';
import { standInEnvironment } from '../support/stand-ins';
import type { CheckoutEventType } from '../support/stripe-events';
import { type OpsHarness, startOpsHarness } from './harness';

// `npm run orders -- capacity` against the stand-ins, on the operator's clock: Wednesday
// 2 December 2026, so the coming dispatch days are 7, 14 and 21 December, then Tuesday 29
// December (Monday 28 is the Boxing Day bank holiday), 4 January...

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

const store = () =>
  capacityStoreFromTable({ client: h.shop.standIns.inspector, tableName: h.shop.standIns.tableName });

async function rows(...extra: string[]) {
  const run = await h.orders(['capacity', '--json', '--local', ...extra]);
  expect(run.code, run.err).toBe(0);
  return JSON.parse(run.out) as unknown;
}

describe('npm run orders -- capacity', () => {
  beforeAll(() => h.setNow(new Date('2026-12-02T10:00:00Z')));
  afterAll(() => h.setNow(undefined));
  beforeEach(async () => {
    // Each test starts from a shop without limits.
    for (const args of [
      ['--set', 'none'],
      ['--set', 'default', '--date', '2026-12-07'],
      ['--set', 'default', '--date', '2026-12-14'],
    ]) {
      expect((await h.orders(['capacity', '--local', ...args])).code).toBe(0);
    }
  });

  it('--json lists each coming dispatch day; no limit reads as null capacity and null left', async () => {
    const list = await rows('--weeks', '4');

    expect(list).toEqual([
      {
        date: '2026-12-07',
        capacity: null,
        reserved: 0,
        sold: 0,
        left: null,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
      {
        date: '2026-12-14',
        capacity: null,
        reserved: 0,
        sold: 0,
        left: null,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
      {
        date: '2026-12-21',
        capacity: null,
        reserved: 0,
        sold: 0,
        left: null,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
      {
        date: '2026-12-29',
        capacity: null,
        reserved: 0,
        sold: 0,
        left: null,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
    ]);
  });

  it("shows the bottles standing orders hold apart, as the admin's table does: a STANDING column, and the list's line", async () => {
    await h.orders(['capacity', '--set', '20', '--local']);
    await store().apply('2026-12-14', holdStandingChange('sub_cli_weekly:6', 6));
    await store().apply('2026-12-14', holdStandingChange('sub_cli_other:3', 3));
    await reserveBottles(store(), { from: '2026-12-14', hold: 'ccli.1:3', capacity: undefined });
    try {
      expect(await rows('--weeks', '2')).toMatchObject([
        { date: '2026-12-07', capacity: 20, reserved: 0, sold: 0, left: 20 },
        { date: '2026-12-14', capacity: 20, reserved: 3, standing: 9, sold: 0, left: 8 },
      ]);
      const table = await h.orders(['capacity', '--weeks', '2', '--local']);
      expect(table.out.split('\n')).toEqual([
        'DISPATCH DAY             CAPACITY  RESERVED  STANDING  SOLD  LEFT  ORDERS  BOTTLES',
        'Monday 7 December 2026   20        0         0         0     20    0       0',
        'Monday 14 December 2026  20        3         9         0     8     0       0',
      ]);
      // The line `list` prints under a day's orders, with a limit and without.
      const day = { date: '2026-12-14', sold: 0, reserved: 3, standing: 9 };
      expect(
        capacityLines([
          { ...day, capacity: 20, left: 8 },
          { ...day, capacity: null, left: null },
        ]),
      ).toEqual([
        'Capacity Monday 14 December 2026: 20 bottles, 0 sold, 3 reserved, 9 held for standing orders, 8 left.',
        'Capacity Monday 14 December 2026: no limit (0 sold, 3 reserved, 9 held for standing orders).',
      ]);
    } finally {
      await store().apply('2026-12-14', releaseStandingChange('sub_cli_weekly:6', 6));
      await store().apply('2026-12-14', releaseStandingChange('sub_cli_other:3', 3));
      await store().apply('2026-12-14', releaseChange('ccli.1:3', 3));
    }
  });

  it('a new shop whose first setting is a capacity: status says open, not open since that write', async () => {
    const status = await h.orders(['status', '--local']);

    expect(status.out.split('\n')[0]).toBe('Shop: open (taking paid orders).');
  });

  it('--set N sets every day; --set N --date sets one; reserved and sold count against it', async () => {
    const set = await h.orders(['capacity', '--set', '60', '--local']);
    const day = await h.orders(['capacity', '--set', '12', '--date', '2026-12-07', '--local']);
    await reserveBottles(store(), { from: '2026-12-07', hold: 'cheld.1:3', capacity: undefined });
    await reserveBottles(store(), { from: '2026-12-07', hold: 'csold.1:6', capacity: undefined });
    await sellHold(store(), '2026-12-07', 'csold.1:6');

    expect(set.out).toBe('Every dispatch day: 60 bottles each, except days set on their own.');
    expect(day.out).toBe('Monday 7 December 2026: 12 bottles.');
    expect(await rows('--weeks', '2')).toEqual([
      {
        date: '2026-12-07',
        capacity: 12,
        reserved: 3,
        sold: 6,
        left: 3,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
      {
        date: '2026-12-14',
        capacity: 60,
        reserved: 0,
        sold: 0,
        left: 60,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
    ]);
    const table = await h.orders(['capacity', '--weeks', '2', '--local']);
    expect(table.out.split('\n')).toEqual([
      'DISPATCH DAY             CAPACITY  RESERVED  SOLD  LEFT  ORDERS  BOTTLES',
      'Monday 7 December 2026   12        3         6     3     0       0',
      'Monday 14 December 2026  60        0         0     60    0       0',
    ]);
  });

  it('--set none --date lifts one day; --set default --date puts it back on the weekly default', async () => {
    await h.orders(['capacity', '--set', '30', '--local']);

    const none = await h.orders(['capacity', '--set', 'none', '--date', '2026-12-14', '--local']);
    expect(none.out).toBe('Monday 14 December 2026: no limit.');
    expect(await rows('--weeks', '2')).toMatchObject([{ capacity: 30 }, { capacity: null, left: null }]);

    const back = await h.orders(['capacity', '--set', 'default', '--date', '2026-12-14', '--local']);
    expect(back.out).toBe('Monday 14 December 2026: follows the weekly default again (30 bottles).');
    expect(await rows('--weeks', '2')).toMatchObject([{ capacity: 30 }, { capacity: 30, left: 30 }]);
  });

  it('--date next is the first coming dispatch day; a date in its week means that dispatch day', async () => {
    const next = await h.orders(['capacity', '--set', '9', '--date', 'next', '--local']);
    const inWeek = await h.orders(['capacity', '--set', '15', '--date', '2026-12-16', '--local']);

    expect(next.out).toBe('Monday 7 December 2026: 9 bottles.');
    expect(inWeek.err).toContain(
      "Wednesday 16 December is not a dispatch day: using that week's, Monday 14 December 2026.",
    );
    expect(await rows('--weeks', '2')).toMatchObject([{ capacity: 9 }, { capacity: 15 }]);
  });

  it('lowering a day below what it has sold is allowed and says so; nothing is cancelled', async () => {
    await reserveBottles(store(), { from: '2026-12-14', hold: 'cbig.1:9', capacity: undefined });
    await sellHold(store(), '2026-12-14', 'cbig.1:9');

    const run = await h.orders(['capacity', '--set', '6', '--date', '2026-12-14', '--local']);

    expect(run.code).toBe(0);
    expect(run.out.split('\n')).toEqual([
      'Monday 14 December 2026: 6 bottles.',
      'Monday 14 December 2026 has already sold 9 bottles, more than its capacity of 6: nothing is cancelled, and it sells no more.',
    ]);
    expect(await rows('--weeks', '2')).toMatchObject([{}, { capacity: 6, sold: 9, left: 0 }]);
  });

  it('the capacity settings survive a pause and a resume', async () => {
    await h.orders(['capacity', '--set', '24', '--local']);
    await h.orders(['pause', '--message', 'Back on Monday', '--local']);
    await h.orders(['resume', '--local']);

    expect(await rows('--weeks', '1')).toMatchObject([{ capacity: 24 }]);
  });

  it.each([
    [['--set', 'lots'], '--set needs a number of bottles, none, or default (with --date).'],
    [['--date', '2026-12-07'], '--date goes with --set.'],
    [['--weeks', '0'], 'capacity: Weeks is a whole number from 1 to 52.'],
    [['--weeks', '-1'], '--weeks must be a whole number from 1 to 52.'],
    [['--set', 'default'], '--set default goes with --date'],
    [['--set', '10001'], 'capacity: Bottles is a whole number from 0 to 10000, null (no limit) or default.'],
    [
      ['--set', '-1'],
      '--set -1: the bottles must be a whole number, 0 or more (or none, or default with --date).',
    ],
    [['--set', '2.5', '--date', '2026-12-07'], '--set 2.5: the bottles must be a whole number, 0 or more'],
    [['--set', '3', '--date', '2026-13-01'], '--date 2026-13-01 is not a date: no such day.'],
  ])('mistyped %j: exit 2 with the reason', async (args, reason) => {
    const run = await h.orders(['capacity', ...args, '--local']);

    expect(run.code).toBe(2);
    expect(run.err).toContain(reason);
  });

  it.each([
    [['--set', '3', '--date', '2026-11-30'], '2026-11-30 is past'],
    [
      ['--set', '3', '--date', '2099-06-01'],
      'Monday 1 June 2099 (2099-06-01) is beyond the 8 weeks checkout sells: the last day it can sell now is Monday 1 February 2027 (2027-02-01).',
    ],
  ])('refused %j: exit 1, nothing changed', async (args, reason) => {
    const run = await h.orders(['capacity', ...args, '--local']);

    expect(run.code).toBe(1);
    expect(run.err).toContain(reason);
    expect(await rows('--weeks', '1')).toMatchObject([{ capacity: null }]);
  });
});

describe('the operator gives bottles back: refund and decline; a payment link keeps them', () => {
  const env = () => ({
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_capacity_ops',
    STRIPE_API_BASE: h.shop.simulator.url,
    SITE_URL: 'http://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    ...standInEnvironment(h.shop.standIns),
  });
  /** A checkout (or, in requests mode, a request) through create-checkout as deployed. */
  async function checkout(quantity: 3 | 6 | 9) {
    const quote = quoteOrder(quantity);
    const result = await createCheckoutHandler(() => loadCheckoutDeps(env()))(
      apiGatewayEvent({
        method: 'POST',
        path: PUBLIC_API_ROUTES.createCheckout.path,
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: {
          name: 'Olive Operator',
          email: `olive.${randomUUID().slice(0, 8)}@example.com`,
          phone: '07700 900321',
          address: '6 Mill Lane\nFrome',
          postcode: 'BA11 1AA',
          quantity,
          subtotal: penceToPounds(quote.subtotalPence),
          shipping: penceToPounds(quote.shippingPence),
          total: penceToPounds(quote.totalPence),
        },
      }),
    );
    expect(result.statusCode, result.body).toBe(200);
    return z
      .object({ sessionId: z.string().optional(), reference: z.string().optional() })
      .parse(JSON.parse(result.body ?? '{}'));
  }
  async function deliver(type: CheckoutEventType, sessionId: string) {
    return h.shop.webhook(h.shop.delivery(await h.shop.eventFor(type, sessionId)));
  }
  async function paidOrder(quantity: 3 | 6 | 9) {
    const { sessionId = '' } = await checkout(quantity);
    await h.shop.simulator.completeSession(sessionId);
    await deliver('checkout.session.completed', sessionId);
    const [order] = await h.shop.ordersFor(sessionId);
    return { sessionId, reference: String(order?.reference), day: String(order?.capacityDate) };
  }
  async function requestOf(reference: string) {
    return (await h.shop.standIns.orderItems()).find((item) => item.reference === reference);
  }

  beforeAll(async () => {
    expect((await h.orders(['capacity', '--set', 'none', '--local'])).code).toBe(0);
  });

  it('refund of an undispatched order: its bottles go back to their day, once', async () => {
    const { sessionId, reference, day } = await paidOrder(6);
    // The day is the real clock's coming dispatch day, which other tests of this file may also fill.
    const hold = h.shop.simulator.getSession(sessionId)?.metadata?.capacity_hold ?? '';
    expect(hold).toMatch(/:6$/);
    const before = await store().read(day);
    expect(before.sales).toContain(hold);

    const refunded = await h.orders(['refund', reference, '--reason', 'other', '--local']);
    const again = await h.orders(['refund', reference, '--reason', 'other', '--local']);

    expect(refunded.code, refunded.err).toBe(0);
    expect(again.code).toBe(1);
    expect(await store().read(day)).toMatchObject({ taken: before.taken - 6, sold: before.sold - 6 });
    expect((await store().read(day)).sales).not.toContain(hold);
  });

  it('refund of a dispatched order: its bottles were used, nothing goes back', async () => {
    const { reference, day } = await paidOrder(3);
    expect((await h.orders(['mark-dispatched', reference, '--local'])).code).toBe(0);
    const before = await store().read(day);

    expect((await h.orders(['refund', reference, '--reason', 'other', '--local'])).code).toBe(0);

    expect(await store().read(day)).toMatchObject({ taken: before.taken, sold: before.sold });
  });

  describe('in requests mode', () => {
    beforeAll(async () => {
      expect((await h.orders(['pause', '--requests', '--local'])).code).toBe(0);
    });
    afterAll(async () => {
      expect((await h.orders(['resume', '--local'])).code).toBe(0);
    });

    it('a request holds its bottles on its day; decline gives them back, once', async () => {
      const { reference = '' } = await checkout(9);
      const request = await requestOf(reference);
      const day = String(request?.dispatchDate);
      // The hold's id carries its lapse time (48 hours on): `r<reference>.<epoch seconds>:9`.
      expect([...(await store().read(day)).holds]).toContainEqual(
        expect.stringMatching(new RegExp(`^r${reference}\\.\\d{10}:9$`)),
      );
      const before = await store().read(day);

      expect((await h.orders(['decline', reference, '--local'])).code).toBe(0);
      expect((await h.orders(['decline', reference, '--local'])).code).toBe(1);

      expect(await store().read(day)).toMatchObject({ taken: before.taken - 9 });
      expect((await store().read(day)).holds).not.toContain(`r${reference}:9`);
    });

    it("request-payment: the link's session carries the request's bottles (moved, never let go); paying it sells them; its expiry would release them", async () => {
      const { reference = '' } = await checkout(3);
      const day = String((await requestOf(reference))?.dispatchDate);
      const before = await store().read(day);

      expect((await h.orders(['request-payment', reference, '--local'])).code).toBe(0);

      const sessionId = String((await requestOf(reference))?.checkoutSessionId);
      const hold = h.shop.simulator.getSession(sessionId)?.metadata?.capacity_hold ?? '';
      expect(hold).toMatch(new RegExp(`^r${reference}\\.\\d+:3$`));
      expect(h.shop.simulator.getSession(sessionId)?.metadata?.dispatch_date).toBe(day);
      const linked = await store().read(day);
      expect(linked.taken).toBe(before.taken);
      expect(linked.holds).toContain(hold);
      expect(linked.holds).not.toContain(`r${reference}:3`);

      await h.shop.simulator.completeSession(sessionId);
      await deliver('checkout.session.completed', sessionId);
      await deliver('checkout.session.expired', sessionId);

      expect(await store().read(day)).toMatchObject({ taken: before.taken, sold: before.sold + 3 });
      expect((await store().read(day)).sales).toContain(hold);
    });
  });
});

describe('status and list show each day capacity and what is left', () => {
  beforeAll(() => h.setNow(new Date('2026-12-02T10:00:00Z')));
  afterAll(() => h.setNow(undefined));

  it('names the limit and what is left beside the day, and no limit where there is none', async () => {
    expect((await h.orders(['capacity', '--local', '--set', 'none'])).code).toBe(0);
    expect((await h.orders(['capacity', '--local', '--set', '12', '--date', '2026-12-07'])).code).toBe(0);
    // Paid Tuesday 1 December: dated Monday 7 December (written directly, so it holds no bottles).
    const order = await h.orderPaidAt(new Date('2026-12-01T10:00:00Z'), 901);
    expect(order.dispatchDate).toBe('2026-12-07');
    // Earlier tests of this file left holds and sales on the day: read them to say what is left.
    const { taken, sold } = await store().read('2026-12-07');
    // A day over its limit (earlier tests' sales on the real clock's coming Monday) has 0 left.
    const left = Math.max(0, 12 - taken);

    const status = await h.orders(['status', '--local']);
    const line = status.out.split('\n').find((l) => l.includes('Monday 7 December 2026:'));
    expect(line).toMatch(/: \d+ orders?, \d+ bottles; capacity 12 bottles, \d+ left\.$/);
    expect(line?.endsWith(`; capacity 12 bottles, ${left} left.`)).toBe(true);

    const list = await h.orders(['list', '--local', '--dispatch', '2026-12-07']);
    expect(list.out).toContain(
      `Capacity Monday 7 December 2026: 12 bottles, ${sold} sold, ${taken - sold} reserved, ${left} left.`,
    );

    expect((await h.orders(['capacity', '--local', '--set', 'default', '--date', '2026-12-07'])).code).toBe(
      0,
    );
    const unlimited = await h.orders(['list', '--local', '--dispatch', '2026-12-07']);
    expect(unlimited.out).toContain(
      `Capacity Monday 7 December 2026: no limit (${sold} sold, ${taken - sold} reserved).`,
    );
    expect((await h.orders(['status', '--local'])).out).not.toContain('; capacity');
  });
});
