import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapacityFullError,
  dispatchDaysFrom,
  reserveBottles,
} from '../../../../lambdas/domain/capacity/holds';
import {
  holdForPaymentLink,
  releaseRequestBottles,
  requestHold,
  requestHoldLapsed,
} from '../../../../lambdas/domain/capacity/request-capacity';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { type StandIns, startStandIns } from '../../../support/stand-ins';

// An order request's bottles through its life (recorded, invited to pay, link expired, declined),
// against dynalite through the document client's store. Each test has days of a year of its own.

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const makeStore = () => capacityStoreFromTable({ client: standIns.inspector, tableName: standIns.tableName });

let year = 2140;
/** Three consecutive dispatch days from the first Monday of June of a year no other test uses. */
function freshDays(): [string, string, string] {
  year += 1;
  const june = new Date(Date.UTC(year, 5, 1));
  const monday = new Date(june.getTime() + ((8 - june.getUTCDay()) % 7) * 86_400_000);
  const [a, b, c] = dispatchDaysFrom(monday.toISOString().slice(0, 10), 3);
  if (!a || !b || !c) throw new Error('no dispatch days');
  return [a, b, c];
}

const NOW = new Date('2026-11-28T10:00:00Z');

describe('requestHold', () => {
  it('names the request and the second its hold lapses', () => {
    expect(
      requestHold({ reference: 'R0123456789A', bottles: 3, holdsUntil: '2026-11-30T10:00:00.000Z' }),
    ).toBe('rR0123456789A.1796032800:3');
  });

  it('names the request alone when it was recorded before requests lapsed', () => {
    expect(requestHold({ reference: 'R0123456789A', bottles: 3 })).toBe('rR0123456789A:3');
  });

  it('drops the milliseconds of its time (whole seconds in the id)', () => {
    expect(
      requestHold({ reference: 'R0123456789A', bottles: 2, holdsUntil: '2026-11-30T10:00:00.999Z' }),
    ).toBe('rR0123456789A.1796032800:2');
  });
});

describe('requestHoldLapsed', () => {
  it('is false for a request with no time of its own', () => {
    expect(requestHoldLapsed({}, NOW)).toBe(false);
  });

  it('is false a millisecond before its time, true at it and after', () => {
    expect(requestHoldLapsed({ holdsUntil: '2026-11-28T10:00:00.001Z' }, NOW)).toBe(false);
    expect(requestHoldLapsed({ holdsUntil: '2026-11-28T10:00:00.000Z' }, NOW)).toBe(true);
    expect(requestHoldLapsed({ holdsUntil: '2026-11-28T09:59:59.999Z' }, NOW)).toBe(true);
  });
});

