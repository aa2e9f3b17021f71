import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapacityFullError,
  checkoutReservationId,
  dispatchDaysFrom,
  firstDayWithRoom,
  followingDispatchDay,
  giveBackPartOfSale,
  giveBackSale,
  holdBottles,
  holdExpiresAt,
  holdId,
  isSoldOut,
  moveSale,
  paymentLinkReservationId,
  releaseHold,
  releaseOrGiveBack,
  reserveBottles,
  sellFromDay,
  sellHold,
  transferHold,
} from '../../../../lambdas/domain/capacity/holds';
import type { CapacityStore } from '../../../../lambdas/domain/storage/capacity-store';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { type StandIns, startStandIns } from '../../../support/stand-ins';

// Every transition of a day's bottles against dynalite, through the document client's store. Each
// test has its own days (a year of its own), so the tests share one table without sharing counters.

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const makeStore = () => capacityStoreFromTable({ client: standIns.inspector, tableName: standIns.tableName });

let year = 2040;
/** Three consecutive Mondays of a year no other test uses (no bank holiday falls on them). */
function freshMondays(): [string, string, string] {
  year += 1;
  // The first Monday of June: never a bank holiday in England and Wales.
  const june = new Date(Date.UTC(year, 5, 1));
  const monday = new Date(june.getTime() + ((8 - june.getUTCDay()) % 7) * 86_400_000);
  const first = monday.toISOString().slice(0, 10);
  const [a, b, c] = dispatchDaysFrom(first, 3);
  if (!a || !b || !c) throw new Error('no dispatch days');
  return [a, b, c];
}

describe('hold ids', () => {
  it('name their bottles and, for a checkout, when its session expires', () => {
    const hold = holdId(checkoutReservationId('0123456789abcdef0123', 1_795_000_000), 6);

    expect(hold).toBe('c0123456789abcdef0123.1795000000:6');
    expect(holdBottles(hold)).toBe(6);
    expect(holdExpiresAt(hold)).toBe(1_795_000_000);
    expect(holdExpiresAt('rR0123456789A:3')).toBeUndefined();
    expect(holdExpiresAt(holdId(paymentLinkReservationId('R0123456789A', 1_795_000_000), 3))).toBe(
      1_795_000_000,
    );
  });

  it('refuses to make a hold id of a reservation id it could not read back', () => {
    expect(() => holdId('a b', 3)).toThrow('"a b:3" is not a hold id');
  });

  it('read an expiry only from a whole checkout or request hold id, whatever its bottles', () => {
    expect(holdExpiresAt('ca.1795000000:12')).toBe(1_795_000_000);
    expect(holdExpiresAt('xca.1795000000:3')).toBeUndefined();
    expect(holdExpiresAt('ca.1795000000:3x')).toBeUndefined();
  });

  it.each(['', 'x', 'x:0', 'x:-3', 'x:3:3', 'a b:3', ':3'])('"%s" is not a hold id', (text) => {
    expect(() => holdBottles(text)).toThrow('is not a hold id');
  });

  it('the following dispatch day skips a bank holiday Monday to the Tuesday', () => {
    // Easter Monday 2027 is 29 March.
    expect(followingDispatchDay('2027-03-22')).toBe('2027-03-30');
    expect(followingDispatchDay('2027-03-30')).toBe('2027-04-05');
  });
});

