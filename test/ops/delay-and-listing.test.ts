import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutReservationId, holdId, sellHold } from '../../lambdas/domain/capacity/holds';
import { toOrderItem } from '../../lambdas/domain/checkout/paid-checkout';
import { capacityStoreFromTable } from '../../lambdas/domain/storage/capacity-table';
import type { IsoDate } from '../../shared/dispatch';
import { quoteOrder } from '../../shared/pricing';
import { type OpsHarness, startOpsHarness } from './harness';

// The merchant's week on the CLI, with the clock on Wednesday 25 November 2026 (London, GMT).
// Orders paid on Tuesday 24 November are dated for Monday 30 November.
let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

const WEDNESDAY = new Date('2026-11-25T10:00:00Z');
const PAID = new Date('2026-11-24T10:00:00Z');

async function delay(from: string, to: string) {
  return h.orders(['delay', '--dispatch', from, '--to', to, '--reason', 'weather', '--local']);
}

describe('orders CLI: a delayed order stays in every list', () => {
  it('is listed, counted in status and packed on its new day, and next finds that day', async () => {
    h.setNow(WEDNESDAY);
    const orders = [
      await h.orderPaidAt(PAID, 1),
      await h.orderPaidAt(PAID, 2),
      await h.orderPaidAt(PAID, 3, 6),
    ];
    const shipped = await h.orderPaidAt(PAID, 4);
    expect(orders.map((o) => o.dispatchDate)).toEqual(['2026-11-30', '2026-11-30', '2026-11-30']);
    expect((await h.orders(['mark-dispatched', shipped.reference, '--local'])).code).toBe(0);

    const moved = await delay('2026-11-30', '2026-12-01');
    expect(moved.code).toBe(0);
    expect(moved.out).toContain(
      'Moved 3 orders from Monday 30 November 2026 to Tuesday 1 December 2026 (weather)',
    );

    const list = await h.orders(['list', '--local', '--json']);
    expect(JSON.parse(list.out)).toHaveLength(4);

    const status = await h.orders(['status', '--local']);
    // The delay closed Monday 30 November: nothing more is sold there.
    expect(status.out).toContain(
      'Next dispatch: Monday 30 November 2026: 0 orders, 0 bottles; capacity 0 bottles, 0 left.',
    );
    expect(status.out).toContain('Then: Tuesday 1 December 2026: 3 orders, 12 bottles.');

    // On Tuesday 1 December the next day to pack is that Tuesday, not Monday 7 December.
    h.setNow(new Date('2026-12-01T08:00:00Z'));
    const dir = await import('node:fs').then((fs) => fs.mkdtempSync('/tmp/dispatch-'));
    const packing = await h.orders(['dispatch-list', '--local', '--out', dir]);
    expect(packing.code).toBe(0);
    expect(packing.out).toContain('Dispatch Tuesday 1 December 2026: 3 orders, 12 bottles to prepare.');
    for (const order of orders) expect(packing.out).toContain(order.reference);
    const statusThen = await h.orders(['status', '--local']);
    expect(statusThen.out).toContain('Next dispatch: Tuesday 1 December 2026: 3 orders, 12 bottles.');
    h.setNow(undefined);
  });
});

