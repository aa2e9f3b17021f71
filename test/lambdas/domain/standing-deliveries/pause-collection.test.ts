import { describe, expect, it } from 'vitest';
import {
  pauseCollectionFor,
  standingPaymentAt,
} from '../../../../lambdas/domain/standing-deliveries/pause-collection';
import { standingOrderItem } from '../../../support/standing-orders';

// A weekly standing order paid first on Wednesday 9 December 2026 at 10:00 (UTC = London in
// winter) for Monday 14 December; its next payment Wednesday 16 December at 10:00 for Monday 21.

const record = standingOrderItem;

const at = (iso: string) => new Date(iso);
const seconds = (iso: string) => Date.parse(iso) / 1000;

describe('standingPaymentAt', () => {
  it('dates unpaid deliveries a week apart from the coming payment, and no paid one', () => {
    expect(standingPaymentAt(record(), 1)).toEqual(at('2026-12-16T10:00:00Z'));
    expect(standingPaymentAt(record(), 3)).toEqual(at('2026-12-30T10:00:00Z'));
    expect(standingPaymentAt(record({ repeat: 'fortnightly' }), 2)).toEqual(at('2026-12-30T10:00:00Z'));
    expect(standingPaymentAt(record(), 0)).toBeUndefined();
  });
});

describe('standingPaymentAt, from a later paid delivery', () => {
  it('counts the periods after the last paid delivery, not from the first', () => {
    const third = record({ lastDeliveryIndex: 2, nextPaymentAt: '2026-12-30T10:00:00.000Z' });
    expect(standingPaymentAt(third, 3)).toEqual(at('2026-12-30T10:00:00Z'));
    expect(standingPaymentAt(third, 4)).toEqual(at('2027-01-06T10:00:00Z'));
    expect(standingPaymentAt(third, 2)).toBeUndefined();
  });

  it('is unknown while Stripe has not said when the coming payment is', () => {
    expect(standingPaymentAt(record({ nextPaymentAt: undefined }), 1)).toBeUndefined();
  });
});

describe('pauseCollectionFor', () => {
  it('clears pause_collection for an active standing order with nothing skipped', () => {
    expect(pauseCollectionFor(record(), at('2026-12-10T12:00:00Z'))).toBe('');
  });

  it('voids without an end while the customer or the shop paused it', () => {
    const now = at('2026-12-10T12:00:00Z');
    expect(pauseCollectionFor(record({ pausedByCustomerAt: '2026-12-10T11:00:00.000Z' }), now)).toEqual({
      behavior: 'void',
    });
    expect(pauseCollectionFor(record({ pausedByShopAt: '2026-12-10T11:00:00.000Z' }), now)).toEqual({
      behavior: 'void',
    });
  });

  it('voids the skipped coming payment and resumes an hour after it', () => {
    const skipped = record({ skippedDeliveries: ['2026-12-21'] });
    expect(pauseCollectionFor(skipped, at('2026-12-10T12:00:00Z'))).toEqual({
      behavior: 'void',
      resumes_at: seconds('2026-12-16T11:00:00Z'),
    });
    // Still voiding within the hour Stripe takes to settle the invoice, then cleared.
    expect(pauseCollectionFor(skipped, at('2026-12-16T10:30:00Z'))).toMatchObject({ behavior: 'void' });
    expect(pauseCollectionFor(skipped, at('2026-12-16T11:00:00Z'))).toBe('');
  });

  it('resumes after the last of several skipped payments in a row', () => {
    const skipped = record({ skippedDeliveries: ['2026-12-21', '2026-12-29'] });
    expect(pauseCollectionFor(skipped, at('2026-12-10T12:00:00Z'))).toEqual({
      behavior: 'void',
      resumes_at: seconds('2026-12-23T11:00:00Z'),
    });
  });

  it('finds a skipped delivery moved to the Tuesday after a bank-holiday Monday', () => {
    // Delivery 2's Monday, 28 December 2026, is a bank holiday: it goes on Tuesday 29.
    const later = record({ skippedDeliveries: ['2026-12-29'] });
    expect(pauseCollectionFor(later, at('2026-12-17T12:00:00Z'))).toEqual({
      behavior: 'void',
      resumes_at: seconds('2026-12-23T11:00:00Z'),
    });
  });

  it('leaves a skip of a later delivery until its payment is the coming one (the next is charged as usual)', () => {
    const later = record({ skippedDeliveries: ['2027-01-04'] });
    expect(pauseCollectionFor(later, at('2026-12-10T12:00:00Z'))).toBe('');
    expect(pauseCollectionFor(later, at('2026-12-23T12:00:00Z'))).toEqual({
      behavior: 'void',
      resumes_at: seconds('2026-12-30T11:00:00Z'),
    });
  });

  it('ignores a skipped paid delivery (refunded, nothing to void) and a cancelled standing order', () => {
    expect(
      pauseCollectionFor(record({ skippedDeliveries: ['2026-12-14'] }), at('2026-12-10T12:00:00Z')),
    ).toBe('');
    const cancelled = record({ status: 'cancelled', pausedByCustomerAt: '2026-12-10T11:00:00.000Z' });
    expect(pauseCollectionFor(cancelled, at('2026-12-10T12:00:00Z'))).toBe('');
  });

  it('puts the pause before a pending skip', () => {
    const both = record({ skippedDeliveries: ['2026-12-21'], pausedByShopAt: '2026-12-10T11:00:00.000Z' });
    expect(pauseCollectionFor(both, at('2026-12-10T12:00:00Z'))).toEqual({ behavior: 'void' });
  });

  it('every 2 weeks: voids the skipped payment of Tuesday 29 December (Monday 28 a bank holiday), resuming an hour after it', () => {
    const fortnightly = record({
      repeat: 'fortnightly',
      nextPaymentAt: '2026-12-23T10:00:00.000Z',
      nextPaymentDelivery: '2026-12-29',
      skippedDeliveries: ['2026-12-29'],
    });
    expect(pauseCollectionFor(fortnightly, at('2026-12-10T12:00:00Z'))).toEqual({
      behavior: 'void',
      resumes_at: seconds('2026-12-23T11:00:00Z'),
    });
  });

  it('clears it, never throws, while Stripe has not said when the coming payment is', () => {
    const unknown = record({ nextPaymentAt: undefined, skippedDeliveries: ['2026-12-21'] });
    expect(pauseCollectionFor(unknown, at('2026-12-10T12:00:00Z'))).toBe('');
  });
});
