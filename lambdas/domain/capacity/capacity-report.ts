import type { ClosedDay } from '../../../shared/closed-day';
import {
  DISPATCH_WINDOW_WEEKS,
  dispatchDayOfWeekOf,
  firstComingDispatchDay,
  formatDispatchDate,
  type IsoDate,
  londonDate,
} from '../../../shared/dispatch';
import { RefusedError } from '../refusal';
import { type CapacitySettings, limitFor, MAX_DAY_CAPACITY } from '../storage/capacity-settings';
import { capacityStoreFromTable } from '../storage/capacity-table';
import type { ShopTable } from '../storage/orders-table';
import { readShopSettings, writeDayCapacity, writeWeeklyCapacity } from '../storage/settings-store';
import { dispatchDaysFrom, followingDispatchDay, holdBottles } from './holds';

/** One coming dispatch day as the merchant sees it; `capacity` and `left` are null when the day has no limit. */
export interface CapacityRow {
  date: IsoDate;
  capacity: number | null;
  /** Bottles held by checkouts not paid yet (and by order requests). */
  reserved: number;
  /** Bottles held for standing orders' coming deliveries (ADR 0060); absent when none. */
  standing?: number;
  sold: number;
  left: number | null;
}

/**
 * DISPATCH_WINDOW_WEEKS dispatch days from the first a checkout at `now` may sell: a limit beyond changes
 * nothing a customer sees, and one years ahead is a typo.
 */
export function lastSellableDay(now: Date): IsoDate {
  let day = firstComingDispatchDay(now);
  for (let week = 0; week < DISPATCH_WINDOW_WEEKS; week += 1) day = followingDispatchDay(day);
  return day;
}

/**
 * The next `weeks` dispatch days: limit, checkout and standing holds, sold, and left (never below 0). One
 * consistent read per day, and one of the settings.
 */
export async function capacityReport(
  deps: { table: ShopTable; now: () => Date },
  weeks: number,
): Promise<CapacityRow[]> {
  return capacityOfDays(deps, dispatchDaysFrom(firstComingDispatchDay(deps.now()), weeks));
}

/** The capacity rows of the given days, in their order (see capacityReport). */
export async function capacityOfDays(
  deps: { table: ShopTable },
  days: readonly IsoDate[],
): Promise<CapacityRow[]> {
  const settings = await readShopSettings(deps.table, true);
  const store = capacityStoreFromTable(deps.table);
  return Promise.all(
    days.map(async (date) => {
      const day = await store.read(date);
      const limit = limitFor(settings.capacity, date);
      const standing = [...day.standing].reduce((sum, hold) => sum + holdBottles(hold), 0);
      return {
        date,
        capacity: limit ?? null,
        reserved: day.taken - day.sold - standing,
        ...(standing > 0 && { standing }),
        sold: day.sold,
        left: limit === undefined ? null : Math.max(0, limit - day.taken),
      };
    }),
  );
}

/**
 * Closes a day checkout could still sell: its limit 0, as `capacity --set 0 --date` would, so the merchant
 * reopens it the same way. Undefined when past or not a dispatch day: nothing is sold there anyway.
 */
export async function closeDispatchDay(
  deps: { table: ShopTable; now: () => Date },
  date: IsoDate,
): Promise<ClosedDay | undefined> {
  const now = deps.now();
  if (date < firstComingDispatchDay(now) || dispatchDayOfWeekOf(date) !== date) return undefined;
  const own = (await readShopSettings(deps.table, true)).capacity?.days?.[date];
  await writeDayCapacity(deps.table, { date, limit: 0 }, now);
  // A day already at 0 (an earlier run of the same delay closed it) reopens to the weekly default.
  return { date, before: own === undefined || own === 0 ? 'default' : own };
}

/** `capacity --set`: bottles, `none` (no limit), or for one day `default` (the weekly default again). */
export type CapacityValue = number | 'none' | 'default';

export interface CapacityChangeResult {
  settings: CapacitySettings;
  /** Coming days (within `weeks`) whose sales are already above the limit they now have: nothing is cancelled. */
  oversold: Array<{ date: IsoDate; sold: number; capacity: number }>;
}

/**
 * Sets the weekly default (no `date`) or one day's limit. Below what a day sold is allowed (nothing
 * cancelled; the result names such days). Each write changes only what it sets, so concurrent CLI and /admin
 * changes all stay; a day's change also drops past days from the overrides.
 * @throws RefusedError for a number out of range, `default` without a day, or a day past or beyond what
 *   checkout sells (lastSellableDay).
 */
export async function setCapacity(
  deps: { table: ShopTable; now: () => Date },
  change: { value: CapacityValue; date?: IsoDate | undefined },
  weeks: number,
): Promise<CapacityChangeResult> {
  const { value, date } = change;
  if (typeof value === 'number' && !(Number.isInteger(value) && value >= 0 && value <= MAX_DAY_CAPACITY)) {
    throw new RefusedError(`A capacity is a whole number of bottles from 0 to ${MAX_DAY_CAPACITY}, or none.`);
  }
  if (date === undefined) {
    if (value === 'default') {
      throw new RefusedError('default goes with --date: it makes that day follow the weekly default again.');
    }
    await writeWeeklyCapacity(deps.table, value === 'none' ? undefined : value, deps.now());
  } else {
    await setDayCapacity(deps, date, value);
  }
  const settings = (await readShopSettings(deps.table, true)).capacity ?? {};
  const rows = await capacityReport(deps, weeks);
  const oversold = rows.flatMap((row) =>
    row.capacity !== null && row.sold > row.capacity && (date === undefined || row.date === date)
      ? [{ date: row.date, sold: row.sold, capacity: row.capacity }]
      : [],
  );
  return { settings, oversold };
}

/** One day's part of setCapacity: only a day checkout may still sell. */
async function setDayCapacity(
  deps: { table: ShopTable; now: () => Date },
  date: IsoDate,
  value: CapacityValue,
): Promise<void> {
  const first = firstComingDispatchDay(deps.now());
  if (date < first) {
    throw new RefusedError(`${date} is past: its capacity can no longer change anything.`);
  }
  const last = lastSellableDay(deps.now());
  if (date > last) {
    const today = londonDate(deps.now());
    throw new RefusedError(
      `${formatDispatchDate(date, { today })} (${date}) is beyond the ${DISPATCH_WINDOW_WEEKS} weeks checkout sells: the last day it can sell now is ${formatDispatchDate(last, { today })} (${last}). Set that day's capacity once it is within them.`,
    );
  }
  // Past days' own limits can sell nothing more: dropped by the same write.
  const stale = Object.keys((await readShopSettings(deps.table, true)).capacity?.days ?? {}).filter(
    (day) => day < first,
  );
  await writeDayCapacity(
    deps.table,
    { date, limit: value === 'none' ? null : value === 'default' ? undefined : value, stale },
    deps.now(),
  );
}
