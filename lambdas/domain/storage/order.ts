import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import type { PaymentEmailKind } from '../../../shared/email-kinds';
import { ORDER_STATUSES, type OrderStatus } from '../../../shared/record-status';
import { REPEATS } from '../../../shared/standing-order';
import { historyField } from './history';
import {
  DISPATCH_DATE_INDEX,
  DISPATCH_KEY_PREFIX,
  ORDER_KEY_PREFIX,
  PARTITION_KEY,
  REFERENCE_INDEX,
} from './orders-table';
import { emailAttributes } from './send-once';

/** Per email kind: `pending` → `sending` → `sent`, or `failed` once SES refused the recipient for good. */
export const emailStateSchema = z.enum(['pending', 'sending', 'sent', 'failed']);
export type EmailState = z.output<typeof emailStateSchema>;

export { ORDER_STATUSES, type OrderStatus };

/** An instant as the table stores it: ISO 8601 in UTC. */
export const isoInstant = z.iso.datetime();

type Optional<T extends z.ZodMiniType> = z.ZodMiniOptional<T>;
type EmailStateFields<K extends string> = Record<`${K}EmailState`, Optional<typeof emailStateSchema>> &
  Record<`${K}Email${'ClaimedAt' | 'SentAt' | 'FailedAt'}`, Optional<typeof isoInstant>> &
  Record<`${K}Email${'ClaimToken' | 'MessageId' | 'FailureReason'}`, Optional<z.ZodMiniString>>;

/** One email's send-once attributes on an item, named as send-once.ts names them; each optional. */
function emailStateFields<K extends PaymentEmailKind>(kind: K): EmailStateFields<K> {
  const names = emailAttributes(kind);
  return {
    [names.state]: z.optional(emailStateSchema),
    [names.claimedAt]: z.optional(isoInstant),
    [names.claimToken]: z.optional(z.string()),
    [names.sentAt]: z.optional(isoInstant),
    [names.messageId]: z.optional(z.string()),
    [names.failedAt]: z.optional(isoInstant),
    [names.failureReason]: z.optional(z.string()),
  } as EmailStateFields<K>;
}

/** Who the customer is, as every record of a sale or a failed payment stores them. */
export const customerFields = {
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string(),
};

/** The customer and where their deliveries go: an order's, a request's and a standing order's. */
export const customerAndAddressFields = {
  ...customerFields,
  deliveryAddress: z.string(),
  postcode: z.string(),
};

/** What an order and an order request both hold: the server's quote and the customer's details. */
export const quoteAndCustomerFields = {
  bottles: z.number().check(z.int()),
  unitPricePence: z.number().check(z.int()),
  subtotalPence: z.number().check(z.int()),
  shippingPence: z.number().check(z.int()),
  totalPence: z.number().check(z.int()),
  ...customerAndAddressFields,
};

/** An order item as stored, and the parser of items read back from the table: checked, not cast. */
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
   * The words by Stripe's pay button (`custom_text.submit`): the record that the customer saw the dispatch
   * dates and the live-goods statement.
   */
  termsShown: z.optional(z.string()),
  /** The random half of the page link (order-page-token.ts), replaced on revoke; absent before pages. */
  pageKey: z.optional(z.string()),
  /** Recomputed when the order is recorded: the date the merchant packs for. */
  dispatchDate: calendarDateSchema,
  checkoutCreatedAt: isoInstant,
  paidAt: isoInstant,
  createdAt: isoInstant,
  /** Absent on an order recorded already refunded: it is never confirmed, so neither email is ever due. */
  ...emailStateFields('confirmation'),
  ...emailStateFields('merchantNotice'),
  /** Paid while checkout was closed (`pause` could not close its session in time): kept and flagged. */
  placedWhilePaused: z.optional(z.literal(true)),
  /** The shop's mode then: `paused`, or `requests` (an ordinary checkout, not a payment link). */
  pausedMode: z.optional(z.enum(['paused', 'requests'])),
  /** Since when the shop had been in that mode (the settings' modeSince). */
  pausedSince: z.optional(isoInstant),
  /** The hold whose bottles this order bought (lambdas/domain/capacity): a refund gives them back. */
  capacityHold: z.optional(z.string()),
  /**
   * The day those bottles count on: the recorded day, or where a delay moved them
   * (operations/delayed-bottles.ts).
   */
  capacityDate: z.optional(calendarDateSchema),
  /** This order's sale left its dispatch day without room: what the day had sold, and its limit. */
  dispatchDayFull: z.optional(
    z.object({ sold: z.number().check(z.int()), capacity: z.number().check(z.int()) }),
  ),
  /** What Stripe refunded of a payment not refunded in full: the order stands, its history says how much. */
  partlyRefundedPence: z.optional(z.number().check(z.int())),
  /** A standing order's delivery (issue 50): its Stripe subscription, and how often it repeats. */
  subscriptionId: z.optional(z.string()),
  repeat: z.optional(z.enum(REPEATS)),
  /** The standing order's page key (ADR 0059): its delivery's confirmation links to the standing order's page. */
  standingPageKey: z.optional(z.string()),
  /** GSI `byDispatchDate`: one dispatch day's orders, sorted by status, then payment time. */
  [DISPATCH_DATE_INDEX.partitionKey]: z.string().check(z.startsWith(DISPATCH_KEY_PREFIX)),
  [DISPATCH_DATE_INDEX.sortKey]: z.string(),
  /** Who did what to the order, oldest first (history.ts); absent on orders recorded before it was kept. */
  ...historyField,
});
export type OrderItem = z.output<typeof orderItemSchema>;
