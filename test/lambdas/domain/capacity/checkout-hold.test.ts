import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdCheckoutBottles, SettingsChangedError } from '../../../../lambdas/domain/capacity/checkout-hold';
import { clientHoldKeys, TooManyOpenHoldsError } from '../../../../lambdas/domain/capacity/client-holds';
import { sellHold } from '../../../../lambdas/domain/capacity/holds';
import {
  capacityStoreFromTable,
  clientHoldItemsFromTable,
} from '../../../../lambdas/domain/storage/capacity-table';
import { checkoutStoreFromTable } from '../../../../lambdas/domain/storage/checkout-store';
import {
  readShopSettings,
  writeCapacitySettings,
  writeShopSettings,
} from '../../../../lambdas/domain/storage/settings-store';
import type { ShopSettings } from '../../../../lambdas/domain/storage/shop-settings';
import { type StandIns, startStandIns } from '../../../support/stand-ins';

// A checkout's hold in one transaction (ADR 0052), against dynalite's stand-in transactions: the
// day's bottles, the client's counts, and the settings the checkout acted on, all or nothing.

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const table = () => ({ client: standIns.inspector, tableName: standIns.tableName });
const deps = () => ({
  writes: checkoutStoreFromTable(table()),
  capacity: capacityStoreFromTable(table()),
  clientItems: clientHoldItemsFromTable(table()),
  now: NOW,
});

/** 1 December 2026, 10:00 UTC; holds expire 40 minutes on (epoch seconds in their ids). */
const NOW = new Date('2026-12-01T10:00:00.000Z');
const EXPIRES = 1796121600;
/** Dispatch days, one a week from Monday 7 December 2026. */
const DAY = '2026-12-07';
const NEXT_DAY = '2026-12-14';

let serial = 0;
function fresh() {
  serial += 1;
  return {
    client: { email: `hold${serial}@example.com`, viewer: `198.51.100.${serial}` },
    hold: (n = 0) => `ccheckout${serial}x${n}.${EXPIRES}:3`,
  };
}

async function clientEntries(pk: string): Promise<string[]> {
  const { Item } = await standIns.inspector.send(
    new GetCommand({ TableName: standIns.tableName, Key: { pk }, ConsistentRead: true }),
  );
  return Item?.holds instanceof Set ? [...Item.holds].map(String).sort() : [];
}

async function settings(): Promise<ShopSettings> {
  return readShopSettings(table(), true);
}

describe('holdCheckoutBottles', () => {
  it('holds the bottles on the first day with room and counts the hold in both client items, in one write', async () => {
    await writeCapacitySettings(table(), { weekly: 30 }, NOW);
    const { client, hold } = fresh();

    const reservation = await holdCheckoutBottles(deps(), {
      from: DAY,
      hold: hold(),
      settings: await settings(),
      client,
    });

    expect(reservation).toEqual({ date: DAY, hold: hold(), added: true });
    expect((await deps().capacity.read(DAY)).holds.has(hold())).toBe(true);
    for (const pk of clientHoldKeys(client)) expect(await clientEntries(pk)).toEqual([`${DAY}/${hold()}`]);
  });

  it('a retry of the same attempt finds its hold: not added, not counted twice', async () => {
    const { client, hold } = fresh();
    const current = await settings();
    await holdCheckoutBottles(deps(), { from: DAY, hold: hold(), settings: current, client });
    const takenBefore = (await deps().capacity.read(DAY)).taken;

    const again = await holdCheckoutBottles(deps(), { from: DAY, hold: hold(), settings: current, client });

    expect(again).toEqual({ date: DAY, hold: hold(), added: false });
    expect((await deps().capacity.read(DAY)).taken).toBe(takenBefore);
    for (const pk of clientHoldKeys(client)) expect(await clientEntries(pk)).toEqual([`${DAY}/${hold()}`]);
  });

  it('settings changed since they were read (a lower limit): SettingsChangedError, nothing held or counted', async () => {
    const { client, hold } = fresh();
    const stale = await settings();
    await writeCapacitySettings(table(), { weekly: 27 }, NOW);
    const before = await deps().capacity.read(DAY);

    const attempt = holdCheckoutBottles(deps(), { from: DAY, hold: hold(), settings: stale, client });

    await expect(attempt).rejects.toBeInstanceOf(SettingsChangedError);
    expect(await deps().capacity.read(DAY)).toEqual(before);
    for (const pk of clientHoldKeys(client)) expect(await clientEntries(pk)).toEqual([]);
  });

  it('a pause written since: SettingsChangedError; read afresh, the shop is paused', async () => {
    const { client, hold } = fresh();
    const open = await settings();
    await writeShopSettings(table(), { mode: 'paused', message: 'Back soon' }, NOW);

    await expect(
      holdCheckoutBottles(deps(), { from: DAY, hold: hold(), settings: open, client }),
    ).rejects.toBeInstanceOf(SettingsChangedError);
    expect((await settings()).mode).toBe('paused');
    await writeShopSettings(table(), { mode: 'open' }, NOW);
  });

  it('a full day moves the hold to the next, and the client counts the day it is held on', async () => {
    await writeCapacitySettings(table(), { weekly: 30, days: { [DAY]: 0 } }, NOW);
    const { client, hold } = fresh();

    const reservation = await holdCheckoutBottles(deps(), {
      from: DAY,
      hold: hold(),
      settings: await settings(),
      client,
    });

    expect(reservation.date).toBe(NEXT_DAY);
    for (const pk of clientHoldKeys(client))
      expect(await clientEntries(pk)).toEqual([`${NEXT_DAY}/${hold()}`]);
    await writeCapacitySettings(table(), { weekly: 30 }, NOW);
  });

  it('a client with 3 open holds is refused with nothing held; one of them paid, the fourth is held', async () => {
    const { client, hold } = fresh();
    const current = await settings();
    for (const n of [1, 2, 3])
      await holdCheckoutBottles(deps(), { from: DAY, hold: hold(n), settings: current, client });
    const taken = (await deps().capacity.read(DAY)).taken;

    await expect(
      holdCheckoutBottles(deps(), { from: DAY, hold: hold(4), settings: current, client }),
    ).rejects.toBeInstanceOf(TooManyOpenHoldsError);
    expect((await deps().capacity.read(DAY)).taken).toBe(taken);

    await sellHold(deps().capacity, DAY, hold(1));
    const fourth = await holdCheckoutBottles(deps(), { from: DAY, hold: hold(4), settings: current, client });
    expect(fourth.added).toBe(true);
    for (const pk of clientHoldKeys(client)) {
      expect(await clientEntries(pk)).toEqual([2, 3, 4].map((n) => `${DAY}/${hold(n)}`).sort());
    }
  });
});
