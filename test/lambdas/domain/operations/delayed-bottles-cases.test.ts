import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasBottlesToMove, moveDelayedBottles } from '../../../../lambdas/domain/operations/delayed-bottles';
import { delayDispatch, refundOrder } from '../../../../lambdas/domain/operations/order-actions';
import { recordOrderRequest } from '../../../../lambdas/domain/operations/request-actions';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { dispatchDayKey, requestKey } from '../../../../lambdas/domain/storage/orders-table';
import { writeCapacitySettings } from '../../../../lambdas/domain/storage/settings-store';
import { injectAwsFault, inputContaining } from '../../../support/aws-faults';
import {
  type OperationsHarness,
  type SeededOrder,
  seedSoldOrder,
  startOperationsHarness,
} from './operations-harness';

// The cases of a delay's bottle move that delayed-bottles.test.ts leaves out, against dynalite and
// the Stripe simulator, on the operator's clock of Wednesday 28 May 2031. Each test has its own
// days. Monday 9 June may sell 20 bottles and Monday 16 June 15; every other day has no limit.
let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
  await writeCapacitySettings(h.deps.table, { days: { '2031-06-09': 20, '2031-06-16': 15 } }, new Date());
});
beforeEach(() => h.setNow(new Date('2031-05-28T10:00:00Z')));
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

const OPERATOR = 'merchant@live-aquatics.test';
const store = () => capacityStoreFromTable(h.deps.table);

const soldOrder = (seed: SeededOrder & { bottles: 3 | 6 | 9 }) => seedSoldOrder(h, seed);

/** A paid order of 9 bottles on `day`, tagged `tag` (its reference ends BOTTLES9<tag>). */
const nineBottlesOn = (day: string, tag: string) =>
  soldOrder({
    sessionId: `cs_test_cases_${tag}_BOTTLES9${tag}`,
    paidAt: '2031-05-20T09:00:00Z',
    dispatchDate: day,
    email: `cases.${tag}@example.com`,
    bottles: 9,
  });

/** Three paid orders of 6, 6 and 3 bottles on `day`: 15 sold there. */
async function fifteenBottlesOn(day: string, tag: string) {
  const sizes: Array<3 | 6> = [6, 6, 3];
  for (const [n, bottles] of sizes.entries()) {
    await soldOrder({
      sessionId: `cs_test_cases_${tag}_CASES15${tag}${n}`,
      paidAt: `2031-05-2${n}T09:00:00Z`,
      dispatchDate: day,
      email: `cases.${tag}${n}@example.com`,
      bottles,
    });
  }
}

/** A paid order of 6 bottles on `day` whose payment is in the simulator, so it can be refunded. */
async function refundableOrder(day: string, n: number) {
  const session = await h.shop.paidSession({ quantity: 6 });
  return soldOrder({
    sessionId: session.id,
    paidAt: '2031-05-20T09:00:00Z',
    dispatchDate: day,
    email: `cases.refund${n}@example.com`,
    paymentIntentId: undefined,
    bottles: 6,
  });
}

const delay = (from: string, to: string) =>
  delayDispatch({ from, to, reason: 'weather', actor: OPERATOR }, h.deps);

/** The old day's give-back of a sale: the second step of a move. */
const giveBackOn = (day: string) =>
  injectAwsFault(h.shop.clients.documentClient, {
    command: 'UpdateItemCommand',
    matches: inputContaining(`CAPACITY#${day}`, ':minus'),
    when: 'before',
  });