describe('holdForPaymentLink', () => {
  const LINK_EXPIRES = 1_796_100_000;
  const linkHoldId = (bottles: number) => `rR0123456789A.${LINK_EXPIRES}:${bottles}`;

  it("moves the request's own bottles to the link on the same day, without letting go of them", async () => {
    const store = makeStore();
    const [monday, tuesday] = freshDays();
    const request = {
      reference: 'R0123456789A',
      bottles: 3,
      dispatchDate: monday,
      holdsUntil: '2026-11-30T10:00:00.000Z',
    };
    await reserveBottles(store, { from: monday, hold: requestHold(request), capacity: { weekly: 3 } });

    const link = await holdForPaymentLink(store, request, {
      expiresAt: LINK_EXPIRES,
      earliest: monday,
      capacity: { weekly: 3 },
      now: NOW,
    });

    expect(link).toMatchObject({ date: monday, hold: linkHoldId(3) });
    const day = await store.read(monday);
    expect([...day.holds]).toEqual([linkHoldId(3)]);
    expect(day.taken).toBe(3);
    expect((await store.read(tuesday)).taken).toBe(0);

    await link.undo();
    const undone = await store.read(monday);
    expect([...undone.holds]).toEqual(['rR0123456789A.1796032800:3']);
    expect(undone.taken).toBe(3);
  });

  it('reserves afresh from the first open day when the request’s day has closed, giving its own hold back', async () => {
    const store = makeStore();
    const [monday, tuesday] = freshDays();
    const request = {
      reference: 'R0123456789A',
      bottles: 2,
      dispatchDate: monday,
      holdsUntil: '2026-11-30T10:00:00.000Z',
    };
    await reserveBottles(store, { from: monday, hold: requestHold(request), capacity: undefined });

    const link = await holdForPaymentLink(store, request, {
      expiresAt: LINK_EXPIRES,
      earliest: tuesday,
      capacity: undefined,
      now: NOW,
    });

    expect(link.date).toBe(tuesday);
    expect((await store.read(monday)).taken).toBe(0);
    expect([...(await store.read(tuesday)).holds]).toEqual([linkHoldId(2)]);

    await link.undo();
    expect((await store.read(tuesday)).taken).toBe(0);
  });

  it('a link expiring the very second the request’s hold lapses, its day closed: held on the next day only', async () => {
    const store = makeStore();
    const [monday, tuesday] = freshDays();
    const request = {
      reference: 'R0123456789A',
      bottles: 2,
      dispatchDate: monday,
      holdsUntil: new Date(LINK_EXPIRES * 1000).toISOString(),
    };
    await reserveBottles(store, { from: monday, hold: requestHold(request), capacity: undefined });

    const link = await holdForPaymentLink(store, request, {
      expiresAt: LINK_EXPIRES,
      earliest: tuesday,
      capacity: undefined,
      now: NOW,
    });

    expect(link.date).toBe(tuesday);
    expect(await store.read(monday)).toMatchObject({ taken: 0, holds: new Set() });
    expect([...(await store.read(tuesday)).holds]).toEqual([linkHoldId(2)]);
  });

  it('never moves a lapsed hold: it is given back and the link reserves afresh', async () => {
    const store = makeStore();
    const [monday] = freshDays();
    const request = {
      reference: 'R0123456789A',
      bottles: 2,
      dispatchDate: monday,
      holdsUntil: '2026-11-28T09:00:00.000Z',
    };
    await reserveBottles(store, { from: monday, hold: requestHold(request), capacity: undefined });

    const link = await holdForPaymentLink(store, request, {
      expiresAt: LINK_EXPIRES,
      earliest: monday,
      capacity: undefined,
      now: NOW,
    });

    expect(link.date).toBe(monday);
    const day = await store.read(monday);
    expect([...day.holds]).toEqual([linkHoldId(2)]);
    expect(day.taken).toBe(2);
  });

  it('a lapsed hold still on a day the merchant has since filled: the link goes to the next day with room', async () => {
    const store = makeStore();
    const [monday, tuesday] = freshDays();
    const request = {
      reference: 'R0123456789A',
      bottles: 3,
      dispatchDate: monday,
      holdsUntil: '2026-11-28T09:00:00.000Z',
    };
    await reserveBottles(store, { from: monday, hold: requestHold(request), capacity: undefined });
    await reserveBottles(store, { from: monday, hold: 'cOTHER.1796100000:3', capacity: undefined });

    // Monday's limit lowered to 4 meanwhile: 3 sold elsewhere leave no room for 3 more.
    const link = await holdForPaymentLink(store, request, {
      expiresAt: LINK_EXPIRES,
      earliest: monday,
      capacity: { days: { [monday]: 4 } },
      now: NOW,
    });

    expect(link.date).toBe(tuesday);
    expect(await store.read(monday)).toMatchObject({ taken: 3, holds: new Set(['cOTHER.1796100000:3']) });
    expect([...(await store.read(tuesday)).holds]).toEqual([linkHoldId(3)]);
  });

  it('gives back an earlier expired link’s bottles before holding the new link’s', async () => {
    const store = makeStore();
    const [monday] = freshDays();
    const request = {
      reference: 'R0123456789A',
      bottles: 4,
      dispatchDate: monday,
      checkoutExpiresAt: '2026-11-27T10:00:00.000Z',
    };
    await reserveBottles(store, {
      from: monday,
      hold: 'rR0123456789A.1795773600:4',
      capacity: { weekly: 4 },
    });

    const link = await holdForPaymentLink(store, request, {
      expiresAt: LINK_EXPIRES,
      earliest: monday,
      capacity: { weekly: 4 },
      now: NOW,
    });

    expect(link.date).toBe(monday);
    const day = await store.read(monday);
    expect([...day.holds]).toEqual([linkHoldId(4)]);
    expect(day.taken).toBe(4);
  });

  it('refuses when no day has room for a request that holds nothing', async () => {
    const store = makeStore();
    const [monday] = freshDays();
    const request = { reference: 'R0123456789A', bottles: 4, dispatchDate: monday };

    await expect(
      holdForPaymentLink(store, request, {
        expiresAt: LINK_EXPIRES,
        earliest: monday,
        capacity: { weekly: 3 },
        now: NOW,
      }),
    ).rejects.toBeInstanceOf(CapacityFullError);
  });
});

describe('releaseRequestBottles', () => {
  it('gives back the request’s own hold', async () => {
    const store = makeStore();
    const [monday] = freshDays();
    const request = {
      reference: 'R0123456789A',
      bottles: 3,
      dispatchDate: monday,
      holdsUntil: '2026-11-30T10:00:00.000Z',
    };
    await reserveBottles(store, { from: monday, hold: requestHold(request), capacity: undefined });

    await releaseRequestBottles(store, request);

    const day = await store.read(monday);
    expect(day.taken).toBe(0);
    expect(day.holds.size).toBe(0);
  });

  it('gives back its last link’s hold, and a repeat changes nothing', async () => {
    const store = makeStore();
    const [monday] = freshDays();
    const request = {
      reference: 'R0123456789A',
      bottles: 5,
      dispatchDate: monday,
      checkoutExpiresAt: '2026-11-27T10:00:00.000Z',
    };
    await reserveBottles(store, { from: monday, hold: 'rR0123456789A.1795773600:5', capacity: undefined });
    await reserveBottles(store, { from: monday, hold: 'rOTHER0000000:2', capacity: undefined });

    await releaseRequestBottles(store, request);
    await releaseRequestBottles(store, request);

    const day = await store.read(monday);
    expect(day.taken).toBe(2);
    expect([...day.holds]).toEqual(['rOTHER0000000:2']);
  });
});
