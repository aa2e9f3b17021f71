// What the admin API answers, one zod schema per route: the Lambda, the /admin page and the CLI
// share this contract. zod/mini keeps the admin chunk small.
import * as z from 'zod/mini';
import { closedDaySchema } from './closed-day';
import { RECORD_EMAIL_KINDS } from './email-kinds';
import { overLimitSchema } from './over-limit';
import { ORDER_STATUSES, REQUEST_STATUSES } from './record-status';

/** A day as `YYYY-MM-DD` (London). */
const date = z.string();
/** An instant as ISO 8601 in UTC. */
const instant = z.string();
const text = z.string();
const count = z.number();
const optionalText = z.optional(text);
const optionalInstant = z.optional(instant);
const optionalDate = z.optional(date);

/** An item's history actions; `paid`: the order was made, `requested`: asked in requests mode. */
export const HISTORY_ACTIONS = [
  'paid',
  'dispatched',
  'delayed',
  'refunded',
  // Part of the payment refunded in Stripe: the order stands (its detail says how much).
  'partly-refunded',
  // A tracking number added or corrected after dispatch (its detail: the new number, and the old).
  'tracking-updated',
  // The delivery address or phone corrected before packing (its detail holds before and after).
  'address-corrected',
  'requested',
  'payment-link-sent',
  'declined',
  // The order page's link revoked by the merchant, and a new one emailed to the customer.
  'page-link-revoked',
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/**
 * One history line, written by the same conditional update as its change, so it never disagrees
 * with the status. `actor`: merchant email, operator ARN, "Stripe", "Stripe Dashboard" or "customer".
 */
export const historyEntrySchema = z.object({
  at: instant,
  actor: text,
  action: z.enum(HISTORY_ACTIONS),
  detail: optionalText,
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** One email of an item; `failed`: SES refused the address for good. */
export const adminEmailSchema = z.object({
  kind: z.enum(RECORD_EMAIL_KINDS),
  state: z.enum(['pending', 'sending', 'sent', 'failed']),
  sentAt: optionalInstant,
  failedAt: optionalInstant,
});
export type AdminEmail = z.infer<typeof adminEmailSchema>;

/**
 * `paymentIntentId` is absent on orders recorded without it (the refund finds it from the session);
 * `dashboardUrl` then searches the Dashboard for the Checkout Session.
 */
const stripePaymentSchema = z.object({
  checkoutSessionId: text,
  paymentIntentId: optionalText,
  livemode: z.boolean(),
  dashboardUrl: text,
});
export type AdminStripePayment = z.infer<typeof stripePaymentSchema>;

/** What orders and requests share; `history` is empty on items recorded before it was kept. */
const recordBase = {
  reference: text,
  dispatchDate: date,
  bottles: count,
  unitPricePence: count,
  subtotalPence: count,
  shippingPence: count,
  totalPence: count,
  customerName: text,
  customerEmail: text,
  customerPhone: text,
  deliveryAddress: text,
  postcode: text,
  createdAt: instant,
  emails: z.array(adminEmailSchema),
  history: z.array(historyEntrySchema),
};

const orderStatus = z.enum(ORDER_STATUSES);

/** One part refund the shop made: some bottles, the delivery, or both. */
const partRefundSchema = z.object({
  refundId: text,
  pence: count,
  bottles: count,
  delivery: z.boolean(),
  reason: z.enum(['supply', 'doa', 'other']),
  at: instant,
});

/**
 * `placedWhilePaused`: paid while paused or taking requests (the merchant refunds or delays it).
 * `dispatchDayFull`: this sale took its day over capacity. `refundReason` `stripe`: the Dashboard's.
 */
export const adminOrderViewSchema = z.object({
  ...recordBase,
  kind: z.literal('order'),
  status: orderStatus,
  paidAt: instant,
  promisedDispatchDate: optionalDate,
  placedWhilePaused: z.boolean(),
  pausedMode: z.optional(z.enum(['paused', 'requests'])),
  dispatchDayFull: z.optional(overLimitSchema),
  dispatchedAt: optionalInstant,
  trackingNumber: optionalText,
  delayedFrom: optionalDate,
  delayReason: z.optional(z.enum(['weather', 'supply', 'other'])),
  delayedAt: optionalInstant,
  refundedAt: optionalInstant,
  refundId: optionalText,
  refundReason: z.optional(z.enum(['supply', 'doa', 'other', 'stripe'])),
  /** Refunded in part so far (the shop's part refunds and the Dashboard's), in pence. */
  partlyRefundedPence: z.optional(count),
  /** The shop's own part refunds, oldest first. */
  partRefunds: z.optional(z.array(partRefundSchema)),
  /** What a full refund would refund now: the total less part refunds; 0 once refunded. */
  refundablePence: count,
  payment: stripePaymentSchema,
});
export type AdminOrderView = z.infer<typeof adminOrderViewSchema>;

/** An order request: nothing paid until its link is; `holdsUntil`: when its bottles go back on sale. */
export const adminRequestViewSchema = z.object({
  ...recordBase,
  kind: z.literal('request'),
  status: z.enum(REQUEST_STATUSES),
  holdsUntil: optionalInstant,
  invitedAt: optionalInstant,
  paymentLink: z.optional(z.object({ url: text, expiresAt: instant, checkoutSessionId: text })),
  declinedAt: optionalInstant,
});
export type AdminRequestView = z.infer<typeof adminRequestViewSchema>;

const recordViewSchema = z.union([adminOrderViewSchema, adminRequestViewSchema]);
export type AdminRecordView = z.infer<typeof recordViewSchema>;

/**
 * Why a 403, steadier than its words: `not-a-merchant` (outside the `merchants` group) or
 * `not-through-cloudfront` (the origin check: call the site's address, not the API's).
 */
export const ADMIN_FORBIDDEN_CODES = {
  notAMerchant: 'not-a-merchant',
  notThroughCloudFront: 'not-through-cloudfront',
} as const;

/** Every error: for a 400 one message per field, for a 403 the code of the refusal. */
export const adminErrorSchema = z.object({
  error: text,
  /** A 409 refusing to dispatch an order planned for this later day: sent again with `early`, it goes. */
  plannedFor: optionalDate,
  code: z.optional(z.enum([ADMIN_FORBIDDEN_CODES.notAMerchant, ADMIN_FORBIDDEN_CODES.notThroughCloudFront])),
  fields: z.optional(z.record(z.string(), z.string())),
});
export type AdminErrorResponse = z.infer<typeof adminErrorSchema>;

/** `GET orders?status=&dispatch=&q=`: newest first. */
export const adminListResponseSchema = z.object({ records: z.array(recordViewSchema) });

/** `GET order?reference=` (any case, or a session id): 404 when none has it, 409 when two do. */
export const adminRecordResponseSchema = z.object({ record: recordViewSchema });

/**
 * One day's capacity; `capacity` and `left` null: no limit. `reserved`: unpaid checkouts and
 * requests; `standing`: standing orders' coming deliveries, counted apart.
 */
const capacityRowShape = {
  date,
  capacity: z.nullable(count),
  reserved: count,
  standing: z.optional(count),
  sold: count,
  left: z.nullable(count),
};
/** A day's undispatched (`paid`) orders and their bottles. */
const toPackShape = { orders: count, bottles: count };

/** `dispatchDay` false: a day a delay moved orders to; no limit can be set for it. */
const capacityRowSchema = z.object({ ...capacityRowShape, ...toPackShape, dispatchDay: z.boolean() });
export type AdminCapacityRow = z.infer<typeof capacityRowSchema>;

/** A dispatch day with its undispatched (`paid`) orders, oldest payment first, and its capacity. */
const daySummarySchema = z.object({
  ...capacityRowShape,
  ...toPackShape,
  references: z.array(text),
});
export type AdminDaySummary = z.infer<typeof daySummarySchema>;

/** `modeSince`: absent when not known (open since before it was kept). */
const shopSettingsSchema = z.object({
  mode: z.enum(['open', 'paused', 'requests']),
  message: optionalText,
  updatedAt: optionalInstant,
  modeSince: optionalInstant,
});
export type AdminShopSettingsView = z.infer<typeof shopSettingsSchema>;

/**
 * `GET status`: the mode, the day to pack next (before `today` when orders were left from a past
 * week), and every other day holding undispatched orders, as `overdue` or `later`.
 */
export const adminStatusResponseSchema = z.object({
  shop: shopSettingsSchema,
  today: date,
  next: daySummarySchema,
  overdue: z.array(daySummarySchema),
  later: z.array(daySummarySchema),
  requestsWaiting: count,
});
export type AdminStatusResponse = z.infer<typeof adminStatusResponseSchema>;

/** The capacity settings: the weekly default and each day's own limit (null: no limit). */
const capacitySettingsSchema = z.object({
  weekly: z.nullable(count),
  days: z.record(date, z.nullable(count)),
});
export type AdminCapacitySettings = z.infer<typeof capacitySettingsSchema>;

/** `GET capacity?weeks=` (1 to 52, default 8): the coming dispatch days, and other days holding orders. */
export const adminCapacityResponseSchema = z.object({
  settings: capacitySettingsSchema,
  rows: z.array(capacityRowSchema),
});
export type AdminCapacityResponse = z.infer<typeof adminCapacityResponseSchema>;

/**
 * `POST capacity`: the settings, the rows, and the days now sold past their limit (nothing is
 * cancelled). `date`: the week's dispatch day the change applied to, or `default`.
 */
export const adminCapacitySetResponseSchema = z.extend(adminCapacityResponseSchema, {
  date: z.union([date, z.literal('default')]),
  oversold: z.array(z.extend(overLimitSchema, { date })),
});

/** Whether an email was sent by this call: `not-sent` when already sent (or being sent). */
const emailOutcomeSchema = z.enum(['sent', 'not-sent']);
export type AdminEmailOutcome = z.infer<typeof emailOutcomeSchema>;

/** What every action on one item answers; `changed` false: done already, nothing sent again. */
const actionShape = { reference: text, changed: z.boolean(), email: emailOutcomeSchema };

/** An answer about one order that is always a new write (no `changed`): its email and the order after it. */
const orderAnswerShape = { reference: text, email: emailOutcomeSchema, record: adminOrderViewSchema };

/** One order of `POST orders/dispatch`; `plannedFor`: refused as planned later (send with `early`). */
const dispatchResultSchema = z.union([
  z.object({ ...actionShape, status: orderStatus, record: adminOrderViewSchema }),
  z.object({ reference: text, refused: text, plannedFor: optionalDate }),
]);
export type AdminDispatchResult = z.infer<typeof dispatchResultSchema>;

/** `POST orders/dispatch`: 200 unless every order was refused (409, `error` every refusal in turn). */
export const adminDispatchResponseSchema = z.object({
  results: z.array(dispatchResultSchema),
  error: optionalText,
});

/** `POST orders/tracking`: the order with its new number; `changed` false when it already had it. */
export const adminTrackingResponseSchema = z.object({ ...actionShape, record: adminOrderViewSchema });

/** A Click & Drop row that marked nothing, and why. */
const unmatchedRowSchema = z.object({
  line: count,
  reference: text,
  trackingNumber: text,
  reason: text,
  plannedFor: optionalDate,
});
export type AdminUnmatchedRow = z.infer<typeof unmatchedRowSchema>;

/**
 * One row of an import's preview and what the import would do with it. `trackingNumber` as stored
 * on a row that goes ahead, as written on a refused one.
 */
const importRowSchema = z.object({
  line: count,
  reference: text,
  trackingNumber: text,
  customerName: optionalText,
  customerEmail: optionalText,
  action: z.enum(['dispatch', 'trackingUpdate', 'unchanged', 'refused']),
  plannedFor: optionalDate,
  reason: optionalText,
});
export type AdminImportRow = z.infer<typeof importRowSchema>;

/** `POST orders/tracking-import`; with `preview` nothing changes: `rows` says what each row would do. */
export const adminTrackingImportResponseSchema = z.object({
  results: z.array(dispatchResultSchema),
  unmatched: z.array(unmatchedRowSchema),
  preview: z.optional(z.boolean()),
  rows: z.optional(z.array(importRowSchema)),
});
export type AdminTrackingImportResponse = z.infer<typeof adminTrackingImportResponseSchema>;

/** `POST orders/refund-part`: the refund made, in pence, and the order after it. */
export const adminPartRefundResponseSchema = z.object({
  ...orderAnswerShape,
  refundId: text,
  pence: count,
});

/**
 * `POST orders/delay`. `overLimit`: `to` now sold past its limit. `closed`: `from` set to 0 so it
 * is not sold again, with its limit `before` (what reopens it as it was).
 */
export const adminDelayResponseSchema = z.object({
  from: date,
  to: date,
  moved: z.array(text),
  emailed: z.array(text),
  overLimit: z.optional(overLimitSchema),
  closed: z.optional(z.extend(closedDaySchema, { message: text })),
});
export type AdminDelayResponse = z.infer<typeof adminDelayResponseSchema>;

/**
 * Where "Delay the orders at risk" takes an order: the first later working day the forecast does
 * not put at risk, and why; `to` null: none within the forecast, decide by hand.
 */
const weatherMoveShape = { to: z.nullable(date), why: text };

/** One order at risk after "Delay the orders at risk": its new day and why, or null and why it stayed. */
export const adminAtRiskMoveSchema = z.object({ reference: text, customerName: text, ...weatherMoveShape });
export type AdminAtRiskMove = z.infer<typeof adminAtRiskMoveSchema>;

/** `POST orders/delay-at-risk`: every order at risk on `from`, where it went and why. */
export const adminDelayAtRiskResponseSchema = z.object({
  from: date,
  orders: z.array(adminAtRiskMoveSchema),
  moved: z.array(text),
  emailed: z.array(text),
  overLimit: z.optional(z.array(z.extend(overLimitSchema, { date }))),
});

/**
 * `POST orders/refund`: whatever is left; a second press is a 409. `refundEmail`: who sent it (the
 * webhook may record the refund first).
 */
export const adminRefundResponseSchema = z.object({
  ...actionShape,
  refundId: text,
  /** What this refund refunded, in pence (Stripe's figure): the total, or what part refunds left. */
  pence: count,
  refundEmail: z.union([
    z.object({
      state: z.literal('sent'),
      by: z.enum(['this run', 'the Stripe webhook', 'the Stripe webhook or another refund request']),
    }),
    z.object({ state: z.enum(['being sent', 'not sent']) }),
  ]),
  status: orderStatus,
  record: adminOrderViewSchema,
});

/** `POST orders/address`: the corrected order; `not-due` when the details were already its own. */
export const adminAddressResponseSchema = z.object({
  ...actionShape,
  email: z.enum(['sent', 'not-sent', 'not-due']),
  record: adminOrderViewSchema,
});

/** `POST orders/page-link`: the order with its new page key; `not-sent` when another run holds the email. */
export const adminPageLinkResponseSchema = z.object(orderAnswerShape);

/** Standing orders' renewals paused or resumed at Stripe; those refused are retried by the reconciler. */
const shopRenewalsSchema = z.object({
  changed: count,
  failed: z.array(z.object({ subscriptionId: text, message: text })),
});
export type AdminShopRenewals = z.infer<typeof shopRenewalsSchema>;

/**
 * `POST shop/pause`: `closed` Checkout Sessions; `paymentLinksKept` (requests mode);
 * `completedMeanwhile` (kept, placed while paused); `failed` and `listingFailed`: pause again.
 */
export const adminPauseResponseSchema = z.object({
  settings: shopSettingsSchema,
  closed: z.array(text),
  paymentLinksKept: z.array(text),
  completedMeanwhile: z.array(text),
  failed: z.array(z.object({ sessionId: text, message: text })),
  listingFailed: optionalText,
  renewals: z.optional(shopRenewalsSchema),
});

/** `POST shop/resume`. */
export const adminResumeResponseSchema = z.object({
  settings: shopSettingsSchema,
  renewals: z.optional(shopRenewalsSchema),
});

/** `POST requests/payment`: a second press while the link is valid is a 409. */
export const adminRequestPaymentResponseSchema = z.object({
  ...actionShape,
  url: text,
  expiresAt: instant,
});

/** `POST requests/decline`: `withheld`: why its email was not sent (one a day to an address). */
export const adminDeclineResponseSchema = z.object({ ...actionShape, withheld: optionalText });

// `GET dispatch-csv?date=` (Click & Drop's import) and `GET packing-slips?date=` (HTML) answer the
// undispatched orders of that day, or without `date` the day `status` calls next.

/** One order's weather: "at risk", "watch", "fine", or "unknown" when its forecast could not be seen. */
export const adminOrderWeatherSchema = z.object({
  reference: text,
  customerName: text,
  verdict: z.enum(['fine', 'watch', 'at risk', 'unknown']),
  /** "−4 °C in Aberdeen on Tuesday morning"; for "unknown", why. */
  reason: text,
  /** Orders at risk only: where the delay would take it. */
  move: z.optional(z.object(weatherMoveShape)),
});
export type AdminOrderWeather = z.infer<typeof adminOrderWeatherSchema>;

/**
 * `GET weather?date=`: before 18:00 London two days ahead it says when it will know. `summary`:
 * the line `orders status` prints.
 */
export const adminWeatherResponseSchema = z.discriminatedUnion('state', [
  z.object({
    day: date,
    state: z.literal('not yet'),
    knownFrom: instant,
    summary: text,
    forecastKeyProblem: optionalText,
  }),
  z.object({
    day: date,
    state: z.literal('checked'),
    /** Set when the stage declares commercial use and has no readable Open-Meteo key (ADR 0045). */
    forecastKeyProblem: optionalText,
    forecastSeen: z.boolean(),
    orders: z.array(adminOrderWeatherSchema),
    atRisk: count,
    summary: text,
  }),
]);
export type AdminWeatherResponse = z.infer<typeof adminWeatherResponseSchema>;

/** `GET` and `POST weather/thresholds`: the air temperatures (°C) the weather check judges by. */
export const adminWeatherThresholdsResponseSchema = z.object({
  thresholds: z.object({ atRiskBelow: count, watchBelow: count, watchAbove: count, atRiskAbove: count }),
});
export type AdminWeatherThresholdsResponse = z.infer<typeof adminWeatherThresholdsResponseSchema>;

/**
 * One standing order (issue 50). `paused`: active at Stripe, no payment taken while its customer or
 * the shop's pause (`pausedBy`) holds it.
 */
export const adminStandingOrderViewSchema = z.object({
  subscriptionId: text,
  reference: text,
  status: z.enum(['active', 'paused', 'cancelled']),
  pausedBy: z.optional(z.array(z.enum(['customer', 'shop']))),
  customerName: text,
  customerEmail: text,
  bottles: count,
  repeat: z.enum(['weekly', 'fortnightly']),
  totalPence: count,
  nextDelivery: optionalDate,
  nextPaymentAt: optionalInstant,
  createdAt: instant,
  cancelledAt: optionalInstant,
});
export type AdminStandingOrderView = z.infer<typeof adminStandingOrderViewSchema>;

/** `GET standing-orders`. */
export const adminStandingOrdersResponseSchema = z.object({
  standingOrders: z.array(adminStandingOrderViewSchema),
});

/** `POST standing-orders/cancel`: `changed` false when already cancelled; the email goes once. */
export const adminStandingOrderCancelResponseSchema = z.object({
  changed: z.boolean(),
  email: z.enum(['sent', 'not-sent']),
  standingOrder: adminStandingOrderViewSchema,
});
