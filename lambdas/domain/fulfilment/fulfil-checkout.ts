import type Stripe from 'stripe';
import { formatDispatchDate, type IsoDate, nextDispatchDate } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { logger } from '../../lib/logger';
import { emitMetric, METRIC_NAMES } from '../../lib/metrics';
import { giveBackSale } from '../capacity/holds';
import {
  type KeptReservation,
  keepSessionReservation,
  returnSessionBottles,
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
  /** Read when a new order is recorded, so an order paid while paused is kept and flagged (pauseMarkFor). */
  shopSettings: () => Promise<ShopSettings>;
  /** Where a completed session's hold becomes a sale; absent in tests of fulfilment alone. */
  capacity?: CapacityStore | undefined;
  /** The merchants' Web Push sender (ADR 0056); absent in tests of fulfilment alone: no pushes. */
  pushSender?: MerchantPushDeps['pushSender'] | undefined;
}

/**
 * The flag of an order recorded while checkout was closed (paused, or requests mode and an ordinary checkout,
 * not a request's payment link): a session paid in the gap `pause` cannot close, or from cached settings.
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
   * Stripe refunded the charge in full before the order was recorded, or a refund path got there since: no
   * confirmation or notice, the refund email once.
   */
  | {
      outcome: 'refunded';
      reference: string;
      /** True when this call wrote the order (born refunded). */
      orderCreated: boolean;
      refundEmail: SendOnceOutcome;
    };

/**
 * Turns a paid Checkout Session into exactly one order and one set of emails: Stripe's one fulfil function,
 * for the webhook and the reconciler, safe to call any number of times concurrently. A recorded order goes
 * straight to its emails (a crashed attempt may have left some unsent). Otherwise the session is retrieved
 * from Stripe (an event's payload is never trusted for money), checked, and written by a conditional put on
 * `ORDER#<session id>` with its emails claimed; losing that race carries on with the stored order. Paid while
 * paused: recorded and flagged, never dropped (ADR 0021). Refunded in full before recording: one order
 * written `refunded`, bottles back, the refund email once. A session not matching our prices is a logged
 * result with an alarmed metric, not an error: redelivery cannot change it.
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
      // A pending debit keeps its bottles sold until it settles; a refused one keeps none, as its
      // `async_payment_failed` may have given them back and a late `completed` must not take them again.
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

/** Bottles are sold before the order is written: a retry after a crash in between sells nothing twice. */
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
 * The emails of a recorded order: a refunded one is never confirmed or announced afterwards, its refund email
 * is sent once instead. A call that wrote the order holds its claims, and sends what it claimed.
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

/** The merchants' push of a new order, once (claimed on the order): by its writer or a later call. */
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
 * Refunded in full before its order existed: recorded once as refunded, its bottles given back first so a
 * crash in between leaves them free, never sold to nobody. No pause flag: there is nothing to pack.
 */
async function recordRefundedCheckout(
  checkout: PaidCheckout,
  metadata: Readonly<Record<string, string>> | null,
  deps: FulfilmentDeps,
): Promise<FulfilmentResult> {
  const reservation = reservationOf(metadata);
  if (deps.capacity) await returnSessionBottles(metadata, deps.capacity);
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
  // Another attempt wrote it, refunded or paid; a paid one is the `charge.refunded` path's to move
  // (recordStripeRefund re-reads after this), so this call sends only what is due on the stored order.
  const stored = await deps.orders.get(checkout.sessionId);
  if (!stored) throw new Error(`Order ${checkout.sessionId} was reported as existing but cannot be read`);
  return finishOrder(stored, false, deps);
}

/**
 * The next dispatch day, or for a delayed payment the later day promised while the bank held the money, so
 * the success page and both emails name one day (ADR 0047). ISO dates compare as strings.
 */
export function firstDispatchDay(checkout: PaidCheckout, nextDay: IsoDate): IsoDate {
  const promised = checkout.promisedDispatchDate;
  return checkout.delayedPayment === true && promised !== undefined && promised > nextDay
    ? promised
    : nextDay;
}

/** A delayed payment keeps the pending record's page key: its "waiting for your bank" link opens it. */
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

/** Refunded in part before recording: the order stands (the merchant decides), the amount in its history. */
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
