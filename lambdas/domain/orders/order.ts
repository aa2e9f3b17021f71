import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import { orderReference } from '../../../shared/checkout-status';
import { type IsoDate, nextDispatchDate } from '../../../shared/dispatch';
import type { PaidCheckout } from '../checkout/paid-checkout';
import { ACTORS, historyEntry, historyField } from './history';
import {
  DISPATCH_DATE_INDEX,
  DISPATCH_KEY_PREFIX,
  dispatchDayKey,
  dispatchSortKey,
  ORDER_KEY_PREFIX,
  orderKey,
  PARTITION_KEY,
  REFERENCE_INDEX,
  referenceKeyOf,
} from './orders-table';

/**
 * Per email kind: `pending` → `sending` (claimed, with claimedAt and a claim token) → `sent`
 * (sentAt, messageId), or `failed` (failedAt, failureReason) when SES refused the recipient for
 * good. `sent` and `failed` are final. See send-once.ts for the transitions.
 */
export const emailStateSchema = z.enum(['pending', 'sending', 'sent', 'failed']);
export type EmailState = z.output<typeof emailStateSchema>;

/**
 * Order statuses. Fulfilment writes `paid` (or `refunded`, for a payment Stripe refunded before its
 * order was recorded: fulfilment/refunded-order.ts); the operator's commands (lambdas/shop) move an order
 * forward only: `paid → dispatched`, `paid → refunded`, `dispatched → refunded`.
 */
