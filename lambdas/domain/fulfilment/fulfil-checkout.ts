import type Stripe from 'stripe';
import { formatDispatchDate, type IsoDate, nextDispatchDate } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { logger } from '../../lib/logger';
import { emitMetric, METRIC_NAMES } from '../../lib/metrics';
import { giveBackSale } from '../capacity/holds';
import {
  type KeptReservation,
  keepSessionReservation,
  returnRefundedSession,
  settleUnpaidSession,
} from '../capacity/session-capacity';
import { reservationOf } from '../capacity/session-reservation';
import { isPaymentLinkSession } from '../checkout/order-metadata';
import {
  assessCheckoutSession,
  type CheckoutAssessment,
  type PaidCheckout,
  type PauseMark,
  toOrderItem,
} from '../checkout/paid-checkout';
import type { SendOnceOutcome } from '../emails/send-email-once';
import { newPageKey } from '../order-page-token';
import { type MerchantPushDeps, pushToMerchants } from '../push/merchant-push';
import type { CapacityStore } from '../storage/capacity-store';
import { takePendingPageKey } from '../storage/debit-records';
import { ACTORS, historyEntry } from '../storage/history';
import type { OrderItem } from '../storage/order';
import { orderKey, type ShopTable } from '../storage/orders-table';
import type { ShopSettings } from '../storage/shop-settings';
import { partialRefundDetail, sendRefundEmail, toRefundedOrderItem } from './refunded-order';
import {
  type EmailClaims,
  type EmailOutcome,
  type OrderEmailDeps,
  sendOrderEmails,
  withEmailsClaimed,
  writeClaimedOrder,
} from './send-order-emails';

export interface FulfilmentDeps extends OrderEmailDeps {
  stripe: Stripe;
  /** DISPATCH_CUTOFF_HOURS, for recomputing the dispatch date. */
  cutoffHours: number;
  /** SHOP_ID: sessions of other deployments are not ours. */
  shopId: string;
  /** The orders table itself, for records that are not orders: a failed Direct Debit's (failed-debit.ts). */
  table: ShopTable;
  /** SITE_URL: where a customer whose Direct Debit failed can order again. */
  siteUrl: string;
  /**
   * The shop's settings, read when a new order is recorded (a missing item reads as open), so an
   * order paid while the shop is paused is kept and flagged (pauseMarkFor).
   */
  shopSettings: () => Promise<ShopSettings>;
  /**
   * The dispatch days' bottles: a completed session's hold becomes a sale there. Absent only in
   * tests of fulfilment alone, where nothing is counted.
   */
  capacity?: CapacityStore | undefined;
  /** The merchants' Web Push sender (ADR 0056); absent in tests of fulfilment alone: no pushes. */
  pushSender?: MerchantPushDeps['pushSender'] | undefined;
}

/**
 * The flag of an order recorded while checkout was closed: the shop paused, or taking requests
 * and the session an ordinary checkout (a request's payment link is how requests mode takes
 * money, so it is not flagged). Such a session completed in the gap `pause` cannot close (paid
 * between its listing and its expire, or made from a create-checkout's cached settings).
 */
export function pauseMarkFor(
  settings: ShopSettings,
  session: { client_reference_id: string | null },
): PauseMark | undefined {
  if (settings.mode === 'open') return undefined;
  if (settings.mode === 'requests' && isPaymentLinkSession(session)) return undefined;
  return { mode: settings.mode, since: settings.modeSince };
}

export type FulfilmentResult =
  /** No marker in the metadata: another sale on the same Stripe account. Nothing done. */
  | { outcome: 'not-ours' }
  /** Not paid (yet): a delayed payment method; `async_payment_succeeded` will follow. Nothing done. */
  | { outcome: 'not-paid'; paymentStatus: string }
  /** Paid, but not what we priced: no order, an error logged and counted for the merchant. */
  | { outcome: 'needs-review'; problems: string[] }
  | {
      outcome: 'fulfilled';
      reference: string;
      /** True when this call wrote the order; false when it already existed. */
      orderCreated: boolean;
      emails: Record<'confirmation' | 'merchantNotice', EmailOutcome>;
    }
  /**
   * The session's order is refunded: Stripe refunded the charge in full before the order was
   * recorded (this call or another wrote it so), or a refund path got there since. No
   * confirmation or new-order notice is sent for it; the refund email is (once).
   */
  | {
      outcome: 'refunded';
      reference: string;
      /** True when this call wrote the order (born refunded). */
      orderCreated: boolean;
      refundEmail: SendOnceOutcome;
    };

