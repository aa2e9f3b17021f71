import { addDays, dispatchDayOfWeekOf, type IsoDate, nextDispatchDate } from '../../../shared/dispatch';
import { REPEAT_WEEKS } from '../../../shared/standing-order';
import { logger } from '../../lib/logger';
import { newPageKey } from '../order-page-token';
import { syncStandingHolds } from '../standing-deliveries/standing-holds';
import type { CapacityStore } from '../storage/capacity-store';
import type { ShopTable } from '../storage/orders-table';
import {
  advanceNextDelivery,
  createStandingOrder,
  readStandingOrder,
  type StandingOrderItem,
  standingOrderKey,
} from '../storage/standing-orders';
import type { PaidInvoice } from './paid-invoice';

/**
 * The record for a paid invoice: written once by whichever invoice's fulfilment comes first, then
 * `nextDelivery` moved forward (never back) by later ones; then the holds follow it. Answers the record (its
 * page key is what the confirmation links to).
 */
export async function recordStandingOrder(
  paid: PaidInvoice,
  dispatchDate: IsoDate,
  deps: { table: ShopTable; cutoffHours: number; capacity?: CapacityStore | undefined },
  now: Date,
): Promise<StandingOrderItem | undefined> {
  const item = standingOrderItem(paid, dispatchDate, now, deps.cutoffHours);
  const created = await createStandingOrder(deps.table, item);
  if (created) {
    logger.info('Standing order recorded', {
      subscriptionId: paid.subscriptionId,
      repeat: paid.repeat,
      bottles: item.bottles,
      nextDelivery: dispatchDate,
    });
  } else {
    await advanceNextDelivery(deps.table, paid.subscriptionId, {
      nextDelivery: dispatchDate,
      invoiceId: paid.checkout.sessionId,
      deliveryIndex: paid.delivery.index,
      nextPaymentAt: item.nextPaymentAt,
      nextPaymentDelivery: item.nextPaymentDelivery,
    });
  }
  const record = created ? item : await readStandingOrder(deps.table, paid.subscriptionId);
  if (deps.capacity && record)
    await syncStandingHolds(record, { capacity: deps.capacity, cutoffHours: deps.cutoffHours }, now);
  return record;
}

/** The record as first written; `nextPaymentDelivery`: the day the coming payment will go, when Stripe said when. */
export function standingOrderItem(
  paid: PaidInvoice,
  dispatchDate: IsoDate,
  now: Date,
  cutoffHours: number,
): StandingOrderItem {
  const { checkout } = paid;
  return {
    pk: standingOrderKey(paid.subscriptionId),
    subscriptionId: paid.subscriptionId,
    livemode: checkout.livemode,
    status: 'active',
    repeat: paid.repeat,
    bottles: checkout.quote.bottles,
    totalPence: checkout.quote.totalPence,
    customerName: checkout.customer.name,
    customerEmail: checkout.customer.email,
    customerPhone: checkout.customer.phone,
    deliveryAddress: checkout.customer.address,
    postcode: checkout.customer.postcode,
    nextDelivery: dispatchDate,
    lastInvoiceId: checkout.sessionId,
    firstDelivery: firstDeliveryOf(paid, dispatchDate),
    lastDeliveryIndex: paid.delivery.index,
    pageKey: newPageKey(),
    createdAt: now.toISOString(),
    ...(paid.nextPaymentAt !== undefined && {
      nextPaymentAt: paid.nextPaymentAt.toISOString(),
      nextPaymentDelivery: nextDispatchDate(paid.nextPaymentAt, { cutoffHours }),
    }),
  };
}

/** The checkout's first day, or (none, or written later) the one `index` periods before this one's. */
function firstDeliveryOf(paid: PaidInvoice, dispatchDate: IsoDate): IsoDate {
  if (paid.delivery.first !== undefined) return paid.delivery.first;
  return dispatchDayOfWeekOf(addDays(dispatchDate, -7 * REPEAT_WEEKS[paid.repeat] * paid.delivery.index));
}