describe('a delay onto a day with a limit', () => {
  it('Monday 9 June, limit 20: 15 moved there, within it, so no overLimit', async () => {
    await fifteenBottlesOn('2031-06-04', 'a');

    const result = await delay('2031-06-04', '2031-06-09');

    expect(result.moved).toHaveLength(3);
    expect(result).not.toHaveProperty('overLimit');
    expect(await store().read('2031-06-09')).toMatchObject({ taken: 15, sold: 15 });
  });

  it('Monday 16 June, limit 15: 15 moved there is exactly the limit, not over it', async () => {
    await fifteenBottlesOn('2031-06-05', 'b');

    const result = await delay('2031-06-05', '2031-06-16');

    expect(result.moved).toHaveLength(3);
    expect(result).not.toHaveProperty('overLimit');
    expect(await store().read('2031-06-05')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-06-16')).toMatchObject({ taken: 15, sold: 15 });
  });
});

describe('orders whose bottles do not move', () => {
  it('an order recorded before capacity existed moves with no bottles and no error', async () => {
    const order = await h.seedOrder({
      sessionId: 'cs_test_cases_c_NOCAPACITYc0',
      paidAt: '2031-05-20T09:00:00Z',
      dispatchDate: '2031-06-10',
      email: 'cases.c@example.com',
    });
    expect(hasBottlesToMove({ ...order, dispatchDate: '2031-06-11' })).toBe(false);

    const result = await delay('2031-06-10', '2031-06-11');

    expect(result.moved).toEqual([order.reference]);
    expect(result).not.toHaveProperty('overLimit');
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ dispatchDate: '2031-06-11', delayedFrom: '2031-06-10' });
    expect(item).not.toHaveProperty('capacityDate');
    expect(item).not.toHaveProperty('capacityMovingFrom');
    expect(await store().read('2031-06-10')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-06-11')).toMatchObject({ taken: 0, sold: 0 });
  });

  it('a request (unpaid) on the day stays there with its 3 bottles reserved; the paid order moves', async () => {
    // On 28 May, 36 hours' cut-off: the request holds its bottles on Monday 2 June.
    const recorded = await recordOrderRequest(
      {
        name: 'Rhea Request',
        email: 'cases.request@example.com',
        phone: '07700 900456',
        address: '3 Reed Row\nBath',
        postcode: 'BA1 1AA',
        quantity: 3,
        subtotal: 9.75,
        shipping: 4.95,
        total: 14.7,
      },
      { idempotencyKey: undefined, cutoffHours: 36, client: 'client-cases-request' },
      h.deps,
    );
    const paid = await nineBottlesOn('2031-06-02', 'd');
    expect(await store().read('2031-06-02')).toMatchObject({ taken: 12, sold: 9 });

    const result = await delay('2031-06-02', '2031-06-03');

    expect(result.moved).toEqual([paid.reference]);
    expect(await h.item(requestKey(recorded.reference))).toMatchObject({ dispatchDate: '2031-06-02' });
    expect(await store().read('2031-06-02')).toMatchObject({ taken: 3, sold: 0 });
    expect(await store().read('2031-06-03')).toMatchObject({ taken: 9, sold: 9 });
  });
});