/**
 * Turns a paid Checkout Session into exactly one order and one set of emails. The one fulfil
 * function of Stripe's guidance, used by the webhook and the reconciler alike: safe to call any
 * number of times, concurrently, with the same session id.
 *
 * 1. An order already recorded for the session goes straight to the email step (a crashed
 *    earlier attempt may have left emails unsent), with no Stripe call.
 * 2. Otherwise the session is retrieved from Stripe with its line items (an event's payload is
 *    never trusted for money) and checked: ours, paid, and exactly our price for 3, 6 or 9 bottles.
 * 3. The order is written with a conditional put on `ORDER#<session id>`, its two emails already
 *    claimed by this attempt; losing that race means another attempt wrote it, and this one
 *    carries on with the stored order.
 * 4. The emails are sent, each at most once (see sendOrderEmails). A new order's first delivery
 *    costs 5 DynamoDB calls (read, settings read, put, one mark per email), 2 SES calls and 1
 *    Stripe call; a redelivery once both are sent, 1 DynamoDB read.
 *
 * An order paid while the shop is paused (a session `pause` could not close in time) is recorded
 * like any other, never dropped, with a flag the merchant sees in the notice and in `list`
 * (pauseMarkFor); its dispatch date is computed as usual and the merchant refunds or delays it
 * (docs/decisions/0021-orders-paid-while-paused.md). The settings cost one GetItem, on new orders
 * only: a redelivery of a recorded order reads nothing more.
 *
 * A paid session whose charge Stripe has refunded in full (in the Dashboard, before a late
 * `completed` or the reconciler got here) is still exactly one order, written `refunded`
 * (toRefundedOrderItem): no confirmation, no new-order notice, its bottles back on their day, the
 * refund email once. A call that asked Stripe before the refund and then loses its put to such an
 * order reads it back and gives back the bottles it sold; `charge.refunded` moves a paid order it
 * loses to (recordStripeRefund). A recorded order found refunded is never confirmed afterwards. A
 * partial refund leaves the order standing, with the amount on it and in its history.
 *
 * A paid session that does not match our prices is not fulfilled and is not an error to retry:
 * the session will not change however often Stripe redelivers, so the answer is a result, logged
 * as an error with a metric the merchant's alarm watches, for a person to refund or fulfil by hand.
 *
 * @throws Stripe, DynamoDB and SES errors: transient failures the caller turns into a retry.
 */
export async function fulfilCheckout(sessionId: string, deps: FulfilmentDeps): Promise<FulfilmentResult> {
  const existing = await deps.orders.get(sessionId);
  if (existing) return finishOrder(existing, false, deps);

  // The charge gives Stripe's own payment time, and the PaymentIntent a delayed payment's outcome.
  const session = await deps.stripe.checkout.sessions.retrieve(sessionId, {
    expand: ['line_items', 'payment_intent.latest_charge'],
  });
  const assessment = assessCheckoutSession(session, deps.shopId);
  if (assessment.kind !== 'payable') return answerUnfulfilled(sessionId, assessment, session, deps);
  const { checkout } = assessment;
  if (checkout.refund?.full) return recordRefundedCheckout(checkout, session.metadata, deps);
  return recordPaidCheckout(checkout, session, deps);
}

/** A session that makes no order (not ours, not paid yet, not what we priced): logged, and said. */
async function answerUnfulfilled(
  sessionId: string,
  assessment: Exclude<CheckoutAssessment, { kind: 'payable' }>,
  session: Stripe.Checkout.Session,
  deps: FulfilmentDeps,
): Promise<FulfilmentResult> {
  switch (assessment.kind) {
    case 'not-ours':
      return { outcome: 'not-ours' };
    case 'not-paid':
      // A debit pending: the session is complete and its bottles stay sold until it settles or fails.
      // A debit the bank refused keeps none: its `async_payment_failed` (or the reconciler) may
      // have given them back already, and a late `completed` must not take them again.
      if (assessment.status === 'complete' && deps.capacity) {
        const settings = await deps.shopSettings();
        const intent = typeof session.payment_intent === 'object' ? session.payment_intent : undefined;
        await settleUnpaidSession(session.metadata, intent?.status, {
          store: deps.capacity,
          settings: settings.capacity,
          metrics: deps.metrics,
        });
      }
      logger.info('Checkout session not paid yet; no order', {
        sessionId,
        paymentStatus: assessment.paymentStatus,
      });
      return { outcome: 'not-paid', paymentStatus: assessment.paymentStatus };
    case 'needs-review':
      logger.error(
        'Paid checkout session does not match our prices: NOT fulfilled, refund or fulfil by hand',
        {
          alarm: METRIC_NAMES.paidCheckoutNeedsReview,
          sessionId,
          problems: assessment.problems,
        },
      );
      emitMetric(deps.metrics, METRIC_NAMES.paidCheckoutNeedsReview, 1);
      return { outcome: 'needs-review', problems: assessment.problems };
  }
}

