// What the admin API answers, route by route: the /admin page reads these and the admin Lambda
// builds them (lambdas/domain/operations/admin-views.ts). Types only, so the page's bundle carries
// nothing of this file; the Lambda's values are typed by it, which keeps the two in step.

import type { ClosedDay } from './closed-day';
import type { OverLimit } from './over-limit';

/** A day as `YYYY-MM-DD` (London). */
export type AdminDate = string;
/** An instant as ISO 8601 in UTC. */
export type AdminInstant = string;

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
  // The delivery address or phone corrected before packing (its detail holds before and after).
  'address-corrected',
  'requested',
  'payment-link-sent',
  'declined',
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/**
 * One line of an order's or request's history, kept on the item itself and written by the same
 * conditional update as the change it records, so it never disagrees with the status. Oldest first.
 */
export interface HistoryEntry {
  at: AdminInstant;
  /**
   * Who: the signed-in merchant's email, the operator's AWS identity (an ARN) or
   * "local operator (<user>)" for the CLI, "Stripe" for a payment, "Stripe Dashboard" for a refund
   * the shop did not make, "customer" for a request.
   */
  actor: string;
  action: HistoryAction;
  /** A short note: "tracking AB 1234 5678 GB", "from 2026-11-30, weather", "supply (re_…)". */
  detail?: string;
}

/** Every email the shop tracks on an item. */
export type AdminEmailKind =
  | 'confirmation'
  | 'merchantNotice'
  | 'dispatch'
  | 'delay'
  | 'refund'
  | 'requestReceived'
  | 'requestNotice'
  | 'paymentInvitation'
  | 'decline'
  | 'addressCorrected';

/**
 * One email of an item: `pending` (due, not sent yet), `sending` (being sent), `sent` (with
 * sentAt), `failed` (SES refused the address for good; with failedAt).
 */
export interface AdminEmail {
  kind: AdminEmailKind;
  state: 'pending' | 'sending' | 'sent' | 'failed';
  sentAt?: AdminInstant;
  failedAt?: AdminInstant;
}

/** The customer's payment in Stripe. */
export interface AdminStripePayment {
  checkoutSessionId: string;
  /** Absent on an order recorded without it (the refund finds it from the session). */
  paymentIntentId?: string;
  livemode: boolean;
  /**
   * The payment in the Stripe Dashboard: `https://dashboard.stripe.com/payments/<pi>`, or under
   * `/test/` in test mode; a Dashboard search for the Checkout Session when the payment intent is unknown.
   */
  dashboardUrl: string;
}

/** What an order and a request both show. Money in integer pence. */
interface AdminRecordBase {
  reference: string;
  dispatchDate: AdminDate;
  bottles: number;
  unitPricePence: number;
  subtotalPence: number;
  shippingPence: number;
  totalPence: number;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  /** The customer's free text, lines separated by "\n". */
  deliveryAddress: string;
  postcode: string;
  /** When the item was recorded. */
  createdAt: AdminInstant;
  emails: AdminEmail[];
  /** Oldest first; empty on items recorded before history was kept. */
  history: HistoryEntry[];
}

/** A paid order. */
export interface AdminOrderView extends AdminRecordBase {
  kind: 'order';
  status: 'paid' | 'dispatched' | 'refunded';
  paidAt: AdminInstant;
  /** The dispatch day shown to the customer before paying. */
  promisedDispatchDate?: AdminDate;
  /** Paid while the shop was paused or taking requests: the merchant refunds or delays it. */
  placedWhilePaused: boolean;
  pausedMode?: 'paused' | 'requests';
  /** This order's sale took its dispatch day over its capacity. */
  dispatchDayFull?: { sold: number; capacity: number };
  dispatchedAt?: AdminInstant;
  trackingNumber?: string;
  delayedFrom?: AdminDate;
  delayReason?: 'weather' | 'supply' | 'other';
  delayedAt?: AdminInstant;
  refundedAt?: AdminInstant;
  refundId?: string;
  /** `stripe`: refunded in the Stripe Dashboard. */
  refundReason?: 'supply' | 'doa' | 'other' | 'stripe';
  payment: AdminStripePayment;
}

/** An order request (requests mode): nothing paid until the customer pays its link. */
export interface AdminRequestView extends AdminRecordBase {
  kind: 'request';
  status: 'requested' | 'invited' | 'declined';
  /** While it waits for an answer: until when it holds its bottles (then they are back on sale). */
  holdsUntil?: AdminInstant;
  invitedAt?: AdminInstant;
  /** The payment link emailed, while there is one. */
  paymentLink?: { url: string; expiresAt: AdminInstant; checkoutSessionId: string };
  declinedAt?: AdminInstant;
}

export type AdminRecordView = AdminOrderView | AdminRequestView;

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
export type AdminForbiddenCode = (typeof ADMIN_FORBIDDEN_CODES)[keyof typeof ADMIN_FORBIDDEN_CODES];

/**
 * Every error: the message to show, for a 400 one message per field of the body or query, and
 * for a 403 the code that says which refusal it is.
 */
export interface AdminErrorResponse {
  error: string;
  code?: AdminForbiddenCode;
  fields?: Record<string, string>;
}

/** `GET orders?status=&dispatch=&q=`: newest first. */
export interface AdminListResponse {
  records: AdminRecordView[];
}

/**
 * `GET order?reference=` (any case, or a full Checkout Session id): 404 when no order or request
 * has it, 409 when two do (equal but for case: ask with the full session id).
 */
export interface AdminRecordResponse {
  record: AdminRecordView;
}

/** One dispatch day's capacity; `capacity` and `left` are null when the day has no limit. */
export interface AdminCapacityRow {
  date: AdminDate;
  capacity: number | null;
  /** Bottles held by checkouts not yet paid and by order requests. */
  reserved: number;
  sold: number;
  left: number | null;
}

