import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capacityOfDays, setCapacity } from '../../../../lambdas/domain/capacity/capacity-report';
import { delayDispatch } from '../../../../lambdas/domain/operations/order-actions';
import { addWorkingDays } from '../../../../shared/dispatch';
import { type CapacityShop, startCapacityShop } from '../../../support/capacity-shop';

// A delay closes the day it moves orders off, through the shop as deployed: create-checkout from
// its environment (signed-fetch reservation), the webhook, dynalite and the Stripe simulator, on
// the real clock. Every dispatch day may sell 30 bottles.
let shop: CapacityShop;
beforeAll(async () => {
  shop = await startCapacityShop();
  await shop.setCapacity({ weekly: 30 });
});
afterAll(() => shop?.close());

const OPERATOR = 'merchant@live-aquatics.test';

/** A checkout through create-checkout, paid; the day it was sold on. */
async function paidCheckout(quantity: 3 | 6): Promise<string> {
  const { sessionId = '' } = await shop.checkout(quantity);
  expect((await shop.pay(sessionId)).statusCode).toBe(200);
  return shop.metadata(sessionId).dispatch_date ?? '';
}

/** The day a new checkout of `quantity` bottles is offered. */
async function dayOffered(quantity: 3 | 6): Promise<string | undefined> {
  const { sessionId = '' } = await shop.checkout(quantity);
  return shop.metadata(sessionId).dispatch_date;
}

describe("delayDispatch closes the day it moves the orders off; the merchant's capacity command reopens it", () => {
  it("Monday's 9 bottles to Tuesday: Monday closed and sold to no one, Tuesday 21 left; reopened, Monday sells again", async () => {
    const monday = shop.firstDay();
    const tuesday = addWorkingDays(monday, 1);
    expect([await paidCheckout(6), await paidCheckout(3)]).toEqual([monday, monday]);

    const result = await delayDispatch(
      { from: monday, to: tuesday, reason: 'weather', actor: OPERATOR },
      shop.h.deps,
    );

    expect(result.moved).toHaveLength(2);
    expect(await dayOffered(3)).not.toBe(monday);
    expect(result.closed).toEqual({ date: monday, before: 'default' });
    expect(await capacityOfDays(shop.h.deps, [monday, tuesday])).toEqual([
      { date: monday, capacity: 0, reserved: 0, sold: 0, left: 0 },
      { date: tuesday, capacity: 30, reserved: 0, sold: 9, left: 21 },
    ]);

    await setCapacity(shop.h.deps, { value: 'default', date: monday }, 8);

    expect(await dayOffered(6)).toBe(monday);
    expect(await capacityOfDays(shop.h.deps, [monday])).toEqual([
      { date: monday, capacity: 30, reserved: 6, sold: 0, left: 24 },
    ]);
    // The same delay run again (to resend an email) finds nothing to move and leaves Monday open.
    const again = await delayDispatch(
      { from: monday, to: tuesday, reason: 'weather', actor: OPERATOR },
      shop.h.deps,
    );
    expect(again).not.toHaveProperty('closed');
    expect(await capacityOfDays(shop.h.deps, [monday])).toMatchObject([{ capacity: 30 }]);
  });
});
