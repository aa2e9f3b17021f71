import { describe, expect, it } from 'vitest';
import { toOrderItem } from '../../../../lambdas/domain/checkout/paid-checkout';
import { orderItemSchema } from '../../../../lambdas/domain/storage/order';
import { BEFORE_CUTOFF, paidCheckout, SESSION_ID } from '../../../support/order-fixtures';

describe('toOrderItem', () => {
  it('maps a paid checkout to the order item of docs/architecture.md', () => {
    // Prepare
    const paidAt = new Date('2026-11-21T09:59:30Z');

    // Act
    const item = toOrderItem(paidCheckout(), { now: BEFORE_CUTOFF, paidAt, cutoffHours: 36 });

    // Assess
    expect(item).toEqual({
      pk: `ORDER#${SESSION_ID}`,
      reference: 'J0kLmNoPqRsT',
      // Folded as a person reads it: any case, O as 0, I and L as 1.
      referenceKey: 'j0k1mn0pqrst',
      sessionId: SESSION_ID,
      paymentIntentId: 'pi_test_123',
      livemode: false,
      status: 'paid',
      bottles: 3,
      unitPricePence: 325,
      subtotalPence: 975,
      shippingPence: 495,
      totalPence: 1470,
      currency: 'gbp',
      customerName: 'Zoë Brontë',
      customerEmail: 'zoe@example.com',
      customerPhone: '07700 900123',
      deliveryAddress: 'Flat 2, 10 Downing Street\nLondon',
      postcode: 'SW1A 2AA',
      promisedDispatchDate: '2026-11-23',
      dispatchDate: '2026-11-23',
      checkoutCreatedAt: '2026-11-21T09:50:00.000Z',
      paidAt: '2026-11-21T09:59:30.000Z',
      createdAt: '2026-11-21T10:00:00.000Z',
      confirmationEmailState: 'pending',
      merchantNoticeEmailState: 'pending',
      gsi1pk: 'DISPATCH#2026-11-23',
      gsi1sk: 'paid#2026-11-21T09:59:30.000Z#J0kLmNoPqRsT',
      history: [{ at: '2026-11-21T09:59:30.000Z', actor: 'Stripe', action: 'paid' }],
    });
    expect(orderItemSchema.parse(item)).toEqual(item);
  });

  it('recomputes the dispatch date: paid after the cut-off, the order goes to the next week', () => {
    // Prepare: Saturday 13:00 in London, an hour past the cut-off for Monday 23rd.
    const now = new Date('2026-11-21T13:00:00Z');

    // Act
    const item = toOrderItem(paidCheckout(), { now, cutoffHours: 36 });

    // Assess
    expect(item.promisedDispatchDate).toBe('2026-11-23');
    expect(item.dispatchDate).toBe('2026-11-30');
    expect(item.gsi1pk).toBe('DISPATCH#2026-11-30');
    expect(item.paidAt).toBe(now.toISOString());
  });

  it('sorts one dispatch day by status, then payment time', () => {
    // Prepare
    const early = toOrderItem(paidCheckout({ sessionId: 'cs_test_zzzzzzzzzzzzzzzzzzzzzz' }), {
      now: BEFORE_CUTOFF,
      paidAt: new Date('2026-11-21T08:00:00Z'),
      cutoffHours: 36,
    });
    const late = toOrderItem(paidCheckout({ sessionId: 'cs_test_aaaaaaaaaaaaaaaaaaaaaa' }), {
      now: BEFORE_CUTOFF,
      paidAt: new Date('2026-11-21T09:00:00Z'),
      cutoffHours: 36,
    });

    // Act
    const sorted = [late.gsi1sk, early.gsi1sk].sort();

    // Assess
    expect(sorted).toEqual([early.gsi1sk, late.gsi1sk]);
  });

  it('dates dispatch by the configured cut-off, not the default one', () => {
    // Saturday 21 November 13:00 UTC: past a 36-hour cut-off for Monday 23rd, before a 12-hour one.
    const now = new Date('2026-11-21T13:00:00Z');

    expect(toOrderItem(paidCheckout(), { now, cutoffHours: 12 }).dispatchDate).toBe('2026-11-23');
    expect(toOrderItem(paidCheckout(), { now, cutoffHours: 36 }).dispatchDate).toBe('2026-11-30');
  });

  it('flags an order recorded while the shop was paused, keeping its dispatch date and index keys', () => {
    // Act
    const open = toOrderItem(paidCheckout(), { now: BEFORE_CUTOFF, cutoffHours: 36 });
    const paused = toOrderItem(
      paidCheckout(),
      { now: BEFORE_CUTOFF, cutoffHours: 36 },
      { mode: 'paused', since: '2026-11-21T08:00:00.000Z' },
    );
    const malformed = toOrderItem(
      paidCheckout(),
      { now: BEFORE_CUTOFF, cutoffHours: 36 },
      { mode: 'requests', since: undefined },
    );

    // Assess
    expect(paused).toEqual({
      ...open,
      placedWhilePaused: true,
      pausedMode: 'paused',
      pausedSince: '2026-11-21T08:00:00.000Z',
    });
    expect(paused.dispatchDate).toBe('2026-11-23');
    expect(malformed).toEqual({ ...open, placedWhilePaused: true, pausedMode: 'requests' });
    expect(malformed).not.toHaveProperty('pausedSince');
    expect(open).not.toHaveProperty('placedWhilePaused');
    expect(orderItemSchema.parse(paused)).toEqual(paused);
  });
});

describe('orderItemSchema and history', () => {
  it('reads an order recorded before history was kept, and refuses a history entry of an unknown action', () => {
    const { history: _none, ...older } = toOrderItem(paidCheckout(), { now: BEFORE_CUTOFF, cutoffHours: 36 });
    const unknownAction = {
      ...older,
      history: [{ at: '2026-11-21T10:00:00.000Z', actor: 'someone', action: 'lost' }],
    };

    expect(orderItemSchema.parse(older)).toEqual(older);
    expect(orderItemSchema.safeParse(unknownAction).success).toBe(false);
  });
});