export const ORDER_STATUSES = ['paid', 'dispatched', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A day as the table stores it: `yyyy-mm-dd`. */
/** An instant as the table stores it: ISO 8601 in UTC. */
export const isoInstant = z.iso.datetime();

/** What an order and an order request both hold: the server's quote and the customer's details. */
export const quoteAndCustomerFields = {
  bottles: z.number().check(z.int()),
  unitPricePence: z.number().check(z.int()),
  subtotalPence: z.number().check(z.int()),
  shippingPence: z.number().check(z.int()),
  totalPence: z.number().check(z.int()),
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string(),
  deliveryAddress: z.string(),
  postcode: z.string(),
};

/**
 * An order item as stored in the orders table. Also the parser for items read back: the table is
 * outside this process, so what comes back is checked, not cast.
 */
export const orderItemSchema = z.object({
  [PARTITION_KEY]: z.string().check(z.startsWith(ORDER_KEY_PREFIX)),
  reference: z.string(),
  /** GSI `byReferenceKey`: the reference lower-cased, so it is found in any case. */
  [REFERENCE_INDEX.partitionKey]: z.string(),
  sessionId: z.string(),
  paymentIntentId: z.optional(z.string()),
  livemode: z.boolean(),
  status: z.enum(ORDER_STATUSES),
  ...quoteAndCustomerFields,
  currency: z.literal('gbp'),
  /** The date shown to the customer before paying (from the session's metadata). */
  promisedDispatchDate: z.optional(calendarDateSchema),
  /**
   * The words Stripe's page showed the customer by the pay button (the session's
   * `custom_text.submit`), kept as the record that they saw the dispatch dates and the live-goods
   * no-cancellation statement before paying. Absent on orders whose session had none.
   */
  termsShown: z.optional(z.string()),
  /**
   * The random half of the order page's link (order-page-token.ts): replaced when the merchant
   * revokes the link. Absent on orders recorded before the page existed: they have no page.
   */
  pageKey: z.optional(z.string()),
  /** Recomputed when the order is recorded: the date the merchant packs for. */
  dispatchDate: calendarDateSchema,
  checkoutCreatedAt: isoInstant,
  paidAt: isoInstant,
  createdAt: isoInstant,
  /**
   * The two emails of a new order. Absent on an order recorded already refunded (refunded in
   * Stripe before it was recorded): it is never confirmed, so neither email is ever due.
   */
  confirmationEmailState: z.optional(emailStateSchema),
  confirmationEmailClaimedAt: z.optional(isoInstant),
  confirmationEmailClaimToken: z.optional(z.string()),
  confirmationEmailSentAt: z.optional(isoInstant),
  confirmationEmailMessageId: z.optional(z.string()),
  confirmationEmailFailedAt: z.optional(isoInstant),
  confirmationEmailFailureReason: z.optional(z.string()),
  merchantNoticeEmailState: z.optional(emailStateSchema),
  merchantNoticeEmailClaimedAt: z.optional(isoInstant),
  merchantNoticeEmailClaimToken: z.optional(z.string()),
  merchantNoticeEmailSentAt: z.optional(isoInstant),
  merchantNoticeEmailMessageId: z.optional(z.string()),
  merchantNoticeEmailFailedAt: z.optional(isoInstant),
  merchantNoticeEmailFailureReason: z.optional(z.string()),
  /**
   * Paid while checkout was closed (`pause` could not close the session in time): kept, and
   * shown to the merchant, who refunds or delays it. Absent on every other order.
   */
  placedWhilePaused: z.optional(z.literal(true)),
  /** The shop's mode then: `paused`, or `requests` (an ordinary checkout, not a payment link). */
  pausedMode: z.optional(z.enum(['paused', 'requests'])),
  /** Since when the shop had been in that mode (the settings' modeSince). */
  pausedSince: z.optional(isoInstant),
  /** The hold whose bottles this order bought (lambdas/domain/capacity): a refund gives them back. */
  capacityHold: z.optional(z.string()),
  /**
   * The dispatch day those bottles count on: the order's day when it was recorded, and the day a
   * delay moved it to (operations/delayed-bottles.ts). A delay from before that moved only the order.
   */
  capacityDate: z.optional(calendarDateSchema),
  /** This order's sale left its dispatch day without room: what the day had sold, and its limit. */
  dispatchDayFull: z.optional(
    z.object({ sold: z.number().check(z.int()), capacity: z.number().check(z.int()) }),
  ),
  /**
   * What Stripe has refunded of a payment not refunded in full (a partial refund in the Dashboard):
   * the order stands, and its history says how much went back. Absent when nothing was.
   */
  partlyRefundedPence: z.optional(z.number().check(z.int())),
  /** GSI `byDispatchDate`: one dispatch day's orders, sorted by status, then payment time. */
  [DISPATCH_DATE_INDEX.partitionKey]: z.string().check(z.startsWith(DISPATCH_KEY_PREFIX)),
  [DISPATCH_DATE_INDEX.sortKey]: z.string(),
  /** Who did what to the order, oldest first (history.ts); absent on orders recorded before it was kept. */
  ...historyField,
});
export type OrderItem = z.output<typeof orderItemSchema>;

/** The shop was not taking paid checkouts when the order was recorded: its mode, and since when. */
export interface PauseMark {
  mode: 'paused' | 'requests';
  since: string | undefined;
}

export interface OrderTimes {
  /** When the order is recorded: now. */
  now: Date;
  /**
   * When Stripe recorded the payment (the event's `created`), if known; the charge's own time
   * (`checkout.paidAt`) comes first, and `now` only when Stripe told us neither.
   */
  paidAt?: Date | undefined;
  cutoffHours: number;
}

/** Where the order's bottles were sold (lambdas/domain/capacity/session-capacity.ts). */
export interface OrderSale {
  date: IsoDate;
  hold: string;
  full?: { sold: number; capacity: number } | undefined;
}

/**
 * Maps a paid, checked Checkout Session to its order item. Pure, so the mapping is unit tested.
 *
 * The dispatch date is recomputed from the moment the order is recorded, not taken from the
 * metadata: a customer who paid after the cut-off (a session left open for hours, a delayed
 * payment method) goes to the following week. On the normal path that moment is the payment
 * (within seconds); when a retry or the reconciler records it later, the later moment is the right
 * one, because the merchant cannot pack an order before hearing of it, and a date already in the
 * past would be a broken promise.
 *
 * `pause`: the shop was not taking paid checkouts at that moment. The order is kept with the flag
 * and its dispatch date computed all the same; the merchant refunds or delays it
 * (docs/decisions/0021-orders-paid-while-paused.md).
 *
 * `sale`: the session reserved its bottles (ADR 0023), and they are sold on `sale.date`, which is
 * the order's dispatch date: the day reserved, or, when that day's cut-off has passed by now, the
 * first day an order recorded now can go (session-capacity.ts moved the bottles there).
 */
export function toOrderItem(
  checkout: PaidCheckout,
  times: OrderTimes,
  pause?: PauseMark,
  sale?: OrderSale,
): OrderItem {
  const reference = orderReference(checkout.sessionId);
  const paidAt = (checkout.paidAt ?? times.paidAt ?? times.now).toISOString();
  const dispatchDate = sale?.date ?? nextDispatchDate(times.now, { cutoffHours: times.cutoffHours });
  const status = 'paid' as const;
  return {
    pk: orderKey(checkout.sessionId),
    reference,
    referenceKey: referenceKeyOf(reference),
    sessionId: checkout.sessionId,
    paymentIntentId: checkout.paymentIntentId,
    livemode: checkout.livemode,
    status,
    bottles: checkout.quote.bottles,
    unitPricePence: checkout.quote.unitPricePence,
    subtotalPence: checkout.quote.subtotalPence,
    shippingPence: checkout.quote.shippingPence,
    totalPence: checkout.quote.totalPence,
    currency: checkout.currency,
    customerName: checkout.customer.name,
    customerEmail: checkout.customer.email,
    customerPhone: checkout.customer.phone,
    deliveryAddress: checkout.customer.address,
    postcode: checkout.customer.postcode,
    promisedDispatchDate: checkout.promisedDispatchDate,
    ...(checkout.termsShown !== undefined && { termsShown: checkout.termsShown }),
    dispatchDate,
    checkoutCreatedAt: checkout.checkoutCreatedAt.toISOString(),
    paidAt,
    createdAt: times.now.toISOString(),
    confirmationEmailState: 'pending',
    merchantNoticeEmailState: 'pending',
    gsi1pk: dispatchDayKey(dispatchDate),
    gsi1sk: dispatchSortKey(status, paidAt, reference),
    history: [historyEntry(paidAt, ACTORS.stripe, 'paid')],
    ...(pause && {
      placedWhilePaused: true,
      pausedMode: pause.mode,
      ...(pause.since !== undefined && { pausedSince: pause.since }),
    }),
    ...(sale && {
      capacityHold: sale.hold,
      capacityDate: sale.date,
      ...(sale.full && { dispatchDayFull: sale.full }),
    }),
  };
}