describe('day transitions', () => {
  it('reserves on the first day with room for the whole order, then the next', async () => {
    const store = makeStore();
    const [monday, next] = freshMondays();
    const capacity = { days: { [monday]: 5 } };

    const first = await reserveBottles(store, { from: monday, hold: 'ca.1:3', capacity });
    const second = await reserveBottles(store, { from: monday, hold: 'cb.1:3', capacity });

    expect(first).toEqual({ date: monday, hold: 'ca.1:3', added: true });
    expect(second).toEqual({ date: next, hold: 'cb.1:3', added: true });
    expect(await store.read(monday)).toEqual({
      date: monday,
      taken: 3,
      sold: 0,
      holds: new Set(['ca.1:3']),
      sales: new Set(),
      standing: new Set(),
    });
    // Unlimited days are counted too.
    expect((await store.read(next)).taken).toBe(3);
  });

  it('a retry of the same attempt finds its own hold and adds nothing', async () => {
    const store = makeStore();
    const [monday] = freshMondays();
    const capacity = { weekly: 6 };
    await reserveBottles(store, { from: monday, hold: 'ca.1:6', capacity });

    const again = await reserveBottles(store, { from: monday, hold: 'ca.1:6', capacity });

    expect(again).toEqual({ date: monday, hold: 'ca.1:6', added: false });
    expect((await store.read(monday)).taken).toBe(6);
  });

  it('a retry whose day filled up meanwhile still finds its hold, on the later day it got', async () => {
    const store = makeStore();
    const [monday, next] = freshMondays();
    const capacity = { days: { [monday]: 3 } };
    await reserveBottles(store, { from: monday, hold: 'cfirst.1:3', capacity });
    expect((await reserveBottles(store, { from: monday, hold: 'cmine.1:3', capacity })).date).toBe(next);

    expect(await reserveBottles(store, { from: monday, hold: 'cmine.1:3', capacity })).toEqual({
      date: next,
      hold: 'cmine.1:3',
      added: false,
    });
  });

  it('skips a day whose limit is below the order, and a day set to no limit ignores the default', async () => {
    const store = makeStore();
    const [monday, next, third] = freshMondays();
    const capacity = { weekly: 0, days: { [monday]: 6, [third]: null } };

    expect((await reserveBottles(store, { from: monday, hold: 'cnine.1:9', capacity })).date).toBe(third);
    expect((await store.read(monday)).taken).toBe(0);
    expect((await store.read(next)).taken).toBe(0);
  });

  it('no day with room within 8 weeks: CapacityFullError, nothing written', async () => {
    const store = makeStore();
    const [monday] = freshMondays();

    const error = await reserveBottles(store, {
      from: monday,
      hold: 'cx.1:3',
      capacity: { weekly: 2 },
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(CapacityFullError);
    expect(await store.read(monday)).toMatchObject({ taken: 0, holds: new Set() });
  });

  it('a day lowered below what it holds takes nothing more', async () => {
    const store = makeStore();
    const [monday, next] = freshMondays();
    await reserveBottles(store, { from: monday, hold: 'ca.1:9', capacity: undefined });

    const later = await reserveBottles(store, {
      from: monday,
      hold: 'cb.1:3',
      capacity: { days: { [monday]: 6 } },
    });

    expect(later.date).toBe(next);
  });

  it('release gives the bottles back once; a released hold is neither released nor sold again', async () => {
    const store = makeStore();
    const [monday] = freshMondays();
    await reserveBottles(store, { from: monday, hold: 'ca.1:3', capacity: undefined });

    expect(await releaseHold(store, monday, 'ca.1:3')).toBe(true);
    expect(await releaseHold(store, monday, 'ca.1:3')).toBe(false);
    expect(await store.read(monday)).toMatchObject({ taken: 0, sold: 0, holds: new Set() });
  });

  it('a sale moves a hold to sold once; a sold hold is never released', async () => {
    const store = makeStore();
    const [monday] = freshMondays();
    await reserveBottles(store, { from: monday, hold: 'ca.1:6', capacity: undefined });

    const sold = await sellHold(store, monday, 'ca.1:6');
    const replay = await sellHold(store, monday, 'ca.1:6');

    expect(sold).toMatchObject({ taken: 6, sold: 6, holds: new Set(), sales: new Set(['ca.1:6']) });
    expect(replay).toBeUndefined();
    expect(await releaseHold(store, monday, 'ca.1:6')).toBe(false);
    expect(await store.read(monday)).toMatchObject({ taken: 6, sold: 6 });
  });

  it('a paid session whose hold is gone is sold all the same, over the limit, once', async () => {
    const store = makeStore();
    const [monday] = freshMondays();
    await reserveBottles(store, { from: monday, hold: 'ca.1:3', capacity: { weekly: 3 } });

    expect(await sellHold(store, monday, 'cgone.1:3')).toMatchObject({ taken: 6, sold: 3 });
    expect(await sellHold(store, monday, 'cgone.1:3')).toBeUndefined();
    expect((await store.read(monday)).taken).toBe(6);
  });

  it('give back returns a sale once, and only a sale', async () => {
    const store = makeStore();
    const [monday] = freshMondays();
    await reserveBottles(store, { from: monday, hold: 'ca.1:3', capacity: undefined });
    expect(await giveBackSale(store, monday, 'ca.1:3')).toBe(false);
    await sellHold(store, monday, 'ca.1:3');

    expect(await giveBackSale(store, monday, 'ca.1:3')).toBe(true);
    expect(await giveBackSale(store, monday, 'ca.1:3')).toBe(false);
    expect(await store.read(monday)).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
  });

  it('a failed debit returns a hold or a sale, once', async () => {
    const store = makeStore();
    const [monday] = freshMondays();
    await reserveBottles(store, { from: monday, hold: 'cheld.1:3', capacity: undefined });
    await reserveBottles(store, { from: monday, hold: 'csold.1:6', capacity: undefined });
    await sellHold(store, monday, 'csold.1:6');

    expect(await releaseOrGiveBack(store, monday, 'cheld.1:3')).toBe(true);
    expect(await releaseOrGiveBack(store, monday, 'csold.1:6')).toBe(true);
    expect(await releaseOrGiveBack(store, monday, 'csold.1:6')).toBe(false);
    expect(await store.read(monday)).toMatchObject({ taken: 0, sold: 0 });
  });

  it('transferHold moves a hold to a new id without letting go of its bottles; a repeat finishes a stopped move', async () => {
    const store = makeStore();
    const [monday] = freshMondays();
    await reserveBottles(store, { from: monday, hold: 'rR1:6', capacity: { weekly: 6 } });

    expect(await transferHold(store, monday, 'rR1:6', 'rR1.1:6')).toBe(true);
    expect(await store.read(monday)).toMatchObject({ taken: 6, holds: new Set(['rR1.1:6']) });
    // Stopped between its two steps: both ids held, the bottles counted once; a repeat finishes.
    await store.change(monday, {
      update: 'ADD #holds :s',
      condition: 'contains(#holds, :h)',
      values: { ':s': new Set(['rR1:6']), ':h': 'rR1.1:6' },
    });
    expect(await transferHold(store, monday, 'rR1:6', 'rR1.1:6')).toBe(true);
    expect(await store.read(monday)).toMatchObject({ taken: 6, holds: new Set(['rR1.1:6']) });
    expect(await transferHold(store, monday, 'rR2:6', 'rR2.1:6')).toBe(false);
    await expect(transferHold(store, monday, 'rR1.1:6', 'rR1.2:3')).rejects.toThrow('hold different bottles');
  });

  it('moveSale sells on the new day past its limit, then gives back on the old; a repeat finishes a stopped move and counts nothing twice', async () => {
    const store = makeStore();
    const [monday, next] = freshMondays();
    const capacity = { weekly: 60, days: { [next]: 10 } };
    for (const hold of ['ca.1:6', 'cb.1:6', 'cc.1:3']) {
      await reserveBottles(store, { from: monday, hold, capacity });
      await sellHold(store, monday, hold);
    }

    expect(await moveSale(store, 'ca.1:6', { from: monday, to: next })).toMatchObject({ taken: 6, sold: 6 });
    // Stopped between the two steps: counted on both days, never on neither.
    await sellHold(store, next, 'cb.1:6');
    expect(await store.read(monday)).toMatchObject({ taken: 9, sold: 9 });
    expect(await store.read(next)).toMatchObject({ taken: 12, sold: 12 });
    expect(await moveSale(store, 'cb.1:6', { from: monday, to: next })).toBeUndefined();
    await moveSale(store, 'cc.1:3', { from: monday, to: next });
    await moveSale(store, 'cc.1:3', { from: monday, to: next });

    expect(await store.read(monday)).toMatchObject({ taken: 0, sold: 0, sales: new Set() });
    expect(await store.read(next)).toMatchObject({
      taken: 15,
      sold: 15,
      sales: new Set(['ca.1:6', 'cb.1:6', 'cc.1:3']),
    });
    await expect(moveSale(store, 'ca.1:6', { from: next, to: next })).rejects.toThrow('to itself');
  });

  it('sellFromDay sells a late order on the first day with room, once; over the limit of the first day when none has room', async () => {
    const store = makeStore();
    const [monday, next, third] = freshMondays();
    const capacity = { weekly: 3, days: { [monday]: 0 } };
    await reserveBottles(store, { from: next, hold: 'cother.1:3', capacity });

    expect(await sellFromDay(store, { from: monday, hold: 'clate.1:3', capacity })).toMatchObject({
      date: third,
      after: { taken: 3, sold: 3 },
    });
    expect(await sellFromDay(store, { from: monday, hold: 'clate.1:3', capacity })).toEqual({
      date: third,
      after: undefined,
    });
    const full = await sellFromDay(store, { from: monday, hold: 'cnone.1:6', capacity });
    expect(full).toMatchObject({ date: monday, after: { taken: 6, sold: 6 } });
    expect((await sellFromDay(store, { from: monday, hold: 'cnone.1:6', capacity })).after).toBeUndefined();
    expect((await store.read(monday)).sold).toBe(6);
  });

  it('sellFromDay meeting its own hold on a full day sells that hold there, not on a later day', async () => {
    const store = makeStore();
    const [monday] = freshMondays();
    const capacity = { weekly: 3 };
    await reserveBottles(store, { from: monday, hold: 'cown.1:3', capacity });

    expect(await sellFromDay(store, { from: monday, hold: 'cown.1:3', capacity })).toEqual({
      date: monday,
      after: {
        date: monday,
        taken: 3,
        sold: 3,
        holds: new Set(),
        sales: new Set(['cown.1:3']),
        standing: new Set(),
      },
    });
  });

  it('sellHold gives up after 3 rounds when the hold keeps coming and going between its two updates', async () => {
    const real = makeStore();
    const [monday] = freshMondays();
    await reserveBottles(real, { from: monday, hold: 'crace.1:3', capacity: undefined });
    const updates: string[] = [];
    // A retried reservation of the same attempt and its release, each landing just before sellHold's next update.
    const raced: CapacityStore = {
      async change(date, change) {
        if (change.condition === 'contains(#holds, :hold)') await releaseHold(real, monday, 'crace.1:3');
        else await reserveBottles(real, { from: monday, hold: 'crace.1:3', capacity: undefined });
        updates.push(change.update);
        return real.change(date, change);
      },
      apply: real.apply,
      read: real.read,
    };

    await expect(sellHold(raced, monday, 'crace.1:3')).rejects.toThrow(
      `Could not sell hold crace.1:3 on ${monday}`,
    );
    expect(updates).toHaveLength(6);
    expect(await real.read(monday)).toMatchObject({ taken: 3, sold: 0, sales: new Set() });
  });

  it('giveBackPartOfSale: part of a sale goes back once (the rest stays sold under a new id); all of it drops the sale', async () => {
    const store = makeStore();
    const [monday] = freshMondays();
    for (const hold of ['cpart.1:9', 'cwhole.1:3']) {
      await reserveBottles(store, { from: monday, hold, capacity: undefined });
      await sellHold(store, monday, hold);
    }

    expect(await giveBackPartOfSale(store, monday, 'cpart.1:9', 3)).toEqual({
      next: 'cpart.1:6',
      given: true,
    });
    expect(await store.read(monday)).toMatchObject({
      taken: 9,
      sold: 9,
      sales: new Set(['cpart.1:6', 'cwhole.1:3']),
    });
    // A repeat gives nothing back twice.
    expect(await giveBackPartOfSale(store, monday, 'cpart.1:9', 3)).toEqual({
      next: 'cpart.1:6',
      given: false,
    });
    expect(await store.read(monday)).toMatchObject({ taken: 9, sold: 9 });
    // Every bottle of the sale: it goes, and nothing is left sold under it.
    expect(await giveBackPartOfSale(store, monday, 'cwhole.1:3', 3)).toEqual({
      next: undefined,
      given: true,
    });
    expect(await store.read(monday)).toMatchObject({ taken: 6, sold: 6, sales: new Set(['cpart.1:6']) });
  });

  it('firstDayWithRoom: the first day the smallest order fits, and what is left there', async () => {
    const store = makeStore();
    const [monday, next] = freshMondays();
    const capacity = { weekly: 10, days: { [monday]: 5 } };
    await reserveBottles(store, { from: monday, hold: 'ca.1:3', capacity });
    await reserveBottles(store, { from: next, hold: 'cb.1:3', capacity });

    expect(await firstDayWithRoom(store, capacity, monday)).toEqual({ date: next, left: 7 });
    expect(await firstDayWithRoom(store, undefined, monday)).toEqual({ date: monday, left: undefined });
    expect(await firstDayWithRoom(store, { weekly: 2 }, monday)).toBeUndefined();
  });

  it('firstDayWithRoom: exactly 3 bottles left is room (the smallest order), 2 is not; a limit of 3 is a day', async () => {
    const store = makeStore();
    const [monday, next, third] = freshMondays();
    await reserveBottles(store, { from: monday, hold: 'cc.1:9', capacity: { weekly: 12 } });
    await reserveBottles(store, { from: next, hold: 'cd.1:9', capacity: { weekly: 11 } });

    expect(await firstDayWithRoom(store, { weekly: 12 }, monday)).toEqual({ date: monday, left: 3 });
    expect(await firstDayWithRoom(store, { weekly: 12, days: { [monday]: 11 } }, monday)).toEqual({
      date: next,
      left: 3,
    });
    expect(await firstDayWithRoom(store, { weekly: 3, days: { [monday]: 2, [next]: 2 } }, monday)).toEqual({
      date: third,
      left: 3,
    });
  });
});

describe('isSoldOut: sales that leave no room for the smallest order (3 bottles)', () => {
  it('is sold out with 2 left, not with 3; never without a limit', () => {
    expect(isSoldOut({ sold: 10 }, 12)).toBe(true);
    expect(isSoldOut({ sold: 9 }, 12)).toBe(false);
    expect(isSoldOut({ sold: 12 }, 12)).toBe(true);
    expect(isSoldOut({ sold: 500 }, undefined)).toBe(false);
  });
});

describe('concurrent reservations', () => {
  it('30 reservations of 3 bottles at a day of 12: exactly 4 there, the rest on later days they fit', async () => {
    const store = makeStore();
    const [monday, next, third] = freshMondays();
    const fourth = followingDispatchDay(third);
    const capacity = { weekly: 30, days: { [monday]: 12 } };

    const reservations = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        reserveBottles(store, { from: monday, hold: `c${i}.1:3`, capacity }),
      ),
    );

    const on = (day: string) => reservations.filter((r) => r.date === day).length;
    expect(on(monday)).toBe(4);
    expect(on(next)).toBe(10);
    expect(on(third)).toBe(10);
    expect(on(fourth)).toBe(6);
    expect((await store.read(monday)).taken).toBe(12);
    expect((await store.read(next)).taken).toBe(30);
    expect((await store.read(fourth)).taken).toBe(18);
  });
});
