import { logger } from '../../lib/logger';
import { capacityStoreFromTable } from '../storage/capacity-table';
import type { ManagedOrder } from '../storage/managed-order';
import type { ShopTable } from '../storage/orders-table';
import { moveNextDelivery, readStandingOrder } from '../storage/standing-orders';
import { syncStandingHolds } from './standing-holds';

/**
 * The merchant delayed a standing order's paid delivery (the weather delay, ADR 0041): when it is
 * the record's next delivery (the last paid invoice's order), the record follows the new day, so
 * the merchant's list and the customer's page show it. Only that delivery moves: the ones after it
 * keep their weekly days (computed from the first delivery, ADR 0058), and their holds are set to
 * the record again. Any order else, or a record moved already, changes nothing: a rerun of the
 * delay repeats nothing. `cutoffHours` absent (a caller without it): the reconciler's next run
 * sets the holds.
 */
export async function followDelayedDelivery(
  order: ManagedOrder,
  deps: { table: ShopTable; now: () => Date; cutoffHours?: number | undefined },
): Promise<boolean> {
  const { subscriptionId } = order;
  if (subscriptionId === undefined || order.delayedFrom === undefined) return false;
  const moved = await moveNextDelivery(deps.table, subscriptionId, {
    invoiceId: order.sessionId,
    to: order.dispatchDate,
  });
  if (!moved) return false;
  logger.info("Standing order's next delivery delayed", { subscriptionId, to: order.dispatchDate });
  const record = await readStandingOrder(deps.table, subscriptionId);
  if (record !== undefined && deps.cutoffHours !== undefined) {
    const holds = { capacity: capacityStoreFromTable(deps.table), cutoffHours: deps.cutoffHours };
    await syncStandingHolds(record, holds, deps.now());
  }
  return true;
}