describe('a move stopped part way, finished by the next run', () => {
  it('stopped before anything: the rerun moves the 9 bottles once', async () => {
    const order = await nineBottlesOn('2031-06-23', 'e');
    const fault = injectAwsFault(h.shop.clients.documentClient, {
      command: 'UpdateItemCommand',
      matches: inputContaining(order.pk, 'capacityMovingFrom'),
      when: 'before',
    });
    await expect(delay('2031-06-23', '2031-06-24')).rejects.toThrow('Injected fault');
    fault.remove();
    expect(await h.item(order.pk)).toMatchObject({ dispatchDate: '2031-06-24', capacityDate: '2031-06-23' });
    expect(await store().read('2031-06-24')).toMatchObject({ taken: 0, sold: 0 });

    const rerun = await delay('2031-06-23', '2031-06-24');

    expect(rerun.moved).toEqual([]);
    expect(await store().read('2031-06-23')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-06-24')).toMatchObject({ taken: 9, sold: 9 });
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ capacityDate: '2031-06-24' });
    expect(item).not.toHaveProperty('capacityMovingFrom');
  });

  it('stopped after the sale on the new day, then delayed again: the next delay finishes the first move and makes its own', async () => {
    const order = await nineBottlesOn('2031-06-30', 'f');
    const fault = giveBackOn('2031-06-30');
    await expect(delay('2031-06-30', '2031-07-01')).rejects.toThrow('Injected fault');
    fault.remove();
    expect(await store().read('2031-06-30')).toMatchObject({ taken: 9, sold: 9 });
    expect(await store().read('2031-07-01')).toMatchObject({ taken: 9, sold: 9 });

    const second = await delay('2031-07-01', '2031-07-02');

    expect(second.moved).toEqual([order.reference]);
    expect(await store().read('2031-06-30')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-07-01')).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
    expect(await store().read('2031-07-02')).toMatchObject({ taken: 9, sold: 9 });
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ dispatchDate: '2031-07-02', capacityDate: '2031-07-02' });
    expect(item).not.toHaveProperty('capacityMovingFrom');
  });

  it('stopped after the sale, then the order moved on again: one call finishes the first move, then makes the next', async () => {
    const order = await nineBottlesOn('2031-07-16', 'j');
    const fault = giveBackOn('2031-07-16');
    await expect(delay('2031-07-16', '2031-07-17')).rejects.toThrow('Injected fault');
    fault.remove();
    // As a second delay's order write leaves it, before it moves any bottle.
    await h.setAttributes(order.pk, {
      dispatchDate: '2031-07-18',
      gsi1pk: dispatchDayKey('2031-07-18'),
      delayedFrom: '2031-07-17',
    });

    await moveDelayedBottles(order, h.deps);

    expect(await store().read('2031-07-16')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-07-17')).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
    expect(await store().read('2031-07-18')).toMatchObject({ taken: 9, sold: 9 });
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ capacityDate: '2031-07-18' });
    expect(item).not.toHaveProperty('capacityMovingFrom');
  });

  it('stopped after the sale, then refunded with its give-back stopped too: the rerun gives back on both days', async () => {
    const order = await nineBottlesOn('2031-07-07', 'g');
    const fault = giveBackOn('2031-07-07');
    await expect(delay('2031-07-07', '2031-07-08')).rejects.toThrow('Injected fault');
    fault.remove();
    // The refund was recorded, and stopped before it gave anything back.
    await h.setAttributes(order.pk, { status: 'refunded', refundedAt: '2031-05-28T09:00:00Z' });

    await delay('2031-07-07', '2031-07-08');

    expect(await store().read('2031-07-07')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-07-08')).toMatchObject({ taken: 0, sold: 0 });
    expect(await h.item(order.pk)).not.toHaveProperty('capacityMovingFrom');
  });
});

describe('a refund while the bottles move', () => {
  it('recorded between the move starting and the sale on the new day: the sale there is given back', async () => {
    const order = await refundableOrder('2031-07-14', 1);
    // The refund lands just before the new day's sale, and gives back on both days (nothing yet on the new).
    h.beforeCommand(
      'UpdateItemCommand',
      inputContaining('CAPACITY#2031-07-15', 'contains(#holds, :hold)'),
      async () => {
        await refundOrder(order.reference, { reason: 'supply', actor: OPERATOR }, h.deps);
      },
    );

    await delay('2031-07-14', '2031-07-15');

    expect(await h.item(order.pk)).toMatchObject({ status: 'refunded', capacityDate: '2031-07-15' });
    expect(await store().read('2031-07-14')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-07-15')).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
  });
});

describe('orders the move handles apart', () => {
  it('refunded after it was dispatched, its 9 bottles still on the old day: they move to the day it went', async () => {
    const order = await nineBottlesOn('2031-07-21', 'h');
    // As a delay from before delays moved bottles left it, dispatched then refunded: the bottles went.
    await h.setAttributes(order.pk, {
      dispatchDate: '2031-07-22',
      gsi1pk: dispatchDayKey('2031-07-22'),
      delayedFrom: '2031-07-21',
      status: 'refunded',
      dispatchedAt: '2031-07-22T08:00:00Z',
      refundedAt: '2031-07-23T09:00:00Z',
    });

    await moveDelayedBottles(order, h.deps);

    expect(await store().read('2031-07-21')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-07-22')).toMatchObject({ taken: 9, sold: 9 });
    expect(await h.item(order.pk)).toMatchObject({ capacityDate: '2031-07-22' });
  });

  it('an order gone from the table: the move says which', async () => {
    const order = await nineBottlesOn('2031-07-09', 'i');
    await h.shop.standIns.inspector.send(
      new DeleteCommand({ TableName: h.shop.standIns.tableName, Key: { pk: order.pk } }),
    );

    await expect(moveDelayedBottles(order, h.deps)).rejects.toThrow(
      'Order cs_test_cases_i_BOTTLES9i disappeared',
    );
    expect(await store().read('2031-07-09')).toMatchObject({ taken: 9, sold: 9 });
  });
});
