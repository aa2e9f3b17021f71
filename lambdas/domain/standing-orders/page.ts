import {
  DISPATCH_WINDOW_WEEKS,
  dispatchCutoff,
  formatDispatchDate,
  formatLondonDayAndTime,
  type IsoDate,
  londonDate,
} from '../../../shared/dispatch';
import type {
  StandingDelivery,
  StandingOrderAction,
  StandingOrderPageView,
} from '../../../shared/standing-order-page';
import { itemLine, type SellerDetails } from '../emails/common';
import { type OrderPageKeys, OrderPageNotFoundError, readPageToken, samePageKey } from '../order-page-token';
import { comingDeliveries } from '../standing-deliveries/coming-deliveries';
import { repeatText } from '../standing-deliveries/standing-emails';
import type { ManagedOrder } from '../storage/managed-order';
import { orderKey, type ShopTable } from '../storage/orders-table';
import { getRecord } from '../storage/records';
import { readStandingOrder, type StandingOrderItem } from '../storage/standing-orders';

// The standing order's own page (issue 50, ADR 0059): the link in each of its emails names the
// subscription and the record's page key, sealed as an order's link is (ADR 0037).

/**
 * The standing order a token opens, or `undefined` when the token names no subscription (an
 * order's token: the order page's own path opens it).
 * @throws OrderPageNotFoundError for a subscription's token whose record is missing or whose page key is not the token's.
 */
export async function openStandingOrderPage(
  token: string,
  deps: { table: ShopTable; keys: OrderPageKeys },
): Promise<StandingOrderItem | undefined> {
  const claim = readPageToken(token, deps.keys);
  if (claim?.kind !== 'standing-order') return undefined;
  const record = await readStandingOrder(deps.table, claim.subscriptionId);
  if (record === undefined || !samePageKey(record.pageKey, claim.pageKey)) throw new OrderPageNotFoundError();
  return record;
}

/** The paid delivery not yet dispatched (the last paid invoice's order), when it is still to come. */
export interface PaidDelivery {
  day: IsoDate;
  order: ManagedOrder;
}

/** The last paid invoice's order, while it is paid and its day is today or later (else nothing to show or skip). */
export async function paidDeliveryOf(
  record: StandingOrderItem,
  table: ShopTable,
  now: Date,
): Promise<PaidDelivery | undefined> {
  if (record.nextDelivery < londonDate(now)) return undefined;
  const stored = await getRecord(table, orderKey(record.lastInvoiceId));
  if (stored?.kind !== 'order') return undefined;
  return { day: stored.order.dispatchDate, order: stored.order };
}

/** The delivery "skip" applies to now: the first coming one not skipped, whose packing cut-off is ahead. */
export type NextDelivery =
  | { kind: 'paid'; day: IsoDate; order: ManagedOrder }
  | { kind: 'unpaid'; day: IsoDate; index: number; paymentAt: Date };

/**
 * The next delivery the customer may skip: the paid one while it is paid (not refunded, not
 * dispatched) before its cut-off, else the first unpaid one not skipped (within the 8 weeks).
 */
export function nextSkippable(
  record: StandingOrderItem,
  paid: PaidDelivery | undefined,
  now: Date,
  cutoffHours: number,
): NextDelivery | undefined {
  if (record.status !== 'active') return undefined;
  const skipped = new Set(record.skippedDeliveries ?? []);
  if (paid !== undefined && paid.order.status === 'paid' && !skipped.has(paid.day)) {
    if (now < dispatchCutoff(paid.day, cutoffHours)) return { kind: 'paid', ...paid };
  }
  const coming = comingDeliveries(record, now, { cutoffHours, weeks: DISPATCH_WINDOW_WEEKS }).find(
    (delivery) => !delivery.skipped && delivery.day !== paid?.day,
  );
  return coming === undefined
    ? undefined
    : { kind: 'unpaid', day: coming.day, index: coming.index, paymentAt: coming.paymentAt };
}

