import { describe, expect, it } from 'vitest';
import { quoteOrder } from '../../shared/pricing';
import {
  describeRepeatDeliveries,
  describeRepeatPayments,
  formatRepeatCost,
  planRepeatDeliveries,
  standingDeliveryIndex,
} from '../../shared/standing-order';

// Fixed days of December 2026: Monday 28 December is the Boxing Day bank holiday (substitute),
// so that week dispatches on Tuesday 29 December. The cut-off is the default 36 hours: Saturday noon.
const MONDAY_MORNING = new Date('2026-12-07T10:00:00Z');
const SUNDAY_AFTER_CUTOFF = new Date('2026-12-13T15:00:00Z');
const options = { cutoffHours: 36 };

describe('standing order texts: the cost of each delivery', () => {
  it('is the one-off price, bottles at £3.25 and £4.95 delivery, every time', () => {
    expect(formatRepeatCost(quoteOrder(3))).toBe('£14.70 a delivery (3 bottles at £3.25 and £4.95 delivery)');
    expect(formatRepeatCost(quoteOrder(6))).toBe('£24.45 a delivery (6 bottles at £3.25 and £4.95 delivery)');
    expect(formatRepeatCost(quoteOrder(9))).toBe('£34.20 a delivery (9 bottles at £3.25 and £4.95 delivery)');
  });
});

describe('standing order texts: when each payment is taken', () => {
  it('weekly from a Monday: today, then every Monday', () => {
    expect(describeRepeatPayments('weekly', quoteOrder(3), MONDAY_MORNING)).toBe(
      "£14.70 every week by card: paid today at checkout, then every Monday, each time before that delivery's packing cut-off.",
    );
  });

  it('every 2 weeks from a Sunday after the cut-off: today, then every other Sunday', () => {
    expect(describeRepeatPayments('fortnightly', quoteOrder(6), SUNDAY_AFTER_CUTOFF)).toBe(
      "£24.45 every 2 weeks by card: paid today at checkout, then every other Sunday, each time before that delivery's packing cut-off.",
    );
  });

  it("names London's weekday, not UTC's, late in the evening in summer time", () => {
    // 23:30 UTC on Sunday 7 June 2026 is 00:30 on Monday 8 June in London.
    expect(describeRepeatPayments('weekly', quoteOrder(3), new Date('2026-06-07T23:30:00Z'))).toBe(
      "£14.70 every week by card: paid today at checkout, then every Monday, each time before that delivery's packing cut-off.",
    );
  });
});

describe('standing order texts: the coming deliveries', () => {
  it('weekly from a Monday morning: next Monday first, the bank holiday week on its Tuesday', () => {
    expect(describeRepeatDeliveries('weekly', MONDAY_MORNING, options)).toEqual([
      'Paid today, dispatched Monday 14 December',
      'Paid Monday 14 December, dispatched Monday 21 December',
      'Paid Monday 21 December, dispatched Tuesday 29 December',
    ]);
  });

  it('every 2 weeks from a Monday morning, with the next year named', () => {
    expect(describeRepeatDeliveries('fortnightly', MONDAY_MORNING, options)).toEqual([
      'Paid today, dispatched Monday 14 December',
      'Paid Monday 21 December, dispatched Tuesday 29 December',
      'Paid Monday 4 January 2027, dispatched Monday 11 January 2027',
    ]);
  });

  it('weekly from a Sunday after the cut-off: the first delivery is the Monday after next', () => {
    expect(describeRepeatDeliveries('weekly', SUNDAY_AFTER_CUTOFF, options)).toEqual([
      'Paid today, dispatched Monday 21 December',
      'Paid Sunday 20 December, dispatched Tuesday 29 December',
      'Paid Sunday 27 December, dispatched Monday 4 January 2027',
    ]);
  });

  it('every 2 weeks from a Sunday after the cut-off', () => {
    expect(describeRepeatDeliveries('fortnightly', SUNDAY_AFTER_CUTOFF, options)).toEqual([
      'Paid today, dispatched Monday 21 December',
      'Paid Sunday 27 December, dispatched Monday 4 January 2027',
      'Paid Sunday 10 January 2027, dispatched Monday 18 January 2027',
    ]);
  });

  it('a payment at the cut-off itself goes to the next dispatch day, and each later delivery has a week of its own', () => {
    // Saturday 12 December 12:00 (GMT): the cut-off for Monday 14 December has just passed. The
    // payments of 19 and 26 December both fall before Tuesday 29 December's cut-off, yet each pays
    // for its own week: the 29th (Monday 28th is a bank holiday), then Monday 4 January.
    expect(planRepeatDeliveries('weekly', new Date('2026-12-12T12:00:00Z'), options)).toEqual([
      { paidOn: '2026-12-12', dispatchOn: '2026-12-21' },
      { paidOn: '2026-12-19', dispatchOn: '2026-12-29' },
      { paidOn: '2026-12-26', dispatchOn: '2027-01-04' },
    ]);
  });

  it("follows the shop's own cut-off", () => {
    // 48 hours: Saturday 00:00, so a payment on Friday evening still makes the Monday.
    expect(planRepeatDeliveries('weekly', new Date('2026-12-11T20:00:00Z'), { cutoffHours: 48 }, 2)).toEqual([
      { paidOn: '2026-12-11', dispatchOn: '2026-12-14' },
      { paidOn: '2026-12-18', dispatchOn: '2026-12-21' },
    ]);
  });
});

describe('which delivery a payment is for', () => {
  const WEEK = 7 * 86_400;
  it('counts whole periods from the subscription start to the invoice, however late it is paid', () => {
    expect(standingDeliveryIndex(1_000, 1_000, 'weekly')).toBe(0);
    expect(standingDeliveryIndex(1_000, 1_000 + WEEK, 'weekly')).toBe(1);
    // Stripe may make an invoice up to an hour after its boundary.
    expect(standingDeliveryIndex(1_000, 1_000 + 3 * WEEK + 3_600, 'weekly')).toBe(3);
    expect(standingDeliveryIndex(1_000, 1_000 + 2 * WEEK, 'fortnightly')).toBe(1);
    expect(standingDeliveryIndex(1_000, 1_000 + 6 * WEEK, 'fortnightly')).toBe(3);
    expect(standingDeliveryIndex(1_000, 500, 'weekly')).toBe(0);
  });
});
