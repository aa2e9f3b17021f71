import { describe, expect, it } from 'vitest';
import { reservationOf } from '../../../../lambdas/domain/capacity/session-reservation';

describe('reservationOf: the hold a Checkout Session carries', () => {
  it('reads the dispatch day and hold id', () => {
    expect(reservationOf({ capacity_hold: 'cs_1795000000_abc:6', dispatch_date: '2026-12-01' })).toEqual({
      date: '2026-12-01',
      hold: 'cs_1795000000_abc:6',
    });
  });

  it("reads the two among the session's other metadata, and only them", () => {
    expect(
      reservationOf({ quantity: '6', capacity_hold: 'cs_1:6', dispatch_date: '2026-12-07', shop: 'x' }),
    ).toEqual({
      date: '2026-12-07',
      hold: 'cs_1:6',
    });
  });

  it('has none without metadata, a hold or a day', () => {
    expect(reservationOf(null)).toBeUndefined();
    expect(reservationOf(undefined)).toBeUndefined();
    expect(reservationOf({ dispatch_date: '2026-12-01' })).toBeUndefined();
    expect(reservationOf({ capacity_hold: 'cs_1:6' })).toBeUndefined();
  });

  it('has none when the hold or the day is malformed', () => {
    expect(reservationOf({ capacity_hold: 'cs_1:0', dispatch_date: '2026-12-01' })).toBeUndefined();
    expect(reservationOf({ capacity_hold: 'cs_1:6', dispatch_date: '1 December' })).toBeUndefined();
    expect(reservationOf({ capacity_hold: 'cs_1:6', dispatch_date: '2026-12-01T00:00' })).toBeUndefined();
    expect(reservationOf({ capacity_hold: 'cs_1:6', dispatch_date: 'x2026-12-01' })).toBeUndefined();
  });
});
