import { describe, expect, it } from 'vitest';
import {
  assertStandingRoom,
  StandingOrderDayFullError,
} from '../../../../lambdas/domain/standing-deliveries/standing-room';
import type { CapacityDay } from '../../../../lambdas/domain/storage/capacity-store';

// A new standing order's room, for fixed days: started Monday 7 December 2026 at 10:00, its
// first delivery Monday 14 December, then (weekly) Monday 21 and Tuesday 29 December (Monday 28
// is a bank holiday), 4, 11, 18 and 25 January and 1 February within the 8 weeks.

const now = new Date('2026-12-07T10:00:00Z');

/** Days with `taken` bottles; every other day empty. Records the days read. */
function storeOf(taken: Record<string, number>) {
  const read: string[] = [];
  return {
    read,
    store: {
      read: async (date: string): Promise<CapacityDay> => {
        read.push(date);
        return {
          date,
          taken: taken[date] ?? 0,
          sold: 0,
          holds: new Set(),
          standing: new Set(),
          sales: new Set(),
        };
      },
    },
  };
}

const order = { first: '2026-12-14', repeat: 'weekly' as const, bottles: 3 };

describe('assertStandingRoom', () => {
  it('Tuesday 29 December with 10 of 12 taken has no room for 3: refused, naming it', async () => {
    const { store } = storeOf({ '2026-12-29': 10 });
    const deps = { store, capacity: { weekly: 12 }, cutoffHours: 36 };

    const refusal = await assertStandingRoom(deps, order, now).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(StandingOrderDayFullError);
    expect((refusal as StandingOrderDayFullError).day).toBe('2026-12-29');
    expect((refusal as StandingOrderDayFullError).customerMessage).toBe(
      'Sorry, Tuesday 29 December is fully booked, and this standing order would deliver 3 bottles then. Please choose fewer bottles, or order "Once".',
    );
  });

  it('9 of 12 taken leaves room for 3: accepted, each of the 7 coming days read once, the first not at all', async () => {
    const { store, read } = storeOf({ '2026-12-29': 9 });

    await assertStandingRoom({ store, capacity: { weekly: 12 }, cutoffHours: 36 }, order, now);

    expect(read.sort()).toEqual([
      '2026-12-21',
      '2026-12-29',
      '2027-01-04',
      '2027-01-11',
      '2027-01-18',
      '2027-01-25',
      '2027-02-01',
    ]);
  });

  it('a day of the following year is named with its year: Monday 4 January 2027', async () => {
    const { store } = storeOf({ '2027-01-04': 12 });
    const refusal = await assertStandingRoom(
      { store, capacity: { weekly: 12 }, cutoffHours: 36 },
      order,
      now,
    ).catch((error: unknown) => error);
    expect((refusal as StandingOrderDayFullError).customerMessage).toContain(
      'Sorry, Monday 4 January 2027 is fully booked',
    );
  });

  it('no limit: nothing read, accepted', async () => {
    const { store, read } = storeOf({});
    await assertStandingRoom({ store, capacity: undefined, cutoffHours: 36 }, order, now);
    expect(read).toEqual([]);
  });

  it('every 2 weeks: only its own days count (Monday 21 December full changes nothing)', async () => {
    const { store } = storeOf({ '2026-12-21': 12 });
    await assertStandingRoom(
      { store, capacity: { weekly: 12 }, cutoffHours: 36 },
      { ...order, repeat: 'fortnightly' },
      now,
    );
  });
});
