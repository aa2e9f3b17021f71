import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followShopPause } from '../../../../lambdas/domain/standing-deliveries/shop-pause';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import type { createOrderPageHandler } from '../../../../lambdas/handlers/order-page/handler';
import { addDays, dispatchDayOfWeekOf } from '../../../../shared/dispatch';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { advanceAWeek, invoicesOf, makeStandingOrder, orderPageOn } from '../../../support/standing-orders';

// A payment Stripe voided while the customer paused (ADR 0064): once resumed, its delivery is
// neither due nor held, and the next real one is the one to skip. The code's clock and the
// simulator's move together, so this passes on any day and hour.

let h: FulfilmentHarness;
let page: ReturnType<typeof createOrderPageHandler>;

beforeAll(async () => {
  h = await startFulfilmentHarness();
  page = await orderPageOn(h, 'sk_test_paused_void');
});
afterAll(() => h?.close());

type View = { status: string; deliveries: Array<{ day: string; state: string; paymentText?: string }> };

const view = async (token: string) =>
  jsonBody(
    await page(
      apiGatewayEvent({ method: 'GET', path: '/functions/v1/order-page', queryStringParameters: { token } }),
    ),
  ) as View;
const change = (body: Record<string, unknown>) =>
  page(
    apiGatewayEvent({
      method: 'POST',
      path: '/functions/v1/order-page/standing-order',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );

async function pageToken(email: string): Promise<string> {
  const [confirmation] = (await h.standIns.emails()).filter(
    (sent) => sent.destination.to.includes(email) && sent.subject.includes('confirmed'),
  );
  return /https:\/\/shop\.test\/order\/([A-Za-z0-9_-]+)/.exec(confirmation?.body.text ?? '')?.[1] ?? '';
}

describe('a standing order resumed after its payment was voided by the pause', () => {
  it('lists the next real delivery as due, holds nothing on the voided day, and skips the next one', async () => {
    const { subscriptionId, email } = await makeStandingOrder(h, 'Nell', 3);
    const token = await pageToken(email);
    const [paidFirst, voidedDue] = (await view(token)).deliveries;
    expect(paidFirst?.state).toBe('paid');
    expect(voidedDue?.state).toBe('due');
    const voidedDay = voidedDue?.day ?? '';

    expect((await change({ token, action: 'pause' })).statusCode).toBe(200);
    await advanceAWeek(h);
    expect(invoicesOf(h, subscriptionId).map(({ status }) => status)).toEqual(['paid', 'void']);
    expect((await change({ token, action: 'resume' })).statusCode).toBe(200);

    const resumed = await view(token);
    expect(resumed.status).toBe('active');
    const due = resumed.deliveries.filter(({ state }) => state === 'due');
    // The delivery in the week after the voided one's (a Tuesday after a bank-holiday Monday).
    expect(due[0]?.day).toBe(dispatchDayOfWeekOf(addDays(voidedDay, 7)));
    expect(resumed.deliveries.map(({ day }) => day)).not.toContain(voidedDay);
    const voided = await capacityStoreFromTable(h.deps.table).read(voidedDay);
    expect([...voided.standing].filter((hold) => hold.startsWith(subscriptionId))).toEqual([]);
    const next = await capacityStoreFromTable(h.deps.table).read(due[0]?.day ?? '');
    expect([...next.standing].filter((hold) => hold.startsWith(subscriptionId))).toEqual([
      `${subscriptionId}:3`,
    ]);

    const skip = await change({ token, action: 'skip', day: due[0]?.day });
    expect(skip.statusCode).toBe(200);
    await advanceAWeek(h);
    expect(invoicesOf(h, subscriptionId).map(({ status }) => status)).toEqual(['paid', 'void', 'void']);
  });

  it("after the shop's pause too: the next week's delivery is due and held, the voided day neither", async () => {
    const { subscriptionId, email } = await makeStandingOrder(h, 'Ada', 3);
    const token = await pageToken(email);
    const voidedDay = (await view(token)).deliveries.find(({ state }) => state === 'due')?.day ?? '';
    const capacity = capacityStoreFromTable(h.deps.table);

    await followShopPause(true, { ...h.deps, capacity });
    await advanceAWeek(h);
    expect(invoicesOf(h, subscriptionId).map(({ status }) => status)).toEqual(['paid', 'void']);
    await followShopPause(false, { ...h.deps, capacity });

    const due = (await view(token)).deliveries.filter(({ state }) => state === 'due');
    expect(due[0]?.day).toBe(dispatchDayOfWeekOf(addDays(voidedDay, 7)));
    expect((await view(token)).deliveries.map(({ day }) => day)).not.toContain(voidedDay);
    const held = async (day: string) =>
      [...(await capacity.read(day)).standing].filter((hold) => hold.startsWith(subscriptionId));
    expect(await held(voidedDay)).toEqual([]);
    expect(await held(due[0]?.day ?? '')).toEqual([`${subscriptionId}:3`]);
  });
});
