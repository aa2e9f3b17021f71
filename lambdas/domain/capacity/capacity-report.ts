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
 * The last dispatch day a checkout placed at `now` can sell: DISPATCH_WINDOW_WEEKS dispatch days from
 * the first it may sell, which is this week's or, past the cut-off, next week's. A day's own limit
 * beyond it would change nothing a customer sees, and one years ahead is a typo.
 */
export function lastSellableDay(now: Date): IsoDate {
  let day = firstComingDispatchDay(now);
  for (let week = 0; week < DISPATCH_WINDOW_WEEKS; week += 1) day = followingDispatchDay(day);
  return day;
}

/**
 * Each of the next `weeks` dispatch days from today: its limit, what checkouts hold, what
 * standing orders hold, what is sold and what is left (never below 0; a day lowered below its sales shows 0 left). One
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
 * Closes a dispatch day checkout could still sell: its own limit set to 0, as `capacity --set 0
 * --date` would, so the merchant sees it in the capacity list and reopens it the same way.
 * Undefined when `date` is past or not a week's dispatch day: checkout sells nothing there anyway.
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

/**
 * What `capacity --set` asks for: a number of bottles, `none` (no limit), or, for one day,
 * `default` (that day follows the weekly default again).
 */
export type CapacityValue = number | 'none' | 'default';

export interface CapacityChangeResult {
  settings: CapacitySettings;
  /** Coming days (within `weeks`) whose sales are already above the limit they now have: nothing is cancelled. */
  oversold: Array<{ date: IsoDate; sold: number; capacity: number }>;
}

/**
 * Sets the weekly default (`date` absent) or one dispatch day's own limit. Lowering a day below
 * what it has sold is allowed: nothing is cancelled, no more is sold there, and the result names
 * the days in that state. A day's change also drops the days already past from the overrides.
 * Each write changes only what it sets (the weekly default, or one day's entry), so changes made
 * at the same moment, by the CLI and the /admin page, all stay.
 * @throws RefusedError for a number out of range, `default` without a day, or a day past or
 * beyond what checkout sells (lastSellableDay).
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
