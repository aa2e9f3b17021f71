import type { AdminCapacityRow, AdminDaySummary, AdminStatusResponse } from '../../../shared/admin-responses';
import {
  dispatchDayOfWeekOf,
  firstComingDispatchDay,
  type IsoDate,
  londonDate,
} from '../../../shared/dispatch';
import { type CapacityRow, capacityOfDays } from '../capacity/capacity-report';
import { dispatchDaysFrom } from '../capacity/holds';
import type { ManagedOrder } from '../storage/managed-order';
import { readShopSettings } from '../storage/settings-store';
import { settingsView } from './admin-views';
import { daysAround, packingDayAmong, undispatchedAndRequested, undispatchedOn } from './listing';
import type { ShopDeps } from './shop-deps';

/** A day's undispatched orders and its capacity, as one summary. */
function daySummary(
  day: IsoDate,
  orders: readonly ManagedOrder[],
  row: CapacityRow | undefined,
): AdminDaySummary {
  return {
    date: day,
    orders: orders.length,
    bottles: orders.reduce((sum, order) => sum + order.bottles, 0),
    references: orders.map((order) => order.reference),
    capacity: row?.capacity ?? null,
    reserved: row?.reserved ?? 0,
    ...(row?.standing !== undefined && { standing: row.standing }),
    sold: row?.sold ?? 0,
    left: row?.left ?? null,
  };
}

/**
 * The merchant's week (`orders status`, the admin's first view): mode and message, the next day to pack with
 * its orders and capacity, every other day in the window still holding undispatched orders, requests waiting.
 */
export async function shopWeek(deps: Pick<ShopDeps, 'table' | 'now'>): Promise<AdminStatusResponse> {
  // One clock for every read, so the days read and the next day to pack agree.
  const now = deps.now();
  const once = { ...deps, now: () => now };
  const [settings, { waiting, requested }] = await Promise.all([
    readShopSettings(deps.table, true),
    undispatchedAndRequested(once),
  ]);
  const next = packingDayAmong(waiting, now);
  const today = londonDate(now);
  const others = waiting.filter((w) => w.day !== next);
  const rows = new Map(
    (await capacityOfDays(once, [next, ...others.map((w) => w.day)])).map((row) => [row.date, row]),
  );
  const summary = (day: IsoDate, orders: readonly ManagedOrder[]) => daySummary(day, orders, rows.get(day));
  return {
    shop: settingsView(settings),
    today,
    next: summary(next, waiting.find((w) => w.day === next)?.orders ?? []),
    overdue: others.filter((w) => w.day < today).map((w) => summary(w.day, w.orders)),
    later: others.filter((w) => w.day >= today).map((w) => summary(w.day, w.orders)),
    requestsWaiting: requested,
  };
}

/**
 * The next `weeks` dispatch days, and every other day to the last one's week end holding undispatched orders
 * (a delay's Tuesday), earliest first, with what is left to pack: a day holding orders is never left out.
 */
export async function capacityWeeks(
  deps: Pick<ShopDeps, 'table' | 'now'>,
  weeks: number,
): Promise<AdminCapacityRow[]> {
  const now = deps.now();
  const dispatchDays = dispatchDaysFrom(firstComingDispatchDay(now), weeks);
  // Every day from today of a week that dispatches by the last dispatch day: after a Tuesday's week
  // (a bank holiday Monday), its Monday six days on is the next week's, not this window's.
  const last = dispatchDays.at(-1) ?? londonDate(now);
  const calendar = daysAround(now, 0, weeks + 1).filter((day) => dispatchDayOfWeekOf(day) <= last);
  const waiting = new Map((await undispatchedOn(calendar, deps)).map((w) => [w.day, w.orders]));
  const days = [...new Set([...dispatchDays, ...waiting.keys()])].sort();
  return (await capacityOfDays(deps, days)).map((row) => {
    const orders = waiting.get(row.date) ?? [];
    return {
      ...row,
      orders: orders.length,
      bottles: orders.reduce((sum, order) => sum + order.bottles, 0),
      dispatchDay: dispatchDayOfWeekOf(row.date) === row.date,
    };
  });
}
