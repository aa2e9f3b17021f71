import { describe, expect, it } from 'vitest';
import { comingDeliveries } from '../../../../lambdas/domain/standing-deliveries/coming-deliveries';
import {
  pauseCollectionFor,
  voidedByPause,
} from '../../../../lambdas/domain/standing-deliveries/pause-collection';
import type { StandingOrderItem } from '../../../../lambdas/domain/storage/standing-orders';
import { standingOrderItem } from '../../../support/standing-orders';

// A weekly standing order paid first on Monday 7 December 2026 at 10:00 (UTC = London in winter)
// for Monday 14; its next payment Monday 14 December at 10:00 for Monday 21 (a 36-hour cut-off:
// Saturday 10:00 before), then Monday 21 at 10:00 for Tuesday 29 (Monday 28 is a bank holiday).

const record = (fields: Partial<StandingOrderItem> = {}): StandingOrderItem =>
  standingOrderItem({
    nextPaymentAt: '2026-12-14T10:00:00.000Z',
    createdAt: '2026-12-07T10:00:00.000Z',
    ...fields,
  });

const resumedAt = new Date('2026-12-14T11:47:00Z');
const options = { cutoffHours: 36, weeks: 8 };

describe('voidedByPause', () => {
  it('counts the payment whose moment fell while paused: Monday 14 December 10:00, delivery 1', () => {
    expect(voidedByPause(record(), '2026-12-12T09:00:00.000Z', resumedAt)).toEqual({ voidedThrough: 1 });
  });

  it('counts every payment of a pause of weeks, and none still to come', () => {
    const later = new Date('2026-12-28T09:00:00Z');
    expect(voidedByPause(record(), '2026-12-12T09:00:00.000Z', later)).toEqual({ voidedThrough: 2 });
  });

  it('counts none when no payment fell while paused, nor one due before the pause (it may still be paid)', () => {
    expect(voidedByPause(record(), '2026-12-14T11:00:00.000Z', resumedAt)).toEqual({});
    expect(voidedByPause(record(), '2026-12-10T09:00:00.000Z', new Date('2026-12-13T09:00:00Z'))).toEqual({});
  });

  it('starts after the payments a pause voided before', () => {
    const later = new Date('2026-12-21T11:00:00Z');
    expect(voidedByPause(record({ voidedThrough: 1 }), '2026-12-12T09:00:00.000Z', later)).toEqual({
      voidedThrough: 2,
    });
  });
});

describe('a standing order resumed after its Monday 14 December payment was voided', () => {
  const resumed = record({ voidedThrough: 1 });

  it('lists Tuesday 29 December first, paid Monday 21 December, and not Monday 21', () => {
    const [first] = comingDeliveries(resumed, resumedAt, options);
    expect(first).toEqual({
      index: 2,
      day: '2026-12-29',
      paymentAt: new Date('2026-12-21T10:00:00Z'),
      skipped: false,
    });
    expect(comingDeliveries(record(), resumedAt, options)[0]?.day).toBe('2026-12-21');
  });

  it('voids the skipped Tuesday 29 December payment, though the voided one was made within the hour', () => {
    const skipped = record({ voidedThrough: 1, skippedDeliveries: ['2026-12-29'] });
    expect(pauseCollectionFor(skipped, resumedAt)).toEqual({
      behavior: 'void',
      resumes_at: Date.parse('2026-12-21T11:00:00Z') / 1000,
    });
  });
});
