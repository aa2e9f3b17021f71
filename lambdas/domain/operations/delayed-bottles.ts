import type { IsoDate } from '../../../shared/dispatch';
import type { OverLimit } from '../../../shared/over-limit';
import { capacityOfDays } from '../capacity/capacity-report';
import { giveBackSale, moveSale } from '../capacity/holds';
import { returnRefundedBottles } from '../capacity/session-capacity';
import { endCapacityMove, startCapacityMove } from '../storage/capacity-moves';
import type { CapacityStore } from '../storage/capacity-store';
import { capacityStoreFromTable } from '../storage/capacity-table';
import type { ManagedOrder } from '../storage/managed-order';
import { getRecord } from '../storage/records';
import type { ShopDeps } from './shop-deps';

// A delayed order's bottles move with it. The order says where they count (`capacityDate`), so a refund finds
// them; during a move it names the day they leave (`capacityMovingFrom`). Each step is conditional, in this
// order, so a stop anywhere leaves what the next run (or a refund) finishes:
//
//   1. the order moves (delayDispatch): `dispatchDate` only; `capacityDate` still says where they are
//   2. the order: capacityDate = new day, capacityMovingFrom = old day    if capacityDate = old day
//   3. the new day: sell late                                             if not sold there (moveSale)
//   4. the old day: give back                                             if sold there
//   5. the order: REMOVE capacityMovingFrom                               if still the same move
//
// 3 before 4: a stop between them counts the bottles on both days rather than on neither (an oversold day).

/** Refunded before dispatch: its bottles go back rather than move (returnRefundedBottles). */
function givesBack(order: ManagedOrder): boolean {
  return order.status === 'refunded' && order.dispatchedAt === undefined;
}

async function reread(order: ManagedOrder, deps: Pick<ShopDeps, 'table'>): Promise<ManagedOrder> {
  const record = await getRecord(deps.table, order.pk);
  if (record?.kind !== 'order') throw new Error(`Order ${order.sessionId} disappeared`);
  return record.order;
}

/** Steps 3 to 5 of a move the order has started (it names `capacityMovingFrom`). */
async function finishMove(
  order: ManagedOrder,
  store: CapacityStore,
  deps: Pick<ShopDeps, 'table'>,
): Promise<ManagedOrder> {
  const { capacityHold: hold, capacityDate: to, capacityMovingFrom: from } = order;
  if (hold === undefined || to === undefined || from === undefined) return order;
  let soldHere = false;
  if (givesBack(order)) {
    // Refunded meanwhile: nothing to move, only to give back, wherever they still count.
    await giveBackSale(store, to, hold);
    await giveBackSale(store, from, hold);
  } else {
    soldHere = (await moveSale(store, hold, { from, to })) !== undefined;
  }
  await endCapacityMove(deps.table, order.pk, from, to);
  const after = await reread(order, deps);
  // A refund recorded between the read above and this sale gave back on `to` before the sale was
  // there: give back again (conditional: nothing happens when the refund came after, and did it).
  if (soldHere && givesBack(after)) await returnRefundedBottles(store, after);
  return after;
}

/**
 * Whether a delay's rerun has bottles of this order to move: counted elsewhere, or a move unfinished. A
 * refunded order has none unless a move was under way; one paid before capacity existed never has.
 */
export function hasBottlesToMove(order: ManagedOrder): boolean {
  if (order.capacityHold === undefined || order.capacityDate === undefined) return false;
  if (order.capacityMovingFrom !== undefined) return true;
  return order.capacityDate !== order.dispatchDate && !givesBack(order);
}

/**
 * Steps 2 to 5 above, from the order read now (strongly consistent). A repeat finishes a move already started
 * (perhaps an earlier delay's), then moves bottles still counted elsewhere, including those of orders delayed
 * before delays moved bottles.
 */
export async function moveDelayedBottles(order: ManagedOrder, deps: Pick<ShopDeps, 'table'>): Promise<void> {
  const store = capacityStoreFromTable(deps.table);
  let current = await reread(order, deps);
  if (!hasBottlesToMove(current)) return;
  if (current.capacityMovingFrom !== undefined) current = await finishMove(current, store, deps);
  if (!hasBottlesToMove(current) || current.capacityDate === undefined) return;
  await startCapacityMove(deps.table, current.pk, current.capacityDate, current.dispatchDate);
  // Read back whether this call or a concurrent one started it: either way it is finished here.
  current = await reread(current, deps);
  if (current.capacityMovingFrom !== undefined) await finishMove(current, store, deps);
}

/** What `day` has sold beyond its limit, read consistently; undefined when it has no limit or is within it. */
export async function overLimitOn(
  deps: Pick<ShopDeps, 'table'>,
  day: IsoDate,
): Promise<OverLimit | undefined> {
  const [row] = await capacityOfDays(deps, [day]);
  if (row === undefined || row.capacity === null || row.sold <= row.capacity) return undefined;
  return { sold: row.sold, capacity: row.capacity };
}
