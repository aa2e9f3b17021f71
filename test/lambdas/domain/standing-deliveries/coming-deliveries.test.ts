import { describe, expect, it } from 'vitest';
import {
  type ComingDeliveriesRecord,
  comingDeliveries,
} from '../../../../lambdas/domain/standing-deliveries/coming-deliveries';

// A standing order's coming deliveries within the 8-week window, for fixed days: its first
// payment Monday 7 December 2026 at 09:00 (first delivery Monday 14 December), the next on
// Monday 14 December at 09:00, weekly. Monday 28 December 2026 is a bank holiday.

const weekly: ComingDeliveriesRecord = {
  status: 'active',
  repeat: 'weekly',
  firstDelivery: '2026-12-14',
  lastDeliveryIndex: 0,
  nextPaymentAt: '2026-12-14T09:00:00.000Z',
};

const options = { cutoffHours: 36, weeks: 8 };

function days(record: ComingDeliveriesRecord, now: string) {
  return comingDeliveries(record, new Date(now), options).map(({ index, day, skipped }) => ({
    index,
    day,
    skipped,
  }));
}

describe('comingDeliveries', () => {
  it('weekly, Monday 7 December: the 7 unpaid deliveries up to Monday 1 February, Tuesday 29 December for the bank holiday', () => {
    expect(days(weekly, '2026-12-07T10:00:00Z').map(({ index, day }) => [index, day])).toEqual([
      [1, '2026-12-21'],
      [2, '2026-12-29'],
      [3, '2027-01-04'],
      [4, '2027-01-11'],
      [5, '2027-01-18'],
      [6, '2027-01-25'],
      [7, '2027-02-01'],
    ]);
  });

  it("each delivery's payment: the coming one, then a week later each", () => {
    const coming = comingDeliveries(weekly, new Date('2026-12-07T10:00:00Z'), options);
    expect(coming.slice(0, 3).map(({ paymentAt }) => paymentAt.toISOString())).toEqual([
      '2026-12-14T09:00:00.000Z',
      '2026-12-21T09:00:00.000Z',
      '2026-12-28T09:00:00.000Z',
    ]);
  });

  it('a Sunday after the cut-off: the window starts Monday 21 December and ends Monday 8 February', () => {
    expect(days(weekly, '2026-12-13T15:00:00Z').map(({ day }) => day)).toEqual([
      '2026-12-21',
      '2026-12-29',
      '2027-01-04',
      '2027-01-11',
      '2027-01-18',
      '2027-01-25',
      '2027-02-01',
      '2027-02-08',
    ]);
  });

  it('a week on (the window rolled): Monday 8 February joins', () => {
    const later = { ...weekly, lastDeliveryIndex: 1, nextPaymentAt: '2026-12-21T09:00:00.000Z' };
    const coming = days(later, '2026-12-14T10:00:00Z');
    expect(coming[0]).toEqual({ index: 2, day: '2026-12-29', skipped: false });
    expect(coming.at(-1)).toEqual({ index: 8, day: '2027-02-08', skipped: false });
    expect(coming).toHaveLength(7);
  });

  it('first paid on a Sunday afternoon: the next delivery in the week after, Tuesday 29 December', () => {
    const sunday: ComingDeliveriesRecord = {
      ...weekly,
      firstDelivery: '2026-12-21',
      nextPaymentAt: '2026-12-20T15:00:00.000Z',
    };
    expect(days(sunday, '2026-12-13T15:00:00Z').slice(0, 2)).toEqual([
      { index: 1, day: '2026-12-29', skipped: false },
      { index: 2, day: '2027-01-04', skipped: false },
    ]);
  });

  it('every 2 weeks: Monday 28 December (a bank holiday) goes on Tuesday 29 December', () => {
    const fortnightly: ComingDeliveriesRecord = {
      ...weekly,
      repeat: 'fortnightly',
      nextPaymentAt: '2026-12-21T09:00:00.000Z',
    };
    expect(days(fortnightly, '2026-12-07T10:00:00Z').map(({ day }) => day)).toEqual([
      '2026-12-29',
      '2027-01-11',
      '2027-01-25',
    ]);
  });

  it('a skipped delivery is listed, marked skipped', () => {
    const skipping = { ...weekly, skippedDeliveries: ['2026-12-21'] };
    expect(days(skipping, '2026-12-07T10:00:00Z').slice(0, 2)).toEqual([
      { index: 1, day: '2026-12-21', skipped: true },
      { index: 2, day: '2026-12-29', skipped: false },
    ]);
  });

  it('a delivery whose day closed unpaid (its renewal failed) is no longer coming', () => {
    // Saturday 19 December after noon: Monday 21 December is closed, its payment never made.
    expect(days(weekly, '2026-12-19T13:00:00Z')[0]).toEqual({ index: 2, day: '2026-12-29', skipped: false });
  });

  it('none while paused by the customer or the shop, nor once cancelled', () => {
    const now = '2026-12-07T10:00:00Z';
    expect(days({ ...weekly, pausedByCustomerAt: '2026-12-07T09:30:00.000Z' }, now)).toEqual([]);
    expect(days({ ...weekly, pausedByShopAt: '2026-12-07T09:30:00.000Z' }, now)).toEqual([]);
    expect(days({ ...weekly, status: 'cancelled' }, now)).toEqual([]);
  });

  it("without the coming payment's moment: each delivery on its planned day", () => {
    const { nextPaymentAt: _, ...unknown } = weekly;
    expect(days(unknown, '2026-12-07T10:00:00Z').slice(0, 2)).toEqual([
      { index: 1, day: '2026-12-21', skipped: false },
      { index: 2, day: '2026-12-29', skipped: false },
    ]);
  });

  it("without the coming payment's moment: each is paid by the latest moment, its planned day's cut-off (Sunday noon before a bank-holiday Tuesday)", () => {
    const { nextPaymentAt: _, ...unknown } = weekly;
    const moments = (record: ComingDeliveriesRecord) =>
      comingDeliveries(record, new Date('2026-12-07T10:00:00Z'), options)
        .slice(0, 3)
        .map(({ day, paymentAt }) => [day, paymentAt.toISOString()]);
    expect(moments(unknown)).toEqual([
      ['2026-12-21', '2026-12-19T11:59:59.999Z'],
      ['2026-12-29', '2026-12-27T11:59:59.999Z'],
      ['2027-01-04', '2027-01-02T11:59:59.999Z'],
    ]);
    expect(moments({ ...unknown, repeat: 'fortnightly' })).toEqual([
      ['2026-12-29', '2026-12-27T11:59:59.999Z'],
      ['2027-01-11', '2027-01-09T11:59:59.999Z'],
      ['2027-01-25', '2027-01-23T11:59:59.999Z'],
    ]);
  });

  it('every 2 weeks: each payment two weeks after the one before', () => {
    const fortnightly: ComingDeliveriesRecord = { ...weekly, repeat: 'fortnightly' };
    const coming = comingDeliveries(fortnightly, new Date('2026-12-07T10:00:00Z'), options);
    expect(coming.map(({ paymentAt }) => paymentAt.toISOString())).toEqual([
      '2026-12-14T09:00:00.000Z',
      '2026-12-28T09:00:00.000Z',
      '2027-01-11T09:00:00.000Z',
    ]);
  });

  it("follows the shop's own cut-off: 24 hours, so at 12:30 on Saturday 19 December Monday 21 is still packed, and paid at 13:00 it goes then", () => {
    const late = { ...weekly, nextPaymentAt: '2026-12-19T13:00:00.000Z' };
    const coming = comingDeliveries(late, new Date('2026-12-19T12:30:00Z'), { cutoffHours: 24, weeks: 8 });
    expect(coming[0]).toMatchObject({ index: 1, day: '2026-12-21', skipped: false });
    // With the 36-hour cut-off the same payment is after Saturday noon: it goes on Tuesday 29.
    expect(comingDeliveries(late, new Date('2026-12-19T12:30:00Z'), options)[0]).toMatchObject({
      index: 1,
      day: '2026-12-29',
    });
  });
});
