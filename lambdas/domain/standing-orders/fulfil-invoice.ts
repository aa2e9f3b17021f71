import type Stripe from 'stripe';
import type { IsoDate } from '../../../shared/dispatch';
import { logger } from '../../lib/logger';
import { emitMetric, METRIC_NAMES } from '../../lib/metrics';
import { holdId } from '../capacity/holds';
import { type KeptReservation, keepSessionReservation } from '../capacity/session-capacity';
import { toOrderItem } from '../checkout/paid-checkout';
import {
  type FulfilmentDeps,
  type FulfilmentResult,
  finishOrder,
  pauseMarkFor,
} from '../fulfilment/fulfil-checkout';
import { withEmailsClaimed, writeClaimedOrder } from '../fulfilment/send-order-emails';
import { sellStandingDelivery } from '../standing-deliveries/standing-holds';
import type { OrderItem } from '../storage/order';
import type { ShopSettings } from '../storage/shop-settings';
import {
  assessInvoice,
  type InvoiceAssessment,
  invoiceCustomerId,
  invoiceDispatchDay,
  invoiceSubscriptionId,
  type PaidInvoice,
} from './paid-invoice';
import { recordStandingOrder } from './standing-order-record';

/**
 * Turns a paid invoice of our standing order into exactly one order (`ORDER#<invoice id>`) with a one-off's
 * emails, for the webhook (`invoice.paid`, and a subscription's `completed`) and the reconciler, any number
 * of times in any order. A recorded order goes straight to its emails; else the invoice is retrieved from
 * Stripe (never the event's payload) and checked (assessInvoice), its bottles sold, the record then the order
 * written (a conditional put with its emails claimed; a lost race carries on with the winner's).
 * @throws Stripe, DynamoDB and SES errors: transient failures the caller turns into a retry.
 */
export async function fulfilInvoice(invoiceId: string, deps: FulfilmentDeps): Promise<FulfilmentResult> {
  const existing = await deps.orders.get(invoiceId);
  if (existing) return finishOrder(existing, false, deps);
  const assessment = await retrieveAndAssess(invoiceId, deps);
  switch (assessment.kind) {
    case 'not-ours':
      return { outcome: 'not-ours' };
    case 'not-paid':
      logger.info('Invoice not paid; no order', { invoiceId, status: assessment.status });
      return { outcome: 'not-paid', paymentStatus: assessment.status };
    case 'needs-review':
      logger.error('Paid invoice does not match our prices: NOT fulfilled, refund or fulfil by hand', {
        alarm: METRIC_NAMES.paidCheckoutNeedsReview,
        invoiceId,
        problems: assessment.problems,
      });
      emitMetric(deps.metrics, METRIC_NAMES.paidCheckoutNeedsReview, 1);
      return { outcome: 'needs-review', problems: assessment.problems };
  }
  const paid = assessment.invoice;
  const settings = await deps.shopSettings();
  const now = deps.now();
  const day = invoiceDispatchDay(paid, now, deps.cutoffHours);
  const sale = await sellInvoiceBottles(paid, day, settings, deps);
  const order: OrderItem = {
    ...toOrderItem(
      paid.checkout,
      { now, cutoffHours: deps.cutoffHours, earliestDispatch: day },
      pauseMarkFor(settings, { client_reference_id: null }),
      sale,
    ),
    subscriptionId: paid.subscriptionId,
    repeat: paid.repeat,
  };
  const record = await recordStandingOrder(paid, order.dispatchDate, deps, now);
  // No page key of its own: the confirmation links to the standing order's page (ADR 0059).
  const item = record === undefined ? order : { ...order, standingPageKey: record.pageKey };
  return writeOrder(item, deps, now);
}

/** The invoice and its subscription from Stripe, assessed; the customer read only when the invoice has no email. */
async function retrieveAndAssess(invoiceId: string, deps: FulfilmentDeps): Promise<InvoiceAssessment> {
  const invoice = await deps.stripe.invoices.retrieve(invoiceId);
  const subscriptionId = invoiceSubscriptionId(invoice);
  // An invoice of no subscription is another sale's: ours are all a standing order's.
  if (subscriptionId === undefined) return { kind: 'not-ours' };
  const subscription = await deps.stripe.subscriptions.retrieve(subscriptionId);
  return assessInvoice(invoice, subscription, deps.shopId, await customerEmail(invoice, deps.stripe));
}

async function customerEmail(invoice: Stripe.Invoice, stripe: Stripe): Promise<string | undefined> {
  if (invoice.customer_email) return invoice.customer_email;
  const customerId = invoiceCustomerId(invoice);
  if (customerId === undefined) return undefined;
  const customer = await stripe.customers.retrieve(customerId);
  return 'email' in customer ? (customer.email ?? undefined) : undefined;
}

/**
 * The first payment's bottles are the checkout's reservation (moved as a one-off's if paid late); a renewal's
 * are sold on its day under `s<invoice id>` in place of the standing hold, over any limit (ADR 0060).
 */
async function sellInvoiceBottles(
  paid: PaidInvoice,
  day: IsoDate,
  settings: ShopSettings,
  deps: FulfilmentDeps,
): Promise<KeptReservation | undefined> {
  if (!deps.capacity) return undefined;
  if (paid.first) {
    return keepSessionReservation(
      paid.subscriptionMetadata,
      { store: deps.capacity, settings: settings.capacity, metrics: deps.metrics },
      day,
    );
  }
  const hold = holdId(`s${paid.checkout.sessionId}`, paid.checkout.quote.bottles);
  await sellStandingDelivery(deps.capacity, day, { subscriptionId: paid.subscriptionId, sale: hold });
  return { date: day, hold };
}

/** The conditional put, its emails claimed in it; a lost race sends the stored order's. */
async function writeOrder(item: OrderItem, deps: FulfilmentDeps, now: Date): Promise<FulfilmentResult> {
  const { order: claimed, claims } = withEmailsClaimed(item, now);
  const { order, created: orderCreated } = await writeClaimedOrder(claimed, claims, deps, {
    message: 'Standing order delivery recorded',
    detail: { subscriptionId: item.subscriptionId },
  });
  return finishOrder(order, orderCreated, deps, orderCreated ? claims : undefined);
}
