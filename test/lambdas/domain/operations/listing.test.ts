import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDelayTarget,
  listRecords,
  nothingToDelay,
  ordersToPack,
  packingDayAmong,
  undispatchedAndRequested,
  undispatchedByDay,
} from '../../../../lambdas/domain/operations/listing';
import { recordOrderRequest } from '../../../../lambdas/domain/operations/request-actions';
import { dispatchSortKey, requestKey } from '../../../../lambdas/domain/storage/orders-table';
import {
  dispatchDayOfWeekOf as dispatchDayOfWeek,
  londonDate,
  packingDay,
} from '../../../../shared/dispatch';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

describe('dispatchDayOfWeek', () => {
  it.each([
    ['2026-11-23', '2026-11-23'],
    ['2026-11-25', '2026-11-23'],
    ['2026-11-28', '2026-11-23'],
    ['2026-11-29', '2026-11-23'],
    // Easter Monday 2027 is 29 March: that week's dispatch day is the Tuesday.
    ['2027-04-01', '2027-03-30'],
    ['2027-03-29', '2027-03-30'],
  ])('the week of %s dispatches on %s', (day, dispatch) => {
    expect(dispatchDayOfWeek(day)).toBe(dispatch);
  });
});

describe('packingDay', () => {
  it.each([
    ['2026-12-01', '2026-12-01'],
    ['2026-11-30', '2026-11-30'],
    ['2026-12-04', '2026-12-04'],
    ['2026-11-28', '2026-11-30'],
    ['2026-11-29', '2026-11-30'],
    // Christmas Day (a Friday), then the Boxing Day holiday on Monday 28th: Tuesday 29th.
    ['2026-12-25', '2026-12-29'],
    ['2026-12-28', '2026-12-29'],
  ])('%s is packed on %s', (day, packed) => {
    expect(packingDay(day)).toBe(packed);
  });
});

describe('packingDayAmong, the next day to pack from the days read', () => {
  // Tuesday 8 December 2026: the coming dispatch day is Monday 14th.
  const tuesday = new Date('2026-12-08T10:00:00Z');

  it.each([
    ['a day left over from yesterday', ['2026-12-07', '2026-12-14'], '2026-12-07'],
    ['the earliest of two left over', ['2026-11-30', '2026-12-07'], '2026-11-30'],
    ['today, a day orders were moved to', ['2026-12-08', '2026-12-14'], '2026-12-08'],
    ['not a later day orders were moved to: the coming dispatch day', ['2026-12-10'], '2026-12-14'],
    ['the coming dispatch day when nothing waits', [], '2026-12-14'],
  ])('%s', (_, days, next) => {
    expect(
      packingDayAmong(
        days.map((day) => ({ day })),
        tuesday,
      ),
    ).toBe(next);
  });

  it('on a dispatch day, that day', () => {
    expect(packingDayAmong([{ day: '2026-12-07' }], new Date('2026-12-07T10:00:00Z'))).toBe('2026-12-07');
  });
});

describe("londonDate, the merchant's today", () => {
  it('is the London calendar day: after 23:00 UTC in summer it is already tomorrow', () => {
    expect(londonDate(new Date('2026-07-01T23:30:00Z'))).toBe('2026-07-02');
    expect(londonDate(new Date('2026-11-25T23:30:00Z'))).toBe('2026-11-25');
  });
});

describe('checkDelayTarget', () => {
  const wednesday = new Date('2026-11-25T10:00:00Z');

  it('accepts a working day exactly 8 weeks ahead and refuses the day after', () => {
    expect(() => checkDelayTarget('2026-11-30', '2027-01-20', wednesday)).not.toThrow();
    expect(() => checkDelayTarget('2026-11-30', '2027-01-21', wednesday)).toThrow(
      'The new date, Thursday 21 January 2027, is more than 8 weeks ahead: the latest is Wednesday 20 January 2027.',
    );
  });

  it('refuses today as the new date, even after the day it moves from', () => {
    const tuesday = new Date('2026-12-01T10:00:00Z');
    expect(() => checkDelayTarget('2026-11-30', '2026-12-01', tuesday)).toThrow(
      'The new date, Tuesday 1 December, is not in the future.',
    );
    expect(() => checkDelayTarget('2026-11-30', '2026-12-02', tuesday)).not.toThrow();
  });

  it('names both days with their year when they are not this year', () => {
    const december = new Date('2026-12-16T10:00:00Z');
    expect(() => checkDelayTarget('2027-01-04', '2027-01-04', december)).toThrow(
      'The new date, Monday 4 January 2027, must be after Monday 4 January 2027.',
    );
  });

  it('refuses when the bank-holiday data does not reach 8 weeks ahead', () => {
    expect(() => checkDelayTarget('2032-12-06', '2032-12-07', new Date('2032-12-01T12:00:00Z'))).toThrow(
      'Bank holiday data ends 2032-12-31, before 2033-01-26: run npm run generate:bank-holidays with a later LAST_YEAR',
    );
  });
});