/**
 * A paid session's order, written once (its emails claimed by this attempt), then its emails. The
 * bottles are sold before the order is written: a retry after a crash between the two finds them
 * sold and sells nothing twice.
 */
async function recordPaidCheckout(
  checkout: PaidCheckout,
  session: Stripe.Checkout.Session,
  deps: FulfilmentDeps,
): Promise<FulfilmentResult> {
  // Read only for an order about to be written: redeliveries of a recorded order never pay for it.
  const settings = await deps.shopSettings();
  const pause = pauseMarkFor(settings, session);
  const now = deps.now();
  const earliestDispatch = firstDispatchDay(
    checkout,
    nextDispatchDate(now, { cutoffHours: deps.cutoffHours }),
  );
  const sale = deps.capacity
    ? await keepSessionReservation(
        session.metadata,
        { store: deps.capacity, settings: settings.capacity, metrics: deps.metrics },
        earliestDispatch,
      )
    : undefined;
  const pageKey = await pageKeyFor(checkout, deps, now);
  const { order: item, claims } = withEmailsClaimed(
    withPartialRefund(
      // The page key is drawn here, not in the pure mapping: a retry that finds the order keeps its first.
      {
        ...toOrderItem(checkout, { now, cutoffHours: deps.cutoffHours, earliestDispatch }, pause, sale),
        pageKey,
      },
      checkout,
      now,
    ),
    now,
  );
  const { order, created: orderCreated } = await writeClaimedOrder(item, claims, deps, {
    message: 'Order recorded',
    detail: {
      ...(item.placedWhilePaused && { placedWhilePaused: true, pausedMode: item.pausedMode }),
      ...(item.partlyRefundedPence !== undefined && { partlyRefundedPence: item.partlyRefundedPence }),
    },
  });
  if (!orderCreated && order.status === 'refunded') {
    // Lost the race to a refund path that wrote it born refunded (the charge was refunded after
    // this call asked Stripe): the bottles this call just sold are not the order's.
    await giveBackOwnSale(sale, deps);
  }
  return finishOrder(order, orderCreated, deps, orderCreated ? claims : undefined);
}

/**
 * The emails of a recorded order. A refunded one is never confirmed afterwards (nor announced to
 * the merchant as new): its refund email is sent instead, once, and its bottles are back on their
 * day. A call that wrote the order itself holds its claims, and sends what it claimed.
 */
export async function finishOrder(
  order: OrderItem,
  orderCreated: boolean,
  deps: FulfilmentDeps,
  claims?: EmailClaims,
): Promise<FulfilmentResult> {
  if (order.status === 'refunded' && claims === undefined) {
    const refundEmail = await sendRefundEmail(order.sessionId, deps);
    return { outcome: 'refunded', reference: order.reference, orderCreated, refundEmail };
  }
  const pushing = pushNewOrder(order, orderCreated, deps);
  try {
    const emails = await sendOrderEmails(order, deps, claims);
    return { outcome: 'fulfilled', reference: order.reference, orderCreated, emails };
  } finally {
    // Beside the emails, never instead of them: it never throws, and is awaited so a frozen
    // Lambda does not cut it off.
    await pushing;
  }
}

/**
 * The merchants' push of a new order, once (pushToMerchants claims it on the order): tried by the
 * call that wrote the order, or by one that finds its notice email unsent (an earlier attempt
 * stopped); a redelivery of a finished order writes nothing for it.
 */
