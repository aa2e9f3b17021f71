import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import type { UpdateEmailKind } from '../../../shared/email-kinds';
import { emailStateSchema, isoInstant, orderItemSchema } from './order';

/**
 * An operator's email may also be `superseded`: due once, then the order moved on (refunded before
 * its dispatch email went), so it is never sent (storage/outbox.ts supersedes an entry and says so here).
 */
const optionalEmailState = z.optional(z.enum([...emailStateSchema.options, 'superseded']));

/** Why an order was refunded; `stripe` when the refund was made in the Stripe Dashboard. */
export const REFUND_REASONS = ['supply', 'doa', 'other'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
/** Which path recorded a refund on the order: the operator's command, or the `charge.refunded` webhook. */
export const REFUND_RECORDERS = ['command', 'webhook'] as const;
export type RefundRecorder = (typeof REFUND_RECORDERS)[number];
export const DELAY_REASONS = ['weather', 'supply', 'other'] as const;
export type DelayReason = (typeof DELAY_REASONS)[number];

/** One part refund the shop made (bottles, the delivery or both), as its email and history tell it. */
export const partRefundSchema = z.object({
  refundId: z.string(),
  pence: z.number().check(z.int()),
  bottles: z.number().check(z.int()),
  delivery: z.boolean(),
  reason: z.enum(REFUND_REASONS),
  at: isoInstant,
  /** Who made it (absent on part refunds made before it was kept). */
  by: z.optional(z.string()),
  /** The admin request's intention it was made for, when it carried a key: a repeat finds it here. */
  intention: z.optional(z.string()),
});
export type PartRefund = z.output<typeof partRefundSchema>;

/** The order's update emails, each written with the change that causes it (storage/outbox.ts). */
export type OutboxKind = UpdateEmailKind;

const pence = z.number().check(z.int());
/** What every update email shows: who it goes to, the order it is about, and its page's key. */
const commonFacts = {
  sessionId: z.string(),
  reference: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  pageKey: z.optional(z.string()),
};
/** Per kind, exactly the fields its email shows, as the change that caused it wrote them. */
export const EMAIL_FACTS = {
  dispatch: z.object({
    ...commonFacts,
    bottles: pence,
    dispatchDate: calendarDateSchema,
    dispatchedAt: z.optional(isoInstant),
    deliveryAddress: z.string(),
    postcode: z.string(),
    trackingNumber: z.optional(z.string()),
  }),
  trackingUpdate: z.object({ ...commonFacts, trackingNumber: z.string() }),
  delay: z.object({
    ...commonFacts,
    bottles: pence,
    dispatchDate: calendarDateSchema,
    delayedFrom: calendarDateSchema,
    delayReason: z.enum(DELAY_REASONS),
    delayedAt: z.optional(isoInstant),
  }),
  addressCorrected: z.object({
    ...commonFacts,
    deliveryAddress: z.string(),
    postcode: z.string(),
    customerPhone: z.string(),
    dispatchDate: calendarDateSchema,
  }),
  partRefund: z.object({
    ...commonFacts,
    part: partRefundSchema,
    partlyRefundedPence: pence,
    totalPence: pence,
  }),
  refund: z.object({
    ...commonFacts,
    bottles: pence,
    totalPence: pence,
    refundReason: z.optional(z.enum([...REFUND_REASONS, 'stripe'])),
    partlyRefundedPence: z.optional(pence),
  }),
  pageLink: z.object(commonFacts),
} as const;
export type EmailFacts<K extends OutboxKind = OutboxKind> = z.output<(typeof EMAIL_FACTS)[K]>;

/** An outbox entry's life: pending → sending (the order's lock held) → sent | failed; pending → superseded. */
export const OUTBOX_STATES = ['pending', 'sending', 'sent', 'superseded', 'failed'] as const;

const entryFields = {
  version: z.number().check(z.int()),
  /** Its place among the entries one write added (a revoke re-issues the entries it replaces). */
  seq: z.optional(z.number().check(z.int())),
  at: isoInstant,
  state: z.enum(OUTBOX_STATES),
  claimToken: z.optional(z.string()),
  claimedAt: z.optional(isoInstant),
  sentAt: z.optional(isoInstant),
  messageId: z.optional(z.string()),
  failedAt: z.optional(isoInstant),
  failureReason: z.optional(z.string()),
};
const entryOf = <K extends OutboxKind>(kind: K) =>
  z.object({ kind: z.literal(kind), facts: EMAIL_FACTS[kind], ...entryFields });
export const outboxEntrySchema = z.discriminatedUnion('kind', [
  entryOf('dispatch'),
  entryOf('delay'),
  entryOf('trackingUpdate'),
  entryOf('addressCorrected'),
  entryOf('partRefund'),
  entryOf('refund'),
  entryOf('pageLink'),
]);
export type OutboxEntry = z.output<typeof outboxEntrySchema>;

/**
 * An order with what the operator's commands add to it. Every added field is optional: an order
 * fulfilment has just written has none of them.
 */
export const managedOrderSchema = z.extend(orderItemSchema, {
  /** How many outbox writes changed the order's facts (absent: none yet); each write is conditional on it. */
  version: z.optional(z.number().check(z.int())),
  /** The order's update emails by `e<version>` (storage/outbox.ts); each sent once, in version order. */
  outbox: z.optional(z.record(z.string(), outboxEntrySchema)),
  /** The one sender draining the outbox now: its token, the entry it sends, since when. */
  outboxLock: z.optional(z.object({ token: z.string(), entry: z.string(), at: isoInstant })),
  /** Set while entries wait to be sent: the sparse key of OUTBOX_DUE_INDEX, for the reconciler's sweep. */
  outboxDueAt: z.optional(isoInstant),
  dispatchedAt: z.optional(isoInstant),
  trackingNumber: z.optional(z.string()),
  delayedFrom: z.optional(calendarDateSchema),
  delayReason: z.optional(z.enum(DELAY_REASONS)),
  delayedAt: z.optional(isoInstant),
  /**
   * A delay is moving the order's bottles to `capacityDate` from this day, and has not finished:
   * they may be counted on both days until it does (operations/delayed-bottles.ts).
   */
  capacityMovingFrom: z.optional(calendarDateSchema),
  refundedAt: z.optional(isoInstant),
  refundId: z.optional(z.string()),
  /** Stored before Stripe is asked (with `refundRequestedAt`), so the refund's webhook finds it. */
  refundReason: z.optional(z.enum([...REFUND_REASONS, 'stripe'])),
  refundRequestedAt: z.optional(isoInstant),
  /** Who asked for the refund (the merchant's email, the operator): the history's actor, whichever path records it. */
  refundRequestedBy: z.optional(z.string()),
  refundRecordedBy: z.optional(z.enum(REFUND_RECORDERS)),
  // Each email an operator's action sends: its state, and when it was sent or refused for good,
  // which the admin page shows (the claim's token and time stay the send-once mechanism's own).
  dispatchEmailState: optionalEmailState,
  dispatchEmailSentAt: z.optional(isoInstant),
  dispatchEmailFailedAt: z.optional(isoInstant),
  delayEmailState: optionalEmailState,
  delayEmailSentAt: z.optional(isoInstant),
  delayEmailFailedAt: z.optional(isoInstant),
  refundEmailState: optionalEmailState,
  refundEmailSentAt: z.optional(isoInstant),
  refundEmailFailedAt: z.optional(isoInstant),
  trackingUpdateEmailState: optionalEmailState,
  trackingUpdateEmailSentAt: z.optional(isoInstant),
  trackingUpdateEmailFailedAt: z.optional(isoInstant),
  partRefundEmailState: optionalEmailState,
  partRefundEmailSentAt: z.optional(isoInstant),
  partRefundEmailFailedAt: z.optional(isoInstant),
  /** The shop's own part refunds, oldest first: each one's sequence number is its Stripe idempotency key's. */
  partRefunds: z.optional(z.array(partRefundSchema)),
  /** A part refund asked of Stripe and not recorded yet (its sequence number): its webhook leaves it to the command. */
  partRefundPending: z.optional(z.number().check(z.int())),
  addressCorrectedEmailState: optionalEmailState,
  addressCorrectedEmailSentAt: z.optional(isoInstant),
  addressCorrectedEmailFailedAt: z.optional(isoInstant),
  pageLinkEmailState: optionalEmailState,
  pageLinkEmailSentAt: z.optional(isoInstant),
  pageLinkEmailFailedAt: z.optional(isoInstant),
});
export type ManagedOrder = z.output<typeof managedOrderSchema>;
