import type { AdminStandingOrdersQuery } from '../../../shared/admin-requests';
import type { AdminStandingOrderView } from '../../../shared/admin-responses';
import { londonDate } from '../../../shared/dispatch';
import { orderReference } from '../../../shared/order-reference';
import { comingDeliveries } from '../standing-deliveries/coming-deliveries';
import type { ShopTable } from '../storage/orders-table';
import { listStandingOrders, type StandingOrderItem } from '../storage/standing-orders';

/** The records' statuses a view's status is read from. */
const STORED_STATUSES = {
  any: ['active', 'cancelled'],
  active: ['active'],
  paused: ['active'],
  cancelled: ['cancelled'],
} as const;

/** The coming deliveries looked at for the next one: the window the capacity holds use. */
const WINDOW_WEEKS = 8;

/**
 * As the merchant's list shows it (issue 50): next delivery is the paid one still to go, else the first
 * coming unpaid one not skipped; none when paused or cancelled.
 */
export function standingOrderView(
  record: StandingOrderItem,
  now: Date,
  cutoffHours: number,
): AdminStandingOrderView {
  const pausedBy = [
    ...(record.pausedByCustomerAt !== undefined ? (['customer'] as const) : []),
    ...(record.pausedByShopAt !== undefined ? (['shop'] as const) : []),
  ];
  const cancelled = record.status === 'cancelled';
  const status = cancelled ? 'cancelled' : pausedBy.length > 0 ? 'paused' : 'active';
  const coming = comingDeliveries(record, now, { cutoffHours, weeks: WINDOW_WEEKS }).find(
    (delivery) => !delivery.skipped,
  );
  const paidComing = record.nextDelivery >= londonDate(now) && !cancelled;
  const nextDelivery = paidComing ? record.nextDelivery : coming?.day;
  return {
    subscriptionId: record.subscriptionId,
    reference: orderReference(record.subscriptionId),
    status,
    ...(pausedBy.length > 0 && !cancelled && { pausedBy }),
    customerName: record.customerName,
    customerEmail: record.customerEmail,
    bottles: record.bottles,
    repeat: record.repeat,
    totalPence: record.totalPence,
    ...(nextDelivery !== undefined && { nextDelivery }),
    ...(coming !== undefined && { nextPaymentAt: coming.paymentAt.toISOString() }),
    createdAt: record.createdAt,
    ...(record.cancelledAt !== undefined && { cancelledAt: record.cancelledAt }),
  };
}

/**
 * The merchant's list: every standing order (or one status's), newest first, or by next delivery
 * (those without one last, newest first among them).
 */
export async function merchantStandingOrders(
  query: AdminStandingOrdersQuery,
  deps: { table: ShopTable; now: () => Date; cutoffHours: number },
): Promise<AdminStandingOrderView[]> {
  const now = deps.now();
  // Paused is an active record with a pause mark: both are read from the active ones.
  const stored = STORED_STATUSES[query.status ?? 'any'];
  const listed = await Promise.all(stored.map((status) => listStandingOrders(deps.table, status)));
  const views = listed
    .flat()
    .map((record) => standingOrderView(record, now, deps.cutoffHours))
    .filter((view) => query.status === undefined || view.status === query.status);
  const newest = (a: AdminStandingOrderView, b: AdminStandingOrderView) =>
    b.createdAt.localeCompare(a.createdAt) || a.subscriptionId.localeCompare(b.subscriptionId);
  if (query.sort !== 'next') return views.sort(newest);
  return views.sort((a, b) => {
    if (a.nextDelivery === b.nextDelivery) return newest(a, b);
    if (a.nextDelivery === undefined) return 1;
    if (b.nextDelivery === undefined) return -1;
    return a.nextDelivery.localeCompare(b.nextDelivery);
  });
}
