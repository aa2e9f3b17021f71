import { describe, expect, it } from 'vitest';
import {
  capacitySettingsView,
  orderView,
  recordView,
  settingsView,
  stripeDashboardUrl,
} from '../../../../lambdas/domain/operations/admin-views';
import {
  dispatchDayKey,
  dispatchSortKey,
  referenceKeyOf,
  requestKey,
} from '../../../../lambdas/domain/storage/orders-table';
import { toShopRecord } from '../../../../lambdas/domain/storage/records';
import { orderFixture, SESSION_ID } from '../../../support/order-fixtures';

describe('stripeDashboardUrl', () => {
  it('links a test payment under /test/ and a live one without it', () => {
    expect(stripeDashboardUrl({ paymentIntentId: 'pi_123', sessionId: SESSION_ID, livemode: false })).toBe(
      'https://dashboard.stripe.com/test/payments/pi_123',
    );
    expect(stripeDashboardUrl({ paymentIntentId: 'pi_123', sessionId: SESSION_ID, livemode: true })).toBe(
      'https://dashboard.stripe.com/payments/pi_123',
    );
  });

  it('searches for the Checkout Session when the order has no payment intent', () => {
    expect(stripeDashboardUrl({ paymentIntentId: undefined, sessionId: SESSION_ID, livemode: true })).toBe(
      `https://dashboard.stripe.com/search?query=${SESSION_ID}`,
    );
  });
});

describe('orderView', () => {
  it('shows the fields the page reads and none of the table keys or email claims', () => {
    const view = orderView({
      ...orderFixture(),
      confirmationEmailState: 'sent',
      confirmationEmailSentAt: '2026-11-21T10:00:02.000Z',
      confirmationEmailClaimToken: 'token',
    });

    expect(view).toEqual({
      kind: 'order',
      reference: 'J0kLmNoPqRsT',
      dispatchDate: '2026-11-23',
      bottles: 3,
      unitPricePence: 325,
      subtotalPence: 975,
      shippingPence: 495,
      totalPence: 1470,
      customerName: 'Zoë Brontë',
      customerEmail: 'zoe@example.com',
      customerPhone: '07700 900123',
      deliveryAddress: 'Flat 2, 10 Downing Street\nLondon',
      postcode: 'SW1A 2AA',
      createdAt: '2026-11-21T10:00:00.000Z',
      emails: [
        { kind: 'confirmation', state: 'sent', sentAt: '2026-11-21T10:00:02.000Z' },
        { kind: 'merchantNotice', state: 'pending' },
      ],
      history: [{ at: '2026-11-21T10:00:00.000Z', actor: 'Stripe', action: 'paid' }],
      status: 'paid',
      paidAt: '2026-11-21T10:00:00.000Z',
      promisedDispatchDate: '2026-11-23',
      placedWhilePaused: false,
      refundablePence: 1470,
      payment: {
        checkoutSessionId: SESSION_ID,
        paymentIntentId: 'pi_test_123',
        livemode: false,
        dashboardUrl: 'https://dashboard.stripe.com/test/payments/pi_test_123',
      },
    });
  });

  it('shows what the merchant and the shop did to an order placed while paused: the pause, the full day, the delay, the dispatch and the refund', () => {
    const record = toShopRecord({
      ...orderFixture(),
      placedWhilePaused: true,
      pausedMode: 'requests',
      dispatchDayFull: { sold: 12, capacity: 10 },
      delayedFrom: '2026-11-23',
      delayReason: 'weather',
      delayedAt: '2026-11-22T18:00:00.000Z',
      dispatchDate: '2026-11-30',
      dispatchedAt: '2026-11-30T08:15:00.000Z',
      trackingNumber: 'RM123456789GB',
      status: 'refunded',
      refundedAt: '2026-12-01T09:30:00.000Z',
      refundId: 're_test_1',
      refundReason: 'doa',
    });

    expect(recordView(record)).toMatchObject({
      kind: 'order',
      status: 'refunded',
      dispatchDate: '2026-11-30',
      promisedDispatchDate: '2026-11-23',
      placedWhilePaused: true,
      pausedMode: 'requests',
      dispatchDayFull: { sold: 12, capacity: 10 },
      delayedFrom: '2026-11-23',
      delayReason: 'weather',
      delayedAt: '2026-11-22T18:00:00.000Z',
      dispatchedAt: '2026-11-30T08:15:00.000Z',
      trackingNumber: 'RM123456789GB',
      refundedAt: '2026-12-01T09:30:00.000Z',
      refundId: 're_test_1',
      refundReason: 'doa',
    });
  });

  it('names what a full refund would refund: the total, what part refunds left, nothing once refunded', () => {
    expect(orderView(orderFixture()).refundablePence).toBe(1470);
    expect(orderView({ ...orderFixture(), partlyRefundedPence: 650 }).refundablePence).toBe(820);
    expect(
      orderView({ ...orderFixture(), partlyRefundedPence: 650, status: 'refunded' }).refundablePence,
    ).toBe(0);
  });

  it('keeps a refund reason stored before Stripe answered off the page until the order is refunded', () => {
    const asked = orderView({ ...orderFixture(), refundReason: 'supply' });
    const refunded = orderView({ ...orderFixture(), status: 'refunded', refundReason: 'supply' });

    expect(asked).not.toHaveProperty('refundReason');
    expect(refunded.refundReason).toBe('supply');
  });

  it('shows an empty history for an order recorded before history was kept', () => {
    const { history: _none, ...older } = orderFixture();

    expect(orderView(older).history).toEqual([]);
  });

  it("shows when each operator's email was sent or refused, as read back from the table", () => {
    const record = toShopRecord({
      ...orderFixture(),
      status: 'refunded',
      dispatchEmailState: 'sent',
      dispatchEmailSentAt: '2026-11-23T08:15:00.000Z',
      dispatchEmailMessageId: 'message-1',
      delayEmailState: 'failed',
      delayEmailFailedAt: '2026-11-22T18:00:00.000Z',
      refundEmailState: 'sent',
      refundEmailSentAt: '2026-11-24T09:30:00.000Z',
    });
    if (record.kind !== 'order') throw new Error('expected an order');

    expect(orderView(record.order).emails.slice(2)).toEqual([
      { kind: 'delay', state: 'failed', failedAt: '2026-11-22T18:00:00.000Z' },
      { kind: 'dispatch', state: 'sent', sentAt: '2026-11-23T08:15:00.000Z' },
      { kind: 'refund', state: 'sent', sentAt: '2026-11-24T09:30:00.000Z' },
    ]);
  });
});