/** The deliveries the page lists: the paid one still to come, then the unpaid ones in the 8 weeks. */
function deliveriesOf(
  record: StandingOrderItem,
  paid: PaidDelivery | undefined,
  now: Date,
  cutoffHours: number,
): StandingDelivery[] {
  if (record.status === 'cancelled' && paid === undefined) return [];
  const skipped = new Set(record.skippedDeliveries ?? []);
  const list: StandingDelivery[] = [];
  if (paid !== undefined && (paid.order.status === 'paid' || paid.order.status === 'dispatched')) {
    list.push({
      day: paid.day,
      dayText: formatDispatchDate(paid.day),
      state: 'paid',
      paymentText: formatDispatchDate(londonDate(new Date(paid.order.paidAt))),
      reference: paid.order.reference,
    });
  } else if (paid !== undefined && skipped.has(paid.day)) {
    list.push({ day: paid.day, dayText: formatDispatchDate(paid.day), state: 'skipped' });
  }
  for (const coming of comingDeliveries(record, now, { cutoffHours, weeks: DISPATCH_WINDOW_WEEKS })) {
    if (coming.day === paid?.day) continue;
    list.push({
      day: coming.day,
      dayText: formatDispatchDate(coming.day),
      state: coming.skipped ? 'skipped' : 'due',
      ...(!coming.skipped && { paymentText: formatDispatchDate(londonDate(coming.paymentAt)) }),
    });
  }
  return list;
}

/** What the customer may do now. */
function actionsOf(record: StandingOrderItem, next: NextDelivery | undefined): StandingOrderAction[] {
  if (record.status === 'cancelled') return [];
  const actions: StandingOrderAction[] = [];
  if (next !== undefined) actions.push('skip');
  actions.push(record.pausedByCustomerAt === undefined ? 'pause' : 'resume');
  actions.push('quantity', 'cancel');
  return actions;
}

/** The page's answer: the standing order, its coming deliveries and what may be done; never a Stripe id. */
export function standingOrderPageView(
  record: StandingOrderItem,
  paid: PaidDelivery | undefined,
  options: { now: Date; cutoffHours: number; seller: SellerDetails },
): StandingOrderPageView {
  const { now, cutoffHours, seller } = options;
  const next = nextSkippable(record, paid, now, cutoffHours);
  return {
    kind: 'standing-order',
    status:
      record.status === 'cancelled'
        ? 'cancelled'
        : record.pausedByCustomerAt === undefined
          ? 'active'
          : 'paused',
    customerName: record.customerName,
    repeat: record.repeat,
    repeatText: repeatText(record.repeat),
    bottles: record.bottles,
    item: itemLine(record.bottles),
    totalPence: record.totalPence,
    deliverTo: { address: record.deliveryAddress, postcode: record.postcode, phone: record.customerPhone },
    deliveries: deliveriesOf(record, paid, now, cutoffHours),
    ...(record.pausedByShopAt !== undefined &&
      record.status === 'active' && {
        shopPauseText: 'We have paused the shop: no payment is taken and nothing is sent until we reopen.',
      }),
    actions: actionsOf(record, next),
    ...(next !== undefined && {
      skipOpenUntil: formatLondonDayAndTime(dispatchCutoff(next.day, cutoffHours)),
    }),
    seller: { name: seller.name, email: seller.email, address: seller.address },
  };
}

/** The view of the standing order as stored now (after a change, or for the page's read). */
export async function readStandingOrderPageView(
  record: StandingOrderItem,
  deps: { table: ShopTable; now: () => Date; cutoffHours: number; seller: SellerDetails },
): Promise<StandingOrderPageView> {
  const now = deps.now();
  const paid = await paidDeliveryOf(record, deps.table, now);
  return standingOrderPageView(record, paid, { now, cutoffHours: deps.cutoffHours, seller: deps.seller });
}
