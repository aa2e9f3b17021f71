import { describe, expect, it } from 'vitest';
import { orderView, stripeDashboardUrl } from '../../../../lambdas/domain/operations/admin-views';
import { toShopRecord } from '../../../../lambdas/domain/orders/records';
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
      payment: {
        checkoutSessionId: SESSION_ID,
        paymentIntentId: 'pi_test_123',
        livemode: false,
        dashboardUrl: 'https://dashboard.stripe.com/test/payments/pi_test_123',
      },
    });
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
