import {
  dispatchCutoff,
  formatDispatchDate,
  formatLondonDate,
  formatLondonDayAndTime,
  londonDate,
} from '../../../shared/dispatch';
import type { OrderPageView, TimelineStep } from '../../../shared/order-page';
import { formatGbp } from '../../../shared/pricing';
import { royalMailTrackingUrl } from '../../../shared/royal-mail';
import { itemLine, type SellerDetails } from '../emails/common';
import { ARRIVAL_ADVICE, DELAY_REASON_TEXT } from '../emails/order-updates';
import { type CorrectAddressDeps, correctOrderAddress } from '../operations/correct-address';
import {
  type OrderPageKeys,
  OrderPageNotFoundError,
  readOrderPageToken,
  samePageKey,
} from '../order-page-token';
import { ACTORS } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';
import { orderKey, type ShopTable } from '../storage/orders-table';
import { getRecord } from '../storage/records';

// Thrown by the correction too (a revoke between its token check and its write): one class, one 404.
export { OrderPageNotFoundError };

/**
 * The token's HMAC is checked before any read; then its current page key must be the token's (else revoked).
 * @throws OrderPageNotFoundError for every refusal alike.
 */
export async function openOrderPage(
  token: string,
  deps: { table: ShopTable; keys: OrderPageKeys },
): Promise<ManagedOrder> {
  const claim = readOrderPageToken(token, deps.keys);
  if (claim === undefined) throw new OrderPageNotFoundError();
  const record = await getRecord(deps.table, orderKey(claim.sessionId));
  if (record?.kind !== 'order' || !samePageKey(record.order.pageKey, claim.pageKey)) {
    throw new OrderPageNotFoundError();
  }
  return record.order;
}

/** The order's life so far, oldest first, as the customer would tell it. */
export function orderTimeline(order: ManagedOrder): TimelineStep[] {
  const steps: TimelineStep[] = [
    {
      title: `Paid on ${formatLondonDate(order.paidAt)}`,
      detail: `We received your payment of ${formatGbp(order.totalPence)} and your order is confirmed.`,
    },
  ];
  const today = londonDate(new Date(order.paidAt));
  if (order.delayedFrom !== undefined && order.delayReason !== undefined) {
    steps.push({
      title: `Dispatch moved to ${formatDispatchDate(order.dispatchDate, { today })}`,
      detail: `We moved it from ${formatDispatchDate(order.delayedFrom, { today })} because of ${DELAY_REASON_TEXT[order.delayReason]}.`,
    });
  }
  if (order.status === 'paid') {
    steps.push({
      title: `Dispatch planned for ${formatDispatchDate(order.dispatchDate, { today })}`,
      detail:
        'By Royal Mail 1st Class; most parcels arrive the next day. We email you when it is on its way.',
    });
  }
  if (order.dispatchedAt !== undefined) {
    const tracking = order.trackingNumber;
    steps.push({
      title: `Dispatched on ${formatDispatchDate(londonDate(new Date(order.dispatchedAt)), { today })}`,
      ...(tracking
        ? {
            detail: `Tracking number ${tracking}.`,
            link: { text: `Track ${tracking} with Royal Mail`, href: royalMailTrackingUrl(tracking) },
          }
        : { detail: 'Sent by Royal Mail 1st Class.' }),
    });
  }
  const part = order.partlyRefundedPence ?? 0;
  if (order.status === 'refunded') {
    steps.push({
      title: `Refunded in full${order.refundedAt ? ` on ${formatLondonDate(order.refundedAt)}` : ''}`,
      detail: `All of the ${formatGbp(order.totalPence)} you paid goes back to the card or account you paid with, usually within 5 to 10 working days.`,
    });
  } else if (part > 0) {
    steps.push({
      title: `${formatGbp(part)} refunded`,
      detail: `Part of the ${formatGbp(order.totalPence)} you paid goes back to the card or account you paid with; the rest of your order stands.`,
    });
  }
  return steps;
}

/** Until when the details can still be corrected on the page, or undefined once closed. */
function correctionOpenUntil(order: ManagedOrder, now: Date, cutoffHours: number): string | undefined {
  if (order.status !== 'paid') return undefined;
  const cutoff = dispatchCutoff(order.dispatchDate, cutoffHours);
  return now.getTime() < cutoff.getTime() ? formatLondonDayAndTime(cutoff) : undefined;
}

/** What the page shows: the order, never its Stripe ids, history or email states. */
export function orderPageView(
  order: ManagedOrder,
  options: { now: Date; cutoffHours: number; seller: SellerDetails },
): OrderPageView {
  const until = correctionOpenUntil(order, options.now, options.cutoffHours);
  return {
    reference: order.reference,
    customerName: order.customerName,
    item: itemLine(order.bottles),
    subtotalPence: order.subtotalPence,
    shippingPence: order.shippingPence,
    totalPence: order.totalPence,
    status: order.status,
    deliverTo: { address: order.deliveryAddress, postcode: order.postcode, phone: order.customerPhone },
    timeline: orderTimeline(order),
    ...(order.status === 'dispatched' && { arrivalAdvice: [...ARRIVAL_ADVICE] }),
    ...(until !== undefined && { correctionOpenUntil: until }),
    seller: { name: options.seller.name, email: options.seller.email, address: options.seller.address },
  };
}

/** What the order page's function needs. */
export type OrderPageDeps = CorrectAddressDeps & { keys: OrderPageKeys };

/**
 * The customer's correction: the token opens the order, then the merchant's correction runs
 * (correct-address.ts) as "customer", conditional on the token's page key, so a revoke in between changes
 * nothing. Answers the page.
 * @throws OrderPageNotFoundError for a token that opens nothing, or whose key a revoke replaced first.
 */
export async function correctFromOrderPage(
  token: string,
  details: unknown,
  deps: OrderPageDeps,
): Promise<OrderPageView> {
  const order = await openOrderPage(token, deps);
  // openOrderPage checked the stored key against the token's: the write holds it to that key.
  const result = await correctOrderAddress(
    order,
    details,
    { actor: ACTORS.customer, pageKey: order.pageKey },
    deps,
  );
  return orderPageView(result.order, { now: deps.now(), cutoffHours: deps.cutoffHours, seller: deps.seller });
}