/** A dispatch day with its undispatched (`paid`) orders, and its capacity. */
export interface AdminDaySummary extends AdminCapacityRow {
  /** Undispatched orders, oldest payment first. */
  orders: number;
  bottles: number;
  references: string[];
}

export interface AdminShopSettingsView {
  mode: 'open' | 'paused' | 'requests';
  message?: string;
  /** When the mode or the message was last written. */
  updatedAt?: AdminInstant;
  /** Since when the shop has been in this mode; absent when not known (open since before it was kept). */
  modeSince?: AdminInstant;
}

/**
 * `GET status`: the shop's mode, the day the merchant packs for next (the earliest day still
 * holding undispatched orders, or the next dispatch day: before `today` when orders were left
 * from a past week), and every other day holding undispatched orders, earliest first: before
 * today (`overdue`) or not (`later`).
 */
export interface AdminStatusResponse {
  shop: AdminShopSettingsView;
  today: AdminDate;
  next: AdminDaySummary;
  overdue: AdminDaySummary[];
  later: AdminDaySummary[];
  /** Order requests waiting for an answer (`requested`). */
  requestsWaiting: number;
}

/** The capacity settings: the weekly default and each day's own limit (null: no limit). */
export interface AdminCapacitySettings {
  weekly: number | null;
  days: Record<AdminDate, number | null>;
}

/** `GET capacity?weeks=` (1 to 52, default 8): the coming dispatch days. */
export interface AdminCapacityResponse {
  settings: AdminCapacitySettings;
  rows: AdminCapacityRow[];
}

/**
 * `POST capacity`: the settings now, the coming days' rows, and the days already sold beyond
 * their new limit (nothing is cancelled; they sell no more). `date` is the dispatch day the
 * change applied to (a date in its week is moved to that week's dispatch day), or `default`.
 */
export interface AdminCapacitySetResponse extends AdminCapacityResponse {
  date: AdminDate | 'default';
  oversold: Array<{ date: AdminDate; sold: number; capacity: number }>;
}

/** Whether an email was sent by this call: `not-sent` when already sent (or being sent). */
export type AdminEmailOutcome = 'sent' | 'not-sent';

/** One order of `POST orders/dispatch`: done (changed or found done), or refused. */
export type AdminDispatchResult =
  | {
      reference: string;
      /** False: it was dispatched already (a second press), and nothing was sent again. */
      changed: boolean;
      email: AdminEmailOutcome;
      status: AdminOrderView['status'];
      record: AdminOrderView;
    }
  | { reference: string; refused: string };

/** `POST orders/dispatch`: 200 unless every order was refused (409, `error` the first refusal). */
export interface AdminDispatchResponse {
  results: AdminDispatchResult[];
  error?: string;
}

/** `POST orders/delay`: orders moved by this call, and every order of the delay emailed by it. */
export interface AdminDelayResponse {
  from: AdminDate;
  to: AdminDate;
  moved: string[];
  emailed: string[];
  /** `to` has now sold more than its limit: the moved orders' bottles count there all the same. */
  overLimit?: OverLimit;
  /**
   * `from`, closed by this delay (its capacity set to 0) so it is not sold again; `before`, its own
   * limit before (POST capacity's `bottles` that reopens it as it was); `message`, all that in words.
   */
  closed?: ClosedDay & { message: string };
}

/** `POST orders/refund`. A second press is a 409 naming the refund already made. */
/** `POST orders/address`: the corrected order; `not-due` when the details were already its own. */
export interface AdminAddressResponse {
  reference: string;
  changed: boolean;
  email: AdminEmailOutcome | 'not-due';
  record: AdminOrderView;
}

export interface AdminRefundResponse {
  reference: string;
  changed: boolean;
  refundId: string;
  email: AdminEmailOutcome;
  /** Who sent the refund email: this call, the Stripe webhook (it may record the refund first), or either of the webhook and another call. */
  refundEmail:
    | {
        state: 'sent';
        by: 'this run' | 'the Stripe webhook' | 'the Stripe webhook or another refund request';
      }
    | { state: 'being sent' | 'not sent' };
  status: AdminOrderView['status'];
  record: AdminOrderView;
}

/** `POST shop/pause`: the settings written, and what became of the checkouts customers could still pay. */
export interface AdminPauseResponse {
  settings: AdminShopSettingsView;
  /** Checkout Sessions closed: their customers can no longer pay. */
  closed: string[];
  /** Payment links of order requests left open (requests mode). */
  paymentLinksKept: string[];
  /** Completed before they could be closed: their orders are kept, marked placed while paused. */
  completedMeanwhile: string[];
  /** Stripe would not close these: still payable; pause again. */
  failed: Array<{ sessionId: string; message: string }>;
  /** The open checkouts could not be listed: pause again. */
  listingFailed?: string;
}

/** `POST shop/resume`. */
export interface AdminResumeResponse {
  settings: AdminShopSettingsView;
}

/** `POST requests/payment`: a second press while the link is valid is a 409. */
export interface AdminRequestPaymentResponse {
  reference: string;
  changed: boolean;
  url: string;
  expiresAt: AdminInstant;
  email: AdminEmailOutcome;
}

/** `POST requests/decline`: a second press is a 409. */
export interface AdminDeclineResponse {
  reference: string;
  changed: boolean;
  email: AdminEmailOutcome;
}

// `GET dispatch-csv?date=` answers text/csv (Royal Mail Click & Drop's import, an attachment named
// click-and-drop-<date>.csv) and `GET packing-slips?date=` text/html (print it): both for the
// undispatched orders of that dispatch day, or without `date` the day `status` calls next.
