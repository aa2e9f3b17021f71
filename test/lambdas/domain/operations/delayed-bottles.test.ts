import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { delayDispatch, refundOrder } from '../../../../lambdas/domain/operations/order-actions';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { dispatchDayKey } from '../../../../lambdas/domain/storage/orders-table';
import { writeCapacitySettings } from '../../../../lambdas/domain/storage/settings-store';
import { injectAwsFault, inputContaining } from '../../../support/aws-faults';
import {
  type OperationsHarness,
  type SeededOrder,
  seedSoldOrder,
  startOperationsHarness,
} from './operations-harness';

// A delay moves its orders' sold bottles with them, against dynalite and the Stripe simulator, on
// the operator's clock of Wednesday 28 May 2031. Each test has its own days. Monday 2 June may
// sell 60 bottles and Monday 16 June 10; every other day has no limit.
let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
  await writeCapacitySettings(h.deps.table, { days: { '2031-06-02': 60, '2031-06-16': 10 } }, new Date());
});
beforeEach(() => h.setNow(new Date('2031-05-28T10:00:00Z')));
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

const OPERATOR = 'merchant@live-aquatics.test';
const store = () => capacityStoreFromTable(h.deps.table);

const soldOrder = (seed: SeededOrder & { bottles: 3 | 6 | 9 }) => seedSoldOrder(h, seed);