describe('the lists, over the orders table', () => {
  let h: OperationsHarness;
  beforeAll(async () => {
    h = await startOperationsHarness();
  });
  afterEach(() => h.setNow(undefined));
  afterAll(() => h?.close());

  it('nothingToDelay says when no day in the window holds undispatched orders', async () => {
    h.setNow(new Date('2028-03-01T10:00:00Z'));
    const refusal = await nothingToDelay('2028-03-06', h.deps);
    expect(refusal.message).toBe(
      'Monday 6 March holds no undispatched orders: nothing to move. No day holds undispatched orders.',
    );
  });

  it('nothingToDelay names every day that holds undispatched orders, earliest first, with the year when not this one', async () => {
    await h.seedOrder({
      sessionId: 'cs_test_nothing_1_AAAAAAAAAAAA',
      paidAt: '2028-12-10T09:00:00Z',
      dispatchDate: '2029-01-08',
    });
    await h.seedOrder({
      sessionId: 'cs_test_nothing_2_BBBBBBBBBBBB',
      paidAt: '2028-12-10T09:00:00Z',
      dispatchDate: '2028-12-18',
    });
    await h.seedOrder({
      sessionId: 'cs_test_nothing_3_CCCCCCCCCCCC',
      paidAt: '2028-12-10T09:00:00Z',
      dispatchDate: '2028-12-11',
      status: 'dispatched',
    });
    h.setNow(new Date('2028-12-20T10:00:00Z'));
    const refusal = await nothingToDelay('2029-01-15', h.deps);
    expect(refusal.message).toBe(
      'Monday 15 January 2029 holds no undispatched orders: nothing to move. Days that do: Monday 18 December (2028-12-18), Monday 8 January 2029 (2029-01-08).',
    );
  });

  // Three orders of one day: the index gives them by payment time, then reference (P0, P1, P2);
  // P1 and P2 were paid in the same second, and P2 was recorded first.
  async function seedPackingDay(day: string, prefix: string) {
    const p0 = await h.seedOrder({
      sessionId: `cs_test_${prefix}_p0_MMMMMMMMMMMM`,
      paidAt: `${day}T08:00:00.000Z`,
      createdAt: `${day}T09:30:00.000Z`,
      dispatchDate: day,
    });
    const p1 = await h.seedOrder({
      sessionId: `cs_test_${prefix}_p1_AAAAAAAAAAAA`,
      paidAt: `${day}T09:00:00.000Z`,
      createdAt: `${day}T09:00:09.000Z`,
      dispatchDate: day,
    });
    const p2 = await h.seedOrder({
      sessionId: `cs_test_${prefix}_p2_ZZZZZZZZZZZZ`,
      paidAt: `${day}T09:00:00.000Z`,
      createdAt: `${day}T09:00:01.000Z`,
      dispatchDate: day,
    });
    return { p0, p1, p2 };
  }

  it('ordersToPack gives a day oldest payment first, and of one second, the one recorded first', async () => {
    await seedPackingDay('2029-06-04', 'pack');
    const orders = await ordersToPack('2029-06-04', h.deps);
    expect(orders.map((o) => o.reference)).toEqual(['MMMMMMMMMMMM', 'ZZZZZZZZZZZZ', 'AAAAAAAAAAAA']);
  });

  it('undispatchedByDay gives each day its orders oldest payment first, ties by the moment recorded', async () => {
    await seedPackingDay('2029-09-03', 'byday');
    await h.seedOrder({
      sessionId: 'cs_test_byday_later_LLLLLLLLLLLL',
      paidAt: '2029-09-01T07:00:00Z',
      dispatchDate: '2029-09-10',
    });
    h.setNow(new Date('2029-09-01T10:00:00Z'));
    const days = await undispatchedByDay(h.deps);
    expect(days.map(({ day, orders }) => [day, orders.map((o) => o.reference)])).toEqual([
      ['2029-09-03', ['MMMMMMMMMMMM', 'ZZZZZZZZZZZZ', 'AAAAAAAAAAAA']],
      ['2029-09-10', ['LLLLLLLLLLLL']],
    ]);
  });

  it("undispatchedAndRequested reads each of the window's 113 days once: paid orders by day, requests still requested", async () => {
    const day = '2031-03-10';
    for (const [n, status] of (['paid', 'dispatched', 'refunded'] as const).entries()) {
      await h.seedOrder({
        sessionId: `cs_test_both_${n}_${String(n).repeat(12)}`,
        paidAt: `2031-03-0${n + 1}T09:00:00Z`,
        dispatchDate: day,
        status,
      });
    }
    await h.seedOrder({
      sessionId: 'cs_test_both_later_LATER0000000',
      paidAt: '2031-03-04T09:00:00Z',
      dispatchDate: '2031-03-17',
    });
    h.setNow(new Date('2031-03-05T10:00:00Z'));
    const requests = [];
    for (const n of [1, 2, 3]) {
      const made = await recordOrderRequest(
        {
          name: 'Rhea Request',
          email: `both.${n}@example.com`,
          phone: '07700 900456',
          address: '3 Reed Row\nBath',
          postcode: 'BA1 1AA',
          quantity: 3,
          subtotal: 9.75,
          shipping: 4.95,
          total: 14.7,
        },
        { idempotencyKey: undefined, cutoffHours: 36, client: `198.51.100.${20 + n}` },
        h.deps,
      );
      requests.push(requestKey(made.reference));
    }
    // One invited, one declined: of the three, one still waits for the merchant.
    for (const [pk, status] of [
      [requests[1], 'invited'],
      [requests[2], 'declined'],
    ] as const) {
      const stored = await h.item(String(pk));
      await h.setAttributes(String(pk), {
        status,
        gsi1sk: dispatchSortKey(status, String(stored?.createdAt), String(stored?.reference)),
      });
    }
    const client = h.shop.clients.documentClient;
    let queries = 0;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'QueryCommand') queries += 1;
        return next(args);
      },
      { step: 'initialize', name: 'count-queries' },
    );
    try {
      const { waiting, requested } = await undispatchedAndRequested(h.deps);

      expect(waiting.map(({ day, orders }) => [day, orders.map((o) => o.reference)])).toEqual([
        ['2031-03-10', ['000000000000']],
        ['2031-03-17', ['LATER0000000']],
      ]);
      expect(requested).toBe(1);
      // Eight weeks either side of Wednesday 5 March 2031 and the day itself: 56 + 56 + 1 days.
      expect(queries).toBe(113);
    } finally {
      client.middlewareStack.remove('count-queries');
    }
  });

  it('listRecords gives the newest payment first, and of one second, the one recorded last', async () => {
    await seedPackingDay('2029-12-03', 'list');
    // Paid later than P0 but recorded earlier.
    await h.seedOrder({
      sessionId: 'cs_test_list_p3_QQQQQQQQQQQQ',
      paidAt: '2029-12-03T08:30:00.000Z',
      createdAt: '2029-12-03T08:30:01.000Z',
      dispatchDate: '2029-12-03',
    });
    const records = await listRecords({ dispatchDate: '2029-12-03' }, h.deps);
    expect(records.map((r) => (r.kind === 'order' ? r.order.reference : r.request.reference))).toEqual([
      'AAAAAAAAAAAA',
      'ZZZZZZZZZZZZ',
      'QQQQQQQQQQQQ',
      'MMMMMMMMMMMM',
    ]);
  });

  it('listRecords orders two requests made in the same millisecond without failing', async () => {
    h.setNow(new Date('2030-02-06T10:00:00.000Z'));
    const input = {
      name: 'Rhea Request',
      phone: '07700 900456',
      address: '3 Reed Row\nBath',
      postcode: 'BA1 1AA',
      quantity: 3 as const,
      subtotal: 9.75,
      shipping: 4.95,
      total: 14.7,
    };
    const first = await recordOrderRequest(
      { ...input, email: 'same.ms.1@example.com' },
      { idempotencyKey: undefined, cutoffHours: 36, client: '198.51.100.1' },
      h.deps,
    );
    const second = await recordOrderRequest(
      { ...input, email: 'same.ms.2@example.com' },
      { idempotencyKey: undefined, cutoffHours: 36, client: '198.51.100.2' },
      h.deps,
    );
    const records = await listRecords({ dispatchDate: '2030-02-11' }, h.deps);
    expect(records.map((r) => (r.kind === 'request' ? r.request.reference : '')).sort()).toEqual(
      [first.reference, second.reference].sort(),
    );
  });
});
