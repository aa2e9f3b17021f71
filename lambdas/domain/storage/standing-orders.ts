import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import { REPEATS } from '../../../shared/standing-order';
import { putIfAbsent, updateIf } from './conditional-writes';
import { customerAndAddressFields, customerFields, emailStateSchema, isoInstant } from './order';
import {
  FAILED_RENEWAL_KEY_PREFIX,
  PARTITION_KEY,
  type ShopTable,
  STANDING_ORDER_KEY_PREFIX,
  TTL_ATTRIBUTE,
} from './orders-table';
import { readItem } from './read-item';

// A standing order (issue 50, ADR 0058): a Stripe subscription of ours, recorded once, and the
// record of a renewal whose payment failed. Each paid invoice is an ORDER# item like any order's.

export function standingOrderKey(subscriptionId: string): string {
  return `${STANDING_ORDER_KEY_PREFIX}${subscriptionId}`;
}

export function failedRenewalKey(invoiceId: string): string {
  return `${FAILED_RENEWAL_KEY_PREFIX}${invoiceId}`;
}

export const STANDING_ORDER_STATUSES = ['active', 'cancelled'] as const;

/** The standing order as stored; checked when read back. */
export const standingOrderItemSchema = z.object({
  [PARTITION_KEY]: z.string().check(z.startsWith(STANDING_ORDER_KEY_PREFIX)),
  subscriptionId: z.string(),
  livemode: z.boolean(),
  status: z.enum(STANDING_ORDER_STATUSES),
  repeat: z.enum(REPEATS),
  bottles: z.number().check(z.int()),
  /** What each delivery costs, in pence: bottles x 325 + 495. */
  totalPence: z.number().check(z.int()),
  ...customerAndAddressFields,
  /** The dispatch day of the next payment (the subscription's period end, by the one-off rules). */
  nextDelivery: calendarDateSchema,
  /** When Stripe takes the coming payment (the subscription's period end), and the day it will go. */
  nextPaymentAt: z.optional(isoInstant),
  nextPaymentDelivery: z.optional(calendarDateSchema),
  /** The invoice whose order set `nextDelivery` last. */
  lastInvoiceId: z.string(),
  /** The first delivery's dispatch day: delivery `k` goes in its week plus k x 1 or 2 weeks (standingDeliveryDay). */
  firstDelivery: calendarDateSchema,
  /** Which delivery `nextDelivery` is (0 the first): the deliveries after it are not paid yet. */
  lastDeliveryIndex: z.number().check(z.int(), z.nonnegative()),
  /** The key of the standing order's own page (its link token names the subscription id and this). */
  pageKey: z.string(),
  /** Unpaid deliveries the customer skipped, by dispatch day: no payment taken, no bottles held. */
  skippedDeliveries: z.optional(z.array(calendarDateSchema)),
  /** Set while the customer paused it, and while the merchant's shop pause holds its renewals. */
  pausedByCustomerAt: z.optional(isoInstant),
  pausedByShopAt: z.optional(isoInstant),
  createdAt: isoInstant,
  cancelledAt: z.optional(isoInstant),
});
export type StandingOrderItem = z.output<typeof standingOrderItemSchema>;

/** Writes the standing order unless it exists: `false` when it did. */
export function createStandingOrder(table: ShopTable, item: StandingOrderItem): Promise<boolean> {
  return putIfAbsent(table, item);
}

/** The standing order of a subscription, read strongly consistent; undefined when none. */
export async function readStandingOrder(
  table: ShopTable,
  subscriptionId: string,
): Promise<StandingOrderItem | undefined> {
  return readItem(table, standingOrderKey(subscriptionId), standingOrderItemSchema);
}

/**
 * Moves the next delivery forward after a later paid invoice: only ever forward (a late event of
 * an older invoice changes nothing), and never on a cancelled standing order.
 */
export function advanceNextDelivery(
  table: ShopTable,
  subscriptionId: string,
  next: {
    nextDelivery: string;
    invoiceId: string;
    deliveryIndex: number;
    nextPaymentAt?: string;
    nextPaymentDelivery?: string;
  },
): Promise<boolean> {
  const payment = next.nextPaymentAt !== undefined && next.nextPaymentDelivery !== undefined;
  return updateIf(table, standingOrderKey(subscriptionId), {
    ConditionExpression: '#status = :active AND #next < :next',
    UpdateExpression: `SET #next = :next, #last = :invoice, #index = :index${payment ? ', #payAt = :payAt, #payDay = :payDay' : ''}`,
    ExpressionAttributeNames: {
      '#status': 'status',
      '#next': 'nextDelivery',
      '#last': 'lastInvoiceId',
      '#index': 'lastDeliveryIndex',
      ...(payment && { '#payAt': 'nextPaymentAt', '#payDay': 'nextPaymentDelivery' }),
    },
    ExpressionAttributeValues: {
      ':active': 'active',
      ':next': next.nextDelivery,
      ':invoice': next.invoiceId,
      ':index': next.deliveryIndex,
      ...(payment && { ':payAt': next.nextPaymentAt, ':payDay': next.nextPaymentDelivery }),
    },
  });
}

/** Marks the standing order cancelled, once: `false` when it was already, or does not exist. */
export function markStandingOrderCancelled(
  table: ShopTable,
  subscriptionId: string,
  now: Date,
): Promise<boolean> {
  return updateIf(table, standingOrderKey(subscriptionId), {
    ConditionExpression: 'attribute_exists(#pk) AND #status = :active',
    UpdateExpression: 'SET #status = :cancelled, #at = :now',
    ExpressionAttributeNames: { '#pk': PARTITION_KEY, '#status': 'status', '#at': 'cancelledAt' },
    ExpressionAttributeValues: { ':active': 'active', ':cancelled': 'cancelled', ':now': now.toISOString() },
  });
}

/** A failed renewal as stored: what both emails say, and their send-once states. */
export const failedRenewalItemSchema = z.object({
  [PARTITION_KEY]: z.string().check(z.startsWith(FAILED_RENEWAL_KEY_PREFIX)),
  reference: z.string(),
  invoiceId: z.string(),
  subscriptionId: z.string(),
  livemode: z.boolean(),
  bottles: z.number().check(z.int()),
  totalPence: z.number().check(z.int()),
  ...customerFields,
  recordedAt: isoInstant,
  [TTL_ATTRIBUTE]: z.number().check(z.int()),
  renewalFailedEmailState: emailStateSchema,
  renewalFailedNoticeEmailState: emailStateSchema,
});
export type FailedRenewalItem = z.output<typeof failedRenewalItemSchema>;

/** Kept 90 days (beyond the reconciler's window), then deleted by TTL: it holds a name and an email. */
export const FAILED_RENEWAL_DAYS = 90;

export function failedRenewalTtl(now: Date): number {
  return Math.floor(now.getTime() / 1000) + FAILED_RENEWAL_DAYS * 86_400;
}

export function readFailedRenewal(
  table: ShopTable,
  invoiceId: string,
): Promise<FailedRenewalItem | undefined> {
  return readItem(table, failedRenewalKey(invoiceId), failedRenewalItemSchema);
}
