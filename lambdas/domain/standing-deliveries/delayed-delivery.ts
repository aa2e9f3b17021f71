import { logger } from '../../lib/logger';
import { capacityStoreFromTable } from '../storage/capacity-table';
import type { ManagedOrder } from '../storage/managed-order';
import type { ShopTable } from '../storage/orders-table';
import { moveNextDelivery, readStandingOrder } from '../storage/standing-orders';
import { syncStandingHolds } from './standing-holds';

/**
 * A delayed paid delivery (ADR 0041) that is the record's next moves the record to the new day; later ones
 * keep their weekly days (ADR 0058) and their holds are set again. Anything else changes nothing, so reruns
 * repeat nothing. Without `cutoffHours` the reconciler sets the holds.
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