describe('orders CLI: delay says only true things', () => {
  // Monday 14 December 2026 holds one order (paid Tuesday 8 December).
  let emailsBefore = 0;
  beforeAll(async () => {
    h.setNow(WEDNESDAY);
    const order = await h.orderPaidAt(new Date('2026-12-08T10:00:00Z'), 50);
    expect(order.dispatchDate).toBe('2026-12-14');
    emailsBefore = (await h.shop.standIns.emails()).length;
  });

  it.each([
    [
      '2026-12-25',
      'Friday 25 December is a bank holiday: couriers collect and the shop dispatches on working days.',
    ],
    ['2026-12-19', 'Saturday 19 December is a weekend day: couriers collect'],
    ['2026-12-14', 'The new date, Monday 14 December, must be after Monday 14 December.'],
    [
      '2027-01-28',
      'The new date, Thursday 28 January 2027, is more than 8 weeks ahead: the latest is Wednesday 20 January 2027.',
    ],
  ])('refuses --to %s with exit 1 and sends nothing', async (to, message) => {
    h.setNow(WEDNESDAY);
    const run = await delay('2026-12-14', to);
    expect(run.code).toBe(1);
    expect(run.err).toContain(message);
    expect(await h.shop.standIns.emails()).toHaveLength(emailsBefore);
  });

  it('refuses a past --to', async () => {
    h.setNow(new Date('2026-12-16T10:00:00Z'));
    const run = await delay('2026-12-14', '2026-12-15');
    expect(run.code).toBe(1);
    expect(run.err).toContain('The new date, Tuesday 15 December, is not in the future.');
    expect(await h.shop.standIns.emails()).toHaveLength(emailsBefore);
  });

  it('refuses a day with nothing to move, naming the days that hold orders', async () => {
    h.setNow(WEDNESDAY);
    const run = await delay('2026-12-07', '2026-12-08');
    expect(run.code).toBe(1);
    expect(run.err).toContain('Monday 7 December holds no undispatched orders: nothing to move.');
    expect(run.err).toContain('Monday 14 December (2026-12-14)');
    expect(await h.shop.standIns.emails()).toHaveLength(emailsBefore);
  });

  it('refuses a date that does not exist instead of rolling it over', async () => {
    h.setNow(WEDNESDAY);
    const run = await delay('2026-11-31', '2026-12-08');
    expect(run.code).toBe(2);
    expect(run.err).toContain('--dispatch 2026-11-31 is not a date: no such day.');
  });

  it('takes --dispatch next: the earliest day still holding orders, overdue ones first', async () => {
    // Friday 18 December 2026: Tuesday 1 December (moved there above, never packed) comes first.
    h.setNow(new Date('2026-12-18T10:00:00Z'));
    const run = await delay('next', '2026-12-21');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      'Moved 3 orders from Tuesday 1 December 2026 to Monday 21 December 2026 (weather)',
    );
    h.setNow(undefined);
  });

  it('gives a new date in another year with its year in the email', async () => {
    h.setNow(new Date('2026-12-18T10:00:00Z'));
    const run = await delay('2026-12-14', '2027-01-04');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      'Moved 1 order from Monday 14 December 2026 to Monday 4 January 2027 (weather)',
    );
    const emails = (await h.emailsTo('customer50@example.com')).filter((e) =>
      e.subject.includes('new dispatch date'),
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toContain('Monday 4 January 2027');
    expect(emails[0]?.body.text).toContain('from Monday 14 December to Monday 4 January 2027, because of');
    h.setNow(undefined);
  });
});

