import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followingDispatchDay, reserveBottles } from '../../../../lambdas/domain/capacity/holds';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { writeCapacitySettings, writeShopSettings } from '../../../../lambdas/domain/storage/settings-store';
import {
  createShopStatusHandler,
  loadShopStatusDeps,
} from '../../../../lambdas/handlers/shop-status/handler';
import { nextDispatchDate } from '../../../../shared/dispatch';
import { PUBLIC_API_ROUTES } from '../../../../shared/public-routes';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { type StandIns, standInEnvironment, startStandIns } from '../../../support/stand-ins';

// shop-status as deployed (its settings and capacity days read by the document client), against dynalite.

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const table = () => ({ client: standIns.inspector, tableName: standIns.tableName });

/** A fresh container each time: nothing cached from the previous test. */
async function status(): Promise<unknown> {
  const handle = createShopStatusHandler(async () => loadShopStatusDeps(standInEnvironment(standIns)));
  const result = await handle(apiGatewayEvent({ method: 'GET', path: PUBLIC_API_ROUTES.shopStatus.path }));
  expect(result.statusCode).toBe(200);
  return jsonBody(result);
}

describe('shop-status: the first dispatch day with room', () => {
  // The stack's default cut-off: 36 hours.
  const first = () => nextDispatchDate(new Date(), { cutoffHours: 36 });

  it('a shop that limits no day answers as before: the mode only', async () => {
    expect(await status()).toEqual({ mode: 'open' });
  });

  it('the first day full: the next day with room', async () => {
    await writeCapacitySettings(table(), { weekly: 9, days: { [first()]: 3 } }, new Date());
    await reserveBottles(capacityStoreFromTable(table()), {
      from: first(),
      hold: 'cfull.1:3',
      capacity: undefined,
    });

    expect(await status()).toEqual({ mode: 'open', dispatchDate: followingDispatchDay(first()) });
  });

  it('a day with fewer bottles left than the smallest order counts as full', async () => {
    await writeCapacitySettings(table(), { weekly: 5 }, new Date());
    const second = followingDispatchDay(first());
    await reserveBottles(capacityStoreFromTable(table()), {
      from: second,
      hold: 'cpart.1:3',
      capacity: undefined,
    });

    // The first day holds 3 of 5 (the previous test's hold): 2 left, no room for 3.
    expect(await status()).toEqual({ mode: 'open', dispatchDate: followingDispatchDay(second) });
  });

  it('no day with room for 8 weeks: null', async () => {
    await writeCapacitySettings(table(), { weekly: 2 }, new Date());

    expect(await status()).toEqual({ mode: 'open', dispatchDate: null });
  });

  it('paused: no day at all, whatever the limits', async () => {
    await writeShopSettings(table(), { mode: 'paused', message: 'Back soon' }, new Date());

    expect(await status()).toEqual({ mode: 'paused', message: 'Back soon' });
  });

  it('requests mode: the day a request would be dated', async () => {
    await writeShopSettings(table(), { mode: 'requests' }, new Date());
    await writeCapacitySettings(table(), { days: { [first()]: 0 } }, new Date());

    expect(await status()).toEqual({ mode: 'requests', dispatchDate: followingDispatchDay(first()) });
  });
});
