import {
  addDays,
  DISPATCH_WINDOW_WEEKS,
  dispatchDayOfWeekOf,
  type IsoDate,
  nextDispatchDate,
} from '../../../shared/dispatch';
import { logger } from '../../lib/logger';
import { dispatchDaysFrom, holdBottles, holdId, sellHold } from '../capacity/holds';
import { holdStandingChange, releaseStandingChange, sellStandingChange } from '../storage/capacity-changes';
import type { CapacityDay, CapacityStore } from '../storage/capacity-store';
import type { ShopTable } from '../storage/orders-table';
import {
  listActiveStandingOrderIds,
  readStandingOrder,
  type StandingOrderItem,
} from '../storage/standing-orders';
import { comingDeliveries } from './coming-deliveries';

// Coming deliveries hold their bottles (ADR 0060) in each day's `standing` set as `<subscription
// id>:<bottles>`, counted in `taken` so a checkout's one conditional reservation sees them; syncStandingHolds
// makes the days follow the record.

export interface StandingHoldsDeps {
  capacity: CapacityStore;
  cutoffHours: number;
}

/** Closed days still looked at for holds left when their day closed unpaid, or set by a longer window. */
const WEEKS_BACK = 2;
const WEEKS_PAST_WINDOW = 1;

/** The standing order's holds (`<sub>:<bottles>`) among a day's. */
function holdsOf(day: CapacityDay, subscriptionId: string): string[] {
  return [...day.standing].filter((hold) => hold.slice(0, hold.lastIndexOf(':')) === subscriptionId);
}

/**
 * Sets the holds to what the record says, from WEEKS_BACK before the window to WEEKS_PAST_WINDOW after: its
 * bottles on each coming unskipped delivery's day within 8 weeks, nothing elsewhere (all gone when paused or
 * cancelled). Each change is conditional on the hold id, so repeats or two at once move each day once.
 * @returns the days whose holds this call changed.
 */
export async function syncStandingHolds(
  record: StandingOrderItem,
  deps: StandingHoldsDeps,
  now: Date,
): Promise<IsoDate[]> {
  const { cutoffHours } = deps;
  const wanted = new Map<IsoDate, number>();
  for (const { day, skipped } of comingDeliveries(record, now, {
    cutoffHours,
    weeks: DISPATCH_WINDOW_WEEKS,
  })) {
    // Two deliveries on one day (a late payment's) hold both.
    if (!skipped) wanted.set(day, (wanted.get(day) ?? 0) + record.bottles);
  }
  const opens = nextDispatchDate(now, { cutoffHours });
  const first = dispatchDayOfWeekOf(addDays(opens, -7 * WEEKS_BACK));
  const days = dispatchDaysFrom(first, WEEKS_BACK + DISPATCH_WINDOW_WEEKS + WEEKS_PAST_WINDOW);
  const changed = await Promise.all(
    days.map(async (date) => {
      const bottles = wanted.get(date);
      const want = bottles === undefined ? undefined : holdId(record.subscriptionId, bottles);
      const held = holdsOf(await deps.capacity.read(date), record.subscriptionId);
      if (want === undefined && held.length === 0) return false;
      if (want !== undefined && held.length === 1 && held[0] === want) return false;
      // The new hold first, then the old ones go: the bottles are never free between.
      if (want !== undefined && !held.includes(want)) {
        await deps.capacity.apply(date, holdStandingChange(want, holdBottles(want)));
      }
      for (const hold of held.filter((h) => h !== want)) {
        await deps.capacity.apply(date, releaseStandingChange(hold, holdBottles(hold)));
      }
      return true;
    }),
  );
  const moved = days.filter((_, at) => changed[at]);
  if (moved.length > 0) {
    logger.info('Standing order holds set', { subscriptionId: record.subscriptionId, days: moved });
  }
  return moved;
}

/**
 * Sells a renewal under `s<invoice id>:<bottles>`, its hold there becoming the sale in one write so the day
 * never counts both; without a hold, sold like any renewal, over the limit if need be; never sold twice.
 */
export async function sellStandingDelivery(
  store: CapacityStore,
  date: IsoDate,
  sold: { subscriptionId: string; sale: string },
): Promise<void> {
  const day = await store.read(date);
  const [standing] = holdsOf(day, sold.subscriptionId);
  if (standing !== undefined && !day.sales.has(sold.sale)) {
    const change = sellStandingChange(standing, sold.sale, holdBottles(sold.sale), holdBottles(standing));
    if (await store.apply(date, change)) return;
  }
  await sellHold(store, date, sold.sale);
}

/**
 * The reconciler's pass: every active standing order's holds set again (the window rolls each cut-off, and a
 * stopped change heals here). A failure is logged and counted; the next run retries it.
 */
export async function syncEveryStandingOrder(
  deps: StandingHoldsDeps & { table: ShopTable },
  now: Date,
): Promise<{ standingOrders: number; daysChanged: number; failed: number }> {
  const counts = { standingOrders: 0, daysChanged: 0, failed: 0 };
  for (const subscriptionId of await listActiveStandingOrderIds(deps.table)) {
    counts.standingOrders += 1;
    try {
      const record = await readStandingOrder(deps.table, subscriptionId);
      if (record) counts.daysChanged += (await syncStandingHolds(record, deps, now)).length;
    } catch (error) {
      counts.failed += 1;
      logger.error("Could not set a standing order's holds; the next run retries", { subscriptionId, error });
    }
  }
  return counts;
}
