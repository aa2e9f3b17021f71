// What the admin API answers, route by route: one zod schema per answer, its type inferred. The
// admin Lambda's values are typed by these (lambdas/domain/operations/admin-views.ts), the /admin
// page checks what it reads against them, and the CLI reads the same types: one contract.
// zod/mini, like the request schemas, so the admin chunk stays small.
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

/**
 * What happened to an order or request, as its history names it. `paid`: Stripe's payment was
 * recorded (the order was made); `requested`: a customer asked while the shop took requests.
 */
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
 * One line of an order's or request's history, kept on the item itself and written by the same
 * conditional update as the change it records, so it never disagrees with the status. Oldest first.
 * `actor`: the signed-in merchant's email, the operator's AWS identity (an ARN) or
 * "local operator (<user>)" for the CLI, "Stripe" for a payment, "Stripe Dashboard" for a refund
 * the shop did not make, "customer" for a request. `detail`: a short note ("tracking AB 1234 5678
 * GB", "from 2026-11-30, weather", "supply (re_…)").
 */
export const historyEntrySchema = z.object({
  at: instant,
  actor: text,
  action: z.enum(HISTORY_ACTIONS),
  detail: optionalText,
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/**
 * One email of an item: `pending` (due, not sent yet), `sending` (being sent), `sent` (with
 * sentAt), `failed` (SES refused the address for good; with failedAt).
 */
export const adminEmailSchema = z.object({
  kind: z.enum(RECORD_EMAIL_KINDS),
  state: z.enum(['pending', 'sending', 'sent', 'failed']),
  sentAt: optionalInstant,
  failedAt: optionalInstant,
});
export type AdminEmail = z.infer<typeof adminEmailSchema>;

/**
 * The customer's payment in Stripe. `paymentIntentId` is absent on an order recorded without it
 * (the refund finds it from the session). `dashboardUrl`: the payment in the Stripe Dashboard,
 * `https://dashboard.stripe.com/payments/<pi>` (under `/test/` in test mode), or a Dashboard
 * search for the Checkout Session when the payment intent is unknown.
 */
const stripePaymentSchema = z.object({
  checkoutSessionId: text,
  paymentIntentId: optionalText,
  livemode: z.boolean(),
  dashboardUrl: text,
});
export type AdminStripePayment = z.infer<typeof stripePaymentSchema>;

/**
 * What an order and a request both show. Money in integer pence. `deliveryAddress`: the
 * customer's free text, lines separated by "\n". `createdAt`: when the item was recorded.
 * `history`: oldest first; empty on items recorded before history was kept.
 */
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
 * A paid order. `promisedDispatchDate`: the dispatch day shown to the customer before paying.
 * `placedWhilePaused`: paid while the shop was paused or taking requests (the merchant refunds or
 * delays it). `dispatchDayFull`: this order's sale took its dispatch day over its capacity.
 * `refundReason` `stripe`: refunded in the Stripe Dashboard.
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
  /**
   * What a full refund would refund now, in pence: the total less what was refunded in part; 0
   * once refunded. What the refund button and its confirmation name.
   */
  refundablePence: count,
  payment: stripePaymentSchema,
});
export type AdminOrderView = z.infer<typeof adminOrderViewSchema>;

/**
 * An order request (requests mode): nothing paid until the customer pays its link. `holdsUntil`:
 * while it waits for an answer, until when it holds its bottles (then they are back on sale).
 * `paymentLink`: the payment link emailed, while there is one.
 */
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
 * Why the admin API answered 403, for the page to tell the two apart by something steadier than
 * the words: `not-a-merchant`, a signed-in user outside the `merchants` group (sign in as a
 * merchant); `not-through-cloudfront`, a request that did not come through the shop's CloudFront
 * distribution (the origin check: call the site's address, not the API's own).
 */
export const ADMIN_FORBIDDEN_CODES = {
  notAMerchant: 'not-a-merchant',
  notThroughCloudFront: 'not-through-cloudfront',
} as const;

/**
 * Every error: the message to show, for a 400 one message per field of the body or query, and
 * for a 403 the code that says which refusal it is.
 */
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

/**
 * `GET order?reference=` (any case, or a full Checkout Session id): 404 when no order or request
 * has it, 409 when two do (equal but for case: ask with the full session id).
 */
export const adminRecordResponseSchema = z.object({ record: recordViewSchema });

/**
 * One dispatch day's capacity; `capacity` and `left` are null when the day has no limit.
 * `reserved`: bottles held by checkouts not yet paid and by order requests; `standing`: bottles
 * held for standing orders' coming deliveries (absent when none), counted apart from both.
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

/**
 * A row of the capacity table: each coming dispatch day, and every other coming day holding
 * undispatched orders (a Tuesday a delay moved them to), earliest first. `dispatchDay` false: not
 * a day checkout sells, so no limit can be set for it (the weekly default still counts its bottles).
 */
const capacityRowSchema = z.object({ ...capacityRowShape, ...toPackShape, dispatchDay: z.boolean() });
export type AdminCapacityRow = z.infer<typeof capacityRowSchema>;

/** A dispatch day with its undispatched (`paid`) orders, oldest payment first, and its capacity. */
const daySummarySchema = z.object({
  ...capacityRowShape,
  ...toPackShape,
  references: z.array(text),
});
export type AdminDaySummary = z.infer<typeof daySummarySchema>;

/**
 * `updatedAt`: when the mode or the message was last written. `modeSince`: since when the shop
 * has been in this mode; absent when not known (open since before it was kept).
 */
const shopSettingsSchema = z.object({
  mode: z.enum(['open', 'paused', 'requests']),
  message: optionalText,
  updatedAt: optionalInstant,
  modeSince: optionalInstant,
});
export type AdminShopSettingsView = z.infer<typeof shopSettingsSchema>;

/**
 * `GET status`: the shop's mode, the day the merchant packs for next (the earliest day still
 * holding undispatched orders, or the next dispatch day: before `today` when orders were left
 * from a past week), and every other day holding undispatched orders, earliest first: before
 * today (`overdue`) or not (`later`). `requestsWaiting`: order requests waiting for an answer.
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
 * `POST capacity`: the settings now, the coming days' rows, and the days already sold beyond
 * their new limit (nothing is cancelled; they sell no more). `date` is the dispatch day the
 * change applied to (a date in its week is moved to that week's dispatch day), or `default`.
 */
export const adminCapacitySetResponseSchema = z.extend(adminCapacityResponseSchema, {
  date: z.union([date, z.literal('default')]),
  oversold: z.array(z.extend(overLimitSchema, { date })),
});

/** Whether an email was sent by this call: `not-sent` when already sent (or being sent). */
const emailOutcomeSchema = z.enum(['sent', 'not-sent']);
export type AdminEmailOutcome = z.infer<typeof emailOutcomeSchema>;

/**
 * What every action on one order or request answers. `changed` false: it was done already (a
 * second press), and nothing was sent again.
 */
const actionShape = { reference: text, changed: z.boolean(), email: emailOutcomeSchema };

/** An answer about one order that is always a new write (no `changed`): its email and the order after it. */
const orderAnswerShape = { reference: text, email: emailOutcomeSchema, record: adminOrderViewSchema };

/**
 * One order of `POST orders/dispatch`: done (changed or found done), or refused. `changed` false:
 * it was dispatched already (a second press), and nothing was sent again. `plannedFor`: refused
 * because it is planned for that later dispatch day; with `early` it goes now.
 */
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

/**
 * A row of a Click & Drop export that marked nothing: its line in the file, and why. `plannedFor`:
 * its order is planned for that later dispatch day (import again with `early` to send it now).
 */
const unmatchedRowSchema = z.object({
  line: count,
  reference: text,
  trackingNumber: text,
  reason: text,
  plannedFor: optionalDate,
});
export type AdminUnmatchedRow = z.infer<typeof unmatchedRowSchema>;

/**
 * One row of an import's preview and what the import would do with it: `dispatch` (the dispatch
 * email), `trackingUpdate` (the short update email), `unchanged` (nothing sent; `reason` may say
 * why) or `refused` (`reason` says why). `reference` is the order's own when the row names one;
 * `trackingNumber` as stored on a row that goes ahead, as written on a refused one. `plannedFor`: the order's dispatch day, when
 * later than the coming one (refused without `early`).
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

/**
 * `POST orders/tracking-import`: each matched order as dispatch answers it, and the rows that
 * matched none or were refused. With `preview`: `preview` true, `rows` every row of the file and
 * what it would do, `unmatched` the rows it would refuse, `results` empty: nothing changed or sent.
 */
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
 * `POST orders/delay`: orders moved by this call, and every order of the delay emailed by it.
 * `overLimit`: `to` has now sold more than its limit (the moved orders' bottles count there all the
 * same). `closed`: `from`, closed by this delay (its capacity set to 0) so it is not sold again;
 * `before`, its own limit before (POST capacity's `bottles` that reopens it as it was); `message`,
 * all that in words.
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
 * Where "Delay the orders at risk" takes one order at risk: the first working day after its own that
 * the forecast already read does not put at risk, and why ("Wednesday 9 December: −5 °C in Inverness
 * on Monday morning; Tuesday at risk too: …; Wednesday fine"); `to` null: no such day within the
 * forecast, so it is not moved ("No fine day within the forecast: decide by hand. …").
 */
const weatherMoveShape = { to: z.nullable(date), why: text };

/** One order at risk after "Delay the orders at risk": its new day and why, or null and why it stayed. */
export const adminAtRiskMoveSchema = z.object({ reference: text, customerName: text, ...weatherMoveShape });
export type AdminAtRiskMove = z.infer<typeof adminAtRiskMoveSchema>;

/**
 * `POST orders/delay-at-risk`: every order at risk on `from` with where it went and why (or why it
 * stayed: decide by hand); `moved` and `emailed` as a delay's; `overLimit`, each new day now sold
 * past its limit.
 */
export const adminDelayAtRiskResponseSchema = z.object({
  from: date,
  orders: z.array(adminAtRiskMoveSchema),
  moved: z.array(text),
  emailed: z.array(text),
  overLimit: z.optional(z.array(z.extend(overLimitSchema, { date }))),
});

/**
 * `POST orders/refund`: whatever is left refunded. A second press is a 409 naming the refund already made. `refundEmail`:
 * who sent the refund email: this call, the Stripe webhook (it may record the refund first), or
 * either of the webhook and another call.
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

/**
 * What a pause or resume of the shop did to the standing orders' renewals: how many were paused
 * (or resumed) at Stripe, and those Stripe refused (the reconciler sets them again within 15 minutes).
 */
const shopRenewalsSchema = z.object({
  changed: count,
  failed: z.array(z.object({ subscriptionId: text, message: text })),
});
export type AdminShopRenewals = z.infer<typeof shopRenewalsSchema>;

/**
 * `POST shop/pause`: the settings written, and what became of the checkouts customers could still
 * pay. `closed`: Checkout Sessions closed (their customers can no longer pay). `paymentLinksKept`:
 * payment links of order requests left open (requests mode). `completedMeanwhile`: completed before
 * they could be closed (their orders are kept, marked placed while paused). `failed`: Stripe would
 * not close these (still payable; pause again). `listingFailed`: the open checkouts could not be
 * listed (pause again).
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

/**
 * `POST requests/decline`: a second press is a 409. `withheld`: its email was due but not sent, and
 * why (one decline email to an address a day, however many requests carry it).
 */
export const adminDeclineResponseSchema = z.object({ ...actionShape, withheld: optionalText });

// `GET dispatch-csv?date=` answers text/csv (Royal Mail Click & Drop's import, an attachment named
// click-and-drop-<date>.csv) and `GET packing-slips?date=` text/html (print it): both for the
// undispatched orders of that dispatch day, or without `date` the day `status` calls next.

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
 * `GET weather?date=`: the weather check of a dispatch day (the coming one without `date`). Before
 * 18:00 London two days ahead it says when it will know. `summary` is the one line `orders status`
 * prints. Each order at risk says where "Delay the orders at risk" would take it (`move`).
 * `forecastKeyProblem`: the stage trades but the check runs on Open-Meteo's free endpoint.
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

/**
 * One standing order (issue 50) in the merchant's list. `status` paused: active at Stripe but no
 * payment taken while its customer (`pausedBy` customer) or the shop's pause (shop) holds it.
 * `nextDelivery`: the paid delivery still to go out, else the day of the coming payment's; absent
 * when none is coming (paused, cancelled). `nextPaymentAt`: when Stripe takes the coming payment.
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

/**
 * `POST standing-orders/cancel`: `changed` false when it was cancelled already (nothing done
 * twice); `email` the customer's cancel email, sent once whoever cancels.
 */
export const adminStandingOrderCancelResponseSchema = z.object({
  changed: z.boolean(),
  email: z.enum(['sent', 'not-sent']),
  standingOrder: adminStandingOrderViewSchema,
});