/** Three paid orders of 6, 6 and 3 bottles on `day`: 15 sold there. */
async function fifteenBottlesOn(day: string, tag: string) {
  const sizes: Array<3 | 6> = [6, 6, 3];
  const orders = [];
  for (const [n, bottles] of sizes.entries()) {
    orders.push(
      await soldOrder({
        sessionId: `cs_test_bottles_${tag}_BOTTLESORD${tag}${n}`,
        paidAt: `2031-05-2${n}T09:00:00Z`,
        dispatchDate: day,
        email: `bottles.${tag}${n}@example.com`,
        bottles,
      }),
    );
  }
  return orders;
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

describe('delayDispatch moves the sold bottles with the orders', () => {
  it('Monday 2 June: 15 sold, 0 after; Tuesday 3 June: 15 sold after; a rerun moves nothing twice', async () => {
    const orders = await fifteenBottlesOn('2031-06-02', 'a');
    expect(await store().read('2031-06-02')).toMatchObject({ taken: 15, sold: 15 });

    const result = await delay('2031-06-02', '2031-06-03');
    const again = await delay('2031-06-02', '2031-06-03');

    expect(result.moved).toHaveLength(3);
    expect(result).not.toHaveProperty('overLimit');
    expect(again).toEqual({ from: '2031-06-02', to: '2031-06-03', moved: [], emailed: [] });
    expect(await store().read('2031-06-02')).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
    expect(await store().read('2031-06-03')).toMatchObject({ taken: 15, sold: 15 });
    for (const order of orders) {
      const item = await h.item(order.pk);
      expect(item).toMatchObject({ dispatchDate: '2031-06-03', capacityDate: '2031-06-03' });
      expect(item).not.toHaveProperty('capacityMovingFrom');
    }
  });

  it('onto Monday 16 June, limit 10: all 15 move all the same, and the result says it is over', async () => {
    await fifteenBottlesOn('2031-06-09', 'b');

    const result = await delay('2031-06-09', '2031-06-16');

    expect(result.moved).toHaveLength(3);
    expect(result.overLimit).toEqual({ sold: 15, capacity: 10 });
    expect(await store().read('2031-06-09')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-06-16')).toMatchObject({ taken: 15, sold: 15 });
  });

  it('a stop between the sale on the new day and the give-back on the old: both count it until the rerun, which finishes once', async () => {
    const [first] = await fifteenBottlesOn('2031-06-23', 'c');
    const fault = giveBackOn('2031-06-23');

    await expect(delay('2031-06-23', '2031-06-24')).rejects.toThrow('Injected fault');
    fault.remove();
    expect(await store().read('2031-06-23')).toMatchObject({ taken: 15, sold: 15 });
    expect(await store().read('2031-06-24')).toMatchObject({ taken: 6, sold: 6 });
    expect(await h.item(String(first?.pk))).toMatchObject({
      capacityDate: '2031-06-24',
      capacityMovingFrom: '2031-06-23',
    });

    const rerun = await delay('2031-06-23', '2031-06-24');
    await delay('2031-06-23', '2031-06-24');

    expect(rerun.moved).toHaveLength(2);
    expect(await store().read('2031-06-23')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-06-24')).toMatchObject({ taken: 15, sold: 15 });
    expect(await h.item(String(first?.pk))).not.toHaveProperty('capacityMovingFrom');
  });

  it('an order delayed before delays moved bottles: running the same delay again moves them', async () => {
    const order = await soldOrder({
      sessionId: 'cs_test_bottles_d_BOTTLESORDd0',
      paidAt: '2031-05-20T09:00:00Z',
      dispatchDate: '2031-07-14',
      bottles: 9,
    });
    // As the delay of before left it: the order on Tuesday 15 July, its bottles still on Monday.
    await h.setAttributes(order.pk, {
      dispatchDate: '2031-07-15',
      gsi1pk: dispatchDayKey('2031-07-15'),
      delayedFrom: '2031-07-14',
    });

    const rerun = await delay('2031-07-14', '2031-07-15');

    expect(rerun.moved).toEqual([]);
    expect(await store().read('2031-07-14')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-07-15')).toMatchObject({ taken: 9, sold: 9 });
    expect(await h.item(order.pk)).toMatchObject({ capacityDate: '2031-07-15' });
  });
});

describe('a refund after a delay gives the bottles back where they count', () => {
  /** A paid order of 6 bottles on `day` whose payment is in the simulator, so it can be refunded. */
  async function refundableOrder(day: string, n: number) {
    const session = await h.shop.paidSession({ quantity: 6 });
    return soldOrder({
      sessionId: session.id,
      paidAt: '2031-05-20T09:00:00Z',
      dispatchDate: day,
      email: `bottles.refund${n}@example.com`,
      paymentIntentId: undefined,
      bottles: 6,
    });
  }

  it('to the new day', async () => {
    const order = await refundableOrder('2031-06-30', 1);
    await delay('2031-06-30', '2031-07-01');
    expect(await store().read('2031-07-01')).toMatchObject({ taken: 6, sold: 6 });

    await refundOrder(order.reference, { reason: 'supply', actor: OPERATOR }, h.deps);

    expect(await store().read('2031-06-30')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-07-01')).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
  });

  it('to both days while the move is stopped between them, and a rerun of the delay sells nothing again', async () => {
    const order = await refundableOrder('2031-07-07', 2);
    const fault = giveBackOn('2031-07-07');
    await expect(delay('2031-07-07', '2031-07-08')).rejects.toThrow('Injected fault');
    fault.remove();

    await refundOrder(order.reference, { reason: 'supply', actor: OPERATOR }, h.deps);
    await delay('2031-07-07', '2031-07-08');

    expect(await store().read('2031-07-07')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-07-08')).toMatchObject({ taken: 0, sold: 0 });
    expect(await h.item(order.pk)).not.toHaveProperty('capacityMovingFrom');
  });

  it('to the old day when the order moved but its bottles had not started to', async () => {
    const order = await refundableOrder('2031-07-21', 3);
    const fault = injectAwsFault(h.shop.clients.documentClient, {
      command: 'UpdateItemCommand',
      matches: inputContaining(order.pk, 'capacityMovingFrom'),
      when: 'before',
    });
    await expect(delay('2031-07-21', '2031-07-22')).rejects.toThrow('Injected fault');
    fault.remove();
    expect(await h.item(order.pk)).toMatchObject({ dispatchDate: '2031-07-22', capacityDate: '2031-07-21' });

    await refundOrder(order.reference, { reason: 'supply', actor: OPERATOR }, h.deps);
    await delay('2031-07-21', '2031-07-22');

    expect(await store().read('2031-07-21')).toMatchObject({ taken: 0, sold: 0 });
    expect(await store().read('2031-07-22')).toMatchObject({ taken: 0, sold: 0 });
  });
});