/** An order request as stored when the customer sent it, three bottles for Monday 23 November. */
function requestItem(overrides: Record<string, unknown> = {}) {
  const reference = 'R0A1B2C3D4E5';
  return {
    pk: requestKey(reference),
    reference,
    referenceKey: referenceKeyOf(reference),
    status: 'requested',
    bottles: 3,
    unitPricePence: 325,
    subtotalPence: 975,
    shippingPence: 495,
    totalPence: 1470,
    customerName: 'Rhea Request',
    customerEmail: 'rhea@example.com',
    customerPhone: '07700 900456',
    deliveryAddress: '3 Reed Row\nBath',
    postcode: 'BA1 1AA',
    dispatchDate: '2026-11-23',
    createdAt: '2026-11-21T10:00:00.000Z',
    requestNoticeEmailState: 'pending',
    gsi1pk: dispatchDayKey('2026-11-23'),
    gsi1sk: dispatchSortKey('requested', '2026-11-21T10:00:00.000Z', reference),
    history: [{ at: '2026-11-21T10:00:00.000Z', actor: 'customer', action: 'requested' }],
    ...overrides,
  };
}

const INVITED = {
  status: 'invited',
  invitedAt: '2026-11-21T11:00:00.000Z',
  checkoutSessionId: 'cs_test_link_R0A1B2C3D4E5',
  checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_link_R0A1B2C3D4E5',
  checkoutExpiresAt: '2026-11-22T10:00:00.000Z',
  paymentInvitationEmailState: 'pending',
};

describe('requestView', () => {
  it('shows a request waiting for an answer with what the customer asked for, and no payment link', () => {
    expect(recordView(toShopRecord(requestItem()))).toEqual({
      kind: 'request',
      reference: 'R0A1B2C3D4E5',
      dispatchDate: '2026-11-23',
      bottles: 3,
      unitPricePence: 325,
      subtotalPence: 975,
      shippingPence: 495,
      totalPence: 1470,
      customerName: 'Rhea Request',
      customerEmail: 'rhea@example.com',
      customerPhone: '07700 900456',
      deliveryAddress: '3 Reed Row\nBath',
      postcode: 'BA1 1AA',
      createdAt: '2026-11-21T10:00:00.000Z',
      emails: [{ kind: 'requestNotice', state: 'pending' }],
      history: [{ at: '2026-11-21T10:00:00.000Z', actor: 'customer', action: 'requested' }],
      status: 'requested',
    });
  });

  it('shows the payment link of an invited request, and when it was sent', () => {
    const view = recordView(toShopRecord(requestItem(INVITED)));

    expect(view).toMatchObject({
      status: 'invited',
      invitedAt: '2026-11-21T11:00:00.000Z',
      paymentLink: {
        url: 'https://checkout.stripe.com/c/pay/cs_test_link_R0A1B2C3D4E5',
        expiresAt: '2026-11-22T10:00:00.000Z',
        checkoutSessionId: 'cs_test_link_R0A1B2C3D4E5',
      },
    });
    expect(view).not.toHaveProperty('declinedAt');
  });

  it('shows no payment link on a request declined after its link expired, though the link is still stored', () => {
    const view = recordView(
      toShopRecord(requestItem({ ...INVITED, status: 'declined', declinedAt: '2026-11-22T12:00:00.000Z' })),
    );

    expect(view).toMatchObject({
      status: 'declined',
      invitedAt: '2026-11-21T11:00:00.000Z',
      declinedAt: '2026-11-22T12:00:00.000Z',
    });
    expect(view).not.toHaveProperty('paymentLink');
  });
});

describe('settingsView', () => {
  it("shows the shop's mode, its message, when it was last changed and since when the shop is in it", () => {
    expect(
      settingsView({
        mode: 'paused',
        message: 'Back on Monday',
        updatedAt: '2026-11-21T12:00:00.000Z',
        modeSince: '2026-11-20T09:00:00.000Z',
      }),
    ).toEqual({
      mode: 'paused',
      message: 'Back on Monday',
      updatedAt: '2026-11-21T12:00:00.000Z',
      modeSince: '2026-11-20T09:00:00.000Z',
    });
  });
});

describe('capacitySettingsView', () => {
  it('shows no weekly limit and no day of its own when the shop has set none', () => {
    expect(capacitySettingsView(undefined)).toEqual({ weekly: null, days: {} });
    expect(capacitySettingsView({ days: { '2026-11-23': null } })).toEqual({
      weekly: null,
      days: { '2026-11-23': null },
    });
  });
});
