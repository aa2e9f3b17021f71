import type {
  AdminCapacitySettings,
  AdminDelayResponse,
  AdminEmail,
  AdminOrderView,
  AdminRecordView,
  AdminRequestView,
  AdminShopSettingsView,
  AdminStripePayment,
} from '../../../shared/admin-responses';
import { ADMIN_API_ROUTES } from '../../../shared/admin-routes';
import { describeClosedDay } from '../../../shared/closed-day';
import { formatDispatchDate, londonDate } from '../../../shared/dispatch';
import { RECORD_EMAIL_KINDS } from '../../../shared/email-kinds';
import type { CapacitySettings } from '../storage/capacity-settings';
import type { ManagedOrder } from '../storage/managed-order';
import type { OrderRequest } from '../storage/order-request';
import type { ShopRecord } from '../storage/records';
import { emailAttributes } from '../storage/send-once';
import type { ShopSettings } from '../storage/shop-settings';
import type { DelayResult } from './order-actions';

const EMAIL_STATES = ['pending', 'sending', 'sent', 'failed'] as const;

/** Each email the item tracks, with when it was sent (or refused for good). */
function emailsOf(item: Readonly<Record<string, unknown>>): AdminEmail[] {
  return RECORD_EMAIL_KINDS.flatMap((kind) => {
    const names = emailAttributes(kind);
    const state = EMAIL_STATES.find((s) => s === item[names.state]);
    if (state === undefined) return [];
    const sentAt = item[names.sentAt];
    const failedAt = item[names.failedAt];
    return [
      {
        kind,
        state,
        ...(typeof sentAt === 'string' && { sentAt }),
        ...(typeof failedAt === 'string' && { failedAt }),
      },
    ];
  });
}

/**
 * The payment in Stripe's Dashboard: the payment intent's page (under `/test/` for test mode), or a search
 * for the session when recorded without its payment intent.
 */
export function stripeDashboardUrl(
  order: Pick<ManagedOrder, 'paymentIntentId' | 'sessionId' | 'livemode'>,
): string {
  const base = `https://dashboard.stripe.com${order.livemode ? '' : '/test'}`;
  return order.paymentIntentId === undefined
    ? `${base}/search?query=${encodeURIComponent(order.sessionId)}`
    : `${base}/payments/${order.paymentIntentId}`;
}

function paymentOf(order: ManagedOrder): AdminStripePayment {
  return {
    checkoutSessionId: order.sessionId,
    ...(order.paymentIntentId !== undefined && { paymentIntentId: order.paymentIntentId }),
    livemode: order.livemode,
    dashboardUrl: stripeDashboardUrl(order),
  };
}

/** What an order and a request share, as the page reads it. */
function commonFields(item: ManagedOrder | OrderRequest) {
  return {
    reference: item.reference,
    dispatchDate: item.dispatchDate,
    bottles: item.bottles,
    unitPricePence: item.unitPricePence,
    subtotalPence: item.subtotalPence,
    shippingPence: item.shippingPence,
    totalPence: item.totalPence,
    customerName: item.customerName,
    customerEmail: item.customerEmail,
    customerPhone: item.customerPhone,
    deliveryAddress: item.deliveryAddress,
    postcode: item.postcode,
    createdAt: item.createdAt,
    emails: emailsOf(item),
    history: item.history ?? [],
  };
}

/** An order as the admin page reads it: no table keys, no email claim tokens. */
export function orderView(order: ManagedOrder): AdminOrderView {
  return {
    kind: 'order',
    ...commonFields(order),
    status: order.status,
    paidAt: order.paidAt,
    ...(order.promisedDispatchDate !== undefined && { promisedDispatchDate: order.promisedDispatchDate }),
    placedWhilePaused: order.placedWhilePaused === true,
    ...(order.pausedMode !== undefined && { pausedMode: order.pausedMode }),
    ...(order.dispatchDayFull !== undefined && { dispatchDayFull: order.dispatchDayFull }),
    ...(order.dispatchedAt !== undefined && { dispatchedAt: order.dispatchedAt }),
    ...(order.trackingNumber !== undefined && { trackingNumber: order.trackingNumber }),
    ...(order.delayedFrom !== undefined && { delayedFrom: order.delayedFrom }),
    ...(order.delayReason !== undefined && { delayReason: order.delayReason }),
    ...(order.delayedAt !== undefined && { delayedAt: order.delayedAt }),
    ...(order.refundedAt !== undefined && { refundedAt: order.refundedAt }),
    ...(order.refundId !== undefined && { refundId: order.refundId }),
    // A reason stored before asking Stripe is not a refund until the order says refunded.
    ...(order.status === 'refunded' &&
      order.refundReason !== undefined && { refundReason: order.refundReason }),
    ...(order.partlyRefundedPence !== undefined && { partlyRefundedPence: order.partlyRefundedPence }),
    ...(order.partRefunds !== undefined && { partRefunds: order.partRefunds }),
    refundablePence:
      order.status === 'refunded' ? 0 : Math.max(0, order.totalPence - (order.partlyRefundedPence ?? 0)),
    payment: paymentOf(order),
  };
}

/** An order request as the admin page reads it. */
export function requestView(request: OrderRequest): AdminRequestView {
  const { checkoutUrl, checkoutExpiresAt, checkoutSessionId } = request;
  return {
    kind: 'request',
    ...commonFields(request),
    status: request.status,
    // Only a waiting request holds bottles of its own: an invited one's link holds them, until its expiry.
    ...(request.status === 'requested' &&
      request.holdsUntil !== undefined && { holdsUntil: request.holdsUntil }),
    ...(request.invitedAt !== undefined && { invitedAt: request.invitedAt }),
    ...(request.status === 'invited' &&
      checkoutUrl !== undefined &&
      checkoutExpiresAt !== undefined &&
      checkoutSessionId !== undefined && {
        paymentLink: { url: checkoutUrl, expiresAt: checkoutExpiresAt, checkoutSessionId },
      }),
    ...(request.declinedAt !== undefined && { declinedAt: request.declinedAt }),
  };
}

/** An order or a request as the admin page reads it. */
export function recordView(record: ShopRecord): AdminRecordView {
  return record.kind === 'order' ? orderView(record.order) : requestView(record.request);
}

/** The shop's mode as the page reads it, without the capacity settings (their own route's). */
export function settingsView(settings: ShopSettings): AdminShopSettingsView {
  return {
    mode: settings.mode,
    ...(settings.message !== undefined && { message: settings.message }),
    ...(settings.updatedAt !== undefined && { updatedAt: settings.updatedAt }),
    ...(settings.modeSince !== undefined && { modeSince: settings.modeSince }),
  };
}

/** The capacity settings as the page reads them: no weekly limit is null, as is a day's "none". */
export function capacitySettingsView(capacity: CapacitySettings | undefined): AdminCapacitySettings {
  return { weekly: capacity?.weekly ?? null, days: { ...capacity?.days } };
}

/**
 * A delay's answer: what it moved and emailed, and the day it closed with, in words, how to sell
 * it again (the capacity route with the day's limit as it was, or the page's capacity form).
 */
export function delayView(result: DelayResult, now: Date): AdminDelayResponse {
  const { closed, ...rest } = result;
  if (closed === undefined) return rest;
  const day = formatDispatchDate(closed.date, { today: londonDate(now) });
  const body = JSON.stringify({ date: closed.date, bottles: closed.before });
  return {
    ...rest,
    closed: {
      ...closed,
      message: describeClosedDay(
        day,
        `set its capacity under Shop & capacity, or POST ${ADMIN_API_ROUTES.setCapacity.path} ${body}`,
      ),
    },
  };
}