describe('orders CLI: a delay moves the sold bottles with the orders', () => {
  // On Wednesday 6 January 2027: Monday 11 January may sell 60 bottles, Monday 25 January 10.
  const store = () =>
    capacityStoreFromTable({ client: h.shop.standIns.inspector, tableName: h.shop.standIns.tableName });
  let n = 100;
  /**
   * A paid order of `bottles` on `day`, sold there before it is written, as fulfilment does (ADR
   * 0023); its payment is in the Stripe simulator, so it can be refunded.
   */
  async function soldOrder(day: IsoDate, bottles: 3 | 6) {
    n += 1;
    const session = await h.shop.paidSession({ quantity: bottles });
    const hold = holdId(checkoutReservationId(session.id.slice(-12), 1_800_000_000), bottles);
    await sellHold(store(), day, hold);
    const paidAt = new Date('2027-01-05T10:00:00Z');
    const order = toOrderItem(
      {
        sessionId: session.id,
        paymentIntentId: undefined,
        livemode: false,
        quote: quoteOrder(bottles),
        currency: 'gbp',
        customer: {
          name: `Customer ${n}`,
          email: `bottles${n}@example.com`,
          phone: '07700 900123',
          address: `${n} Pond Lane\nBristol`,
          postcode: 'BS1 4DJ',
        },
        promisedDispatchDate: day,
        checkoutCreatedAt: paidAt,
      },
      { now: paidAt, cutoffHours: 36 },
      undefined,
      { date: day, hold },
    );
    await h.shop.standIns.inspector.send(
      new PutCommand({ TableName: h.shop.standIns.tableName, Item: order }),
    );
    return order;
  }
  async function capacityRows(weeks: number) {
    const run = await h.orders(['capacity', '--json', '--weeks', String(weeks), '--local']);
    expect(run.code, run.err).toBe(0);
    return JSON.parse(run.out) as unknown;
  }

  beforeAll(async () => {
    h.setNow(new Date('2027-01-06T10:00:00Z'));
    expect((await h.orders(['capacity', '--set', '60', '--date', '2027-01-11', '--local'])).code).toBe(0);
    expect((await h.orders(['capacity', '--set', '10', '--date', '2027-01-25', '--local'])).code).toBe(0);
  });
  afterAll(() => h.setNow(undefined));

  it('6 + 6 + 3 bottles from Monday to Tuesday: Monday 0 sold, Tuesday 15; the same delay again moves nothing twice', async () => {
    for (const bottles of [6, 6, 3] as const) await soldOrder('2027-01-11', bottles);
    expect(await capacityRows(1)).toEqual([
      {
        date: '2027-01-11',
        capacity: 60,
        reserved: 0,
        sold: 15,
        left: 45,
        orders: 3,
        bottles: 15,
        dispatchDay: true,
      },
    ]);

    const moved = await delay('2027-01-11', '2027-01-12');
    const again = await delay('2027-01-11', '2027-01-12');

    expect(moved.out.split('\n')).toEqual([
      expect.stringMatching(
        /^Moved 3 orders from Monday 11 January 2027 to Tuesday 12 January 2027 \(weather\): /,
      ),
      expect.stringMatching(/^Delay emails sent: 3 /),
      'Monday 11 January 2027 is now closed: checkout sells nothing more on it. To sell it again: npm run orders -- capacity --set 60 --date 2027-01-11.',
    ]);
    expect(again.out).toContain('Moved 0 orders from Monday 11 January 2027 to Tuesday 12 January 2027');
    expect(again.out).not.toContain('closed');
    // The Tuesday the orders moved to is a row of its own, with its orders and bottles, though
    // checkout never sells it and no limit covers it.
    expect(await capacityRows(1)).toEqual([
      {
        date: '2027-01-11',
        capacity: 0,
        reserved: 0,
        sold: 0,
        left: 0,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
      {
        date: '2027-01-12',
        capacity: null,
        reserved: 0,
        sold: 15,
        left: null,
        orders: 3,
        bottles: 15,
        dispatchDay: false,
      },
    ]);
    expect((await h.orders(['capacity', '--weeks', '1', '--local'])).out.split('\n')).toEqual([
      'DISPATCH DAY             CAPACITY  RESERVED  SOLD  LEFT      ORDERS  BOTTLES',
      'Monday 11 January 2027   0         0         0     0 (full)  0       0',
      'Tuesday 12 January 2027  no limit  0         15    -         3       15',
    ]);
    expect((await h.orders(['list', '--dispatch', '2027-01-12', '--local'])).out).toContain(
      'Capacity Tuesday 12 January 2027: no limit (15 sold, 0 reserved).',
    );
    expect((await h.orders(['status', '--local'])).out).toContain(
      'Then: Tuesday 12 January 2027: 3 orders, 15 bottles.',
    );
  });

  it('onto Monday 25 January, limit 10: the 15 bottles move all the same, and the output says the day is over', async () => {
    for (const bottles of [6, 6, 3] as const) await soldOrder('2027-01-18', bottles);

    const moved = await delay('2027-01-18', '2027-01-25');

    expect(moved.code).toBe(0);
    expect(moved.out.split('\n').slice(-2)).toEqual([
      'Monday 25 January 2027 is now over its limit: 15 sold of 10. Nothing is cancelled, and it sells no more.',
      'Monday 18 January 2027 is now closed: checkout sells nothing more on it. To sell it again: npm run orders -- capacity --set default --date 2027-01-18.',
    ]);
    expect(await capacityRows(3)).toEqual([
      {
        date: '2027-01-11',
        capacity: 0,
        reserved: 0,
        sold: 0,
        left: 0,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
      {
        date: '2027-01-12',
        capacity: null,
        reserved: 0,
        sold: 15,
        left: null,
        orders: 3,
        bottles: 15,
        dispatchDay: false,
      },
      {
        date: '2027-01-18',
        capacity: 0,
        reserved: 0,
        sold: 0,
        left: 0,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
      {
        date: '2027-01-25',
        capacity: 10,
        reserved: 0,
        sold: 15,
        left: 0,
        orders: 3,
        bottles: 15,
        dispatchDay: true,
      },
    ]);
  });

  it('a refund after the delay gives the bottles back to the new day', async () => {
    const order = await soldOrder('2027-02-01', 6);
    expect((await delay('2027-02-01', '2027-02-02')).code).toBe(0);
    expect(await store().read('2027-02-02')).toMatchObject({ taken: 6, sold: 6 });

    const refunded = await h.orders(['refund', order.reference, '--reason', 'supply', '--local']);

    expect(refunded.code, refunded.err).toBe(0);
    expect(await store().read('2027-02-02')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2027-02-01')).toMatchObject({ taken: 0, sold: 0 });
  });
});
