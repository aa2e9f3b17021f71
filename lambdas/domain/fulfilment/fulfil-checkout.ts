import type Stripe from 'stripe';
import { nextDispatchDate } from '../../../shared/dispatch';
import { logger } from '../../lib/logger';
import { emitMetric, METRIC_NAMES } from '../../lib/metrics';
import type { CapacityStore } from '../capacity/capacity-store';
import { keepSessionReservation } from '../capacity/session-capacity';
import { isPaymentLinkSession } from '../checkout/order-metadata';
import { assessCheckoutSession } from '../checkout/paid-checkout';
import { type PauseMark, toOrderItem } from '../orders/order';
import type { ShopTable } from '../orders/orders-table';
import type { ShopSettings } from '../shop-settings/shop-settings';
import {
  type EmailOutcome,
  type OrderEmailDeps,
  releaseEmailClaims,
  sendOrderEmails,
  withEmailsClaimed,
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
 * A paid session that does not match our prices is not fulfilled and is not an error to retry:
 * the session will not change however often Stripe redelivers, so the answer is a result, logged
 * as an error with a metric the merchant's alarm watches, for a person to refund or fulfil by hand.
 *
 * @throws Stripe, DynamoDB and SES errors: transient failures the caller turns into a retry.
 */
export async function fulfilCheckout(sessionId: string, deps: FulfilmentDeps): Promise<FulfilmentResult> {
  const existing = await deps.orders.get(sessionId);
  if (existing) {
    const emails = await sendOrderEmails(existing, deps);
    return { outcome: 'fulfilled', reference: existing.reference, orderCreated: false, emails };
  }

  // The charge gives Stripe's own payment time, and the PaymentIntent a delayed payment's outcome.
  const session = await deps.stripe.checkout.sessions.retrieve(sessionId, {
    expand: ['line_items', 'payment_intent.latest_charge'],
  });
  const assessment = assessCheckoutSession(session, deps.shopId);
  switch (assessment.kind) {
    case 'not-ours':
      return { outcome: 'not-ours' };
    case 'not-paid':
      // A debit pending: the session is complete and its bottles stay sold until it settles or fails.
      if (assessment.status === 'complete' && deps.capacity) {
        const settings = await deps.shopSettings();
        await keepSessionReservation(session.metadata, {
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
  // Only 'payable' is left here: every other kind returned above, and TypeScript narrows it so.

  // Read only for an order about to be written: redeliveries of a recorded order never pay for it.
  const settings = await deps.shopSettings();
  const pause = pauseMarkFor(settings, session);
  const now = deps.now();
  // The bottles are sold before the order is written: a retry after a crash between the two finds
  // them sold and sells nothing twice.
  const sale = deps.capacity
    ? await keepSessionReservation(
        session.metadata,
        { store: deps.capacity, settings: settings.capacity, metrics: deps.metrics },
        nextDispatchDate(now, { cutoffHours: deps.cutoffHours }),
      )
    : undefined;
  const { order: item, claims } = withEmailsClaimed(
    toOrderItem(assessment.checkout, { now, cutoffHours: deps.cutoffHours }, pause, sale),
    now,
  );
  let orderCreated: boolean;
  try {
    orderCreated = await deps.orders.createIfAbsent(item);
  } catch (error) {
    // The put may have been written with its answer lost (a timeout, a dropped connection): hand
    // its email claims back, or a retry would wait STALE_CLAIM_MS for them. Conditional on our
    // tokens, so it changes nothing when the put never landed.
    await releaseEmailClaims(item, claims, deps);
    throw error;
  }
  // Lost the race: the stored order (written by the winner) is the one the emails describe, and
  // its claims are the winner's.
  const order = orderCreated ? item : await deps.orders.get(sessionId);
  if (!order) throw new Error(`Order ${sessionId} was reported as existing but cannot be read`);
  if (orderCreated) {
    logger.info('Order recorded', {
      reference: order.reference,
      bottles: order.bottles,
      dispatchDate: order.dispatchDate,
      ...(order.placedWhilePaused && { placedWhilePaused: true, pausedMode: order.pausedMode }),
    });
  }
  const emails = await sendOrderEmails(order, deps, orderCreated ? claims : undefined);
  return { outcome: 'fulfilled', reference: order.reference, orderCreated, emails };
}