async function pushNewOrder(order: OrderItem, orderCreated: boolean, deps: FulfilmentDeps): Promise<void> {
  if (deps.pushSender === undefined) return;
  if (!orderCreated && order.merchantNoticeEmailState === 'sent') return;
  await pushToMerchants(
    {
      pk: orderKey(order.sessionId),
      kind: 'order',
      reference: order.reference,
      detail: `${order.bottles} bottles, ${formatGbp(order.totalPence)}, dispatch ${formatDispatchDate(order.dispatchDate)}`,
    },
    { table: deps.table, pushSender: deps.pushSender, now: deps.now },
  );
}

/**
 * A paid session whose charge Stripe refunded in full before its order existed: recorded once, as
 * refunded (toRefundedOrderItem), its bottles given back on their day first, hold or sale (a debit
 * pending sold them), so a crash in between leaves them free, never sold to nobody. No settings
 * read and no pause flag: there is nothing to pack.
 */
async function recordRefundedCheckout(
  checkout: PaidCheckout,
  metadata: Readonly<Record<string, string>> | null,
  deps: FulfilmentDeps,
): Promise<FulfilmentResult> {
  const reservation = reservationOf(metadata);
  if (deps.capacity) await returnRefundedSession(metadata, deps.capacity);
  const now = deps.now();
  const item = {
    ...toRefundedOrderItem(checkout, { now, cutoffHours: deps.cutoffHours }, reservation),
    pageKey: await pageKeyFor(checkout, deps, now),
  };
  const orderCreated = await deps.orders.createIfAbsent(item);
  if (orderCreated) {
    logger.warn('Paid checkout was refunded in Stripe before its order was recorded: recorded as refunded', {
      reference: item.reference,
      bottles: item.bottles,
    });
    const refundEmail = await sendRefundEmail(item.sessionId, deps);
    return { outcome: 'refunded', reference: item.reference, orderCreated, refundEmail };
  }
  // Another attempt wrote it: refunded too, or paid (a `completed` that asked Stripe before the
  // refund). A paid one is the `charge.refunded` path's to move (recordStripeRefund re-reads after
  // this); this call sends only what is due on the stored order.
  const stored = await deps.orders.get(checkout.sessionId);
  if (!stored) throw new Error(`Order ${checkout.sessionId} was reported as existing but cannot be read`);
  return finishOrder(stored, false, deps);
}

/**
 * The first day a new order can go: the next dispatch day from now, or, for a delayed payment, the
 * day the customer was promised while the money was with the bank when that is later, so the
 * success page, the "waiting for your bank" email and the confirmation name one day (ADR 0047).
 * ISO dates compare as strings.
 */
export function firstDispatchDay(checkout: PaidCheckout, nextDay: IsoDate): IsoDate {
  const promised = checkout.promisedDispatchDate;
  return checkout.delayedPayment === true && promised !== undefined && promised > nextDay
    ? promised
    : nextDay;
}

/**
 * A new order's page key: a delayed payment's is the pending record's (takePendingPageKey), so the
 * link its "waiting for your bank" email carried opens the order; a card payment's is new.
 */
function pageKeyFor(checkout: PaidCheckout, deps: FulfilmentDeps, now: Date): Promise<string> {
  return checkout.delayedPayment === true
    ? takePendingPageKey(deps.table, checkout.sessionId, now, newPageKey())
    : Promise.resolve(newPageKey());
}

/** Gives back the sale this call made (when it made one), conditional on it, as every transition is. */
async function giveBackOwnSale(sale: KeptReservation | undefined, deps: FulfilmentDeps): Promise<void> {
  if (sale === undefined || deps.capacity === undefined) return;
  await giveBackSale(deps.capacity, sale.date, sale.hold);
}

/**
 * A charge Stripe has refunded in part before the order was recorded: the order stands (the
 * merchant decides what a partial refund means), with the amount on it and in its history.
 */
function withPartialRefund(order: OrderItem, checkout: PaidCheckout, now: Date): OrderItem {
  if (checkout.refund === undefined || checkout.refund.full) return order;
  logger.warn('Paid checkout was partly refunded in Stripe before its order was recorded: order kept', {
    reference: order.reference,
    refundedPence: checkout.refund.amountPence,
  });
  return {
    ...order,
    partlyRefundedPence: checkout.refund.amountPence,
    history: [
      ...(order.history ?? []),
      historyEntry(
        now.toISOString(),
        ACTORS.stripeDashboard,
        'partly-refunded',
        `${partialRefundDetail(checkout.refund.amountPence, order.totalPence)}, before the order was recorded`,
      ),
    ],
  };
}
