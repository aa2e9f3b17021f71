import { BANK_HOLIDAYS_ENGLAND_AND_WALES } from '../../../shared/bank-holidays.generated';
import {
  addDays,
  assertBankHolidayCoverage,
  formatDispatchDate,
  type IsoDate,
  isWorkingDay,
  londonDate,
  nextDispatchDate,
  nonWorkingDayKind,
} from '../../../shared/dispatch';
import type { ManagedOrder } from '../orders/managed-order';
import { queryDispatchDay, type ShopRecord } from '../orders/records';
import { RefusedError } from '../refusal';
import type { ShopDeps } from './shop-deps';

/**
 * How far back and ahead the merchant's lists look for undispatched orders: a delay may move
 * orders at most this far ahead, and live animals eight weeks overdue are long past packing.
 */
export const OPEN_ORDER_WEEKS = 8;

/**
 * The dispatch day of the week that holds `day`: its Monday, or the first working day after a
 * bank-holiday Monday (Tuesday after Easter Monday, say). Uses the same rule as checkout.
 */
export function dispatchDayOfWeek(day: IsoDate): IsoDate {
  const monday = addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
  // At noon on the Monday, a cut-off 24 hours after the start of the day picks that week's day.
  return nextDispatchDate(new Date(`${monday}T12:00:00Z`), { cutoffHours: -24 });
}

const HOLIDAYS: ReadonlySet<IsoDate> = new Set(BANK_HOLIDAYS_ENGLAND_AND_WALES);

/**
 * The day a merchant's date means for packing: a working day is itself (a delay may have moved
 * orders to any working day); a weekend day or bank holiday becomes the first dispatch day on or
 * after it, so the bank-holiday Monday of Easter or Christmas week gives that Tuesday.
 */
export function packingDay(day: IsoDate): IsoDate {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  if (weekday !== 0 && weekday !== 6 && !HOLIDAYS.has(day)) return day;
  return nextDispatchDate(new Date(`${day}T12:00:00Z`), { cutoffHours: -24 });
}

/** The next dispatch day on or after today (London): the day the merchant packs for next. */
export function nextDispatchDay(now: Date): IsoDate {
  return nextDispatchDate(now, { cutoffHours: -24 });
}

/** `today` as the merchant's calendar says it. */
export function today(now: Date): IsoDate {
  return londonDate(now);
}

/**
 * Every calendar day from `weeksBack` weeks before `now` to `weeksAhead` after, newest first.
 * Every day, not each week's dispatch day: a delay moves orders to any working day (a Tuesday),
 * and an order dated on one must never drop out of a list.
 */
export function daysAround(now: Date, weeksBack: number, weeksAhead: number): IsoDate[] {
  const start = londonDate(now);
  const days: IsoDate[] = [];
  for (let offset = weeksAhead * 7; offset >= -weeksBack * 7; offset -= 1) days.push(addDays(start, offset));
  return days;
}

/** DynamoDB queries in flight at once when reading many days: quick, and far below any throttle. */
const QUERY_CONCURRENCY = 8;

/** The items of several dispatch days, optionally of one status, in the order of `days`. */
async function queryDays(
  table: ShopDeps['table'],
  days: readonly IsoDate[],
  status?: string,
): Promise<ShopRecord[]> {
  const perDay: ShopRecord[][] = [];
  for (let i = 0; i < days.length; i += QUERY_CONCURRENCY) {
    const batch = days.slice(i, i + QUERY_CONCURRENCY);
    perDay.push(...(await Promise.all(batch.map((day) => queryDispatchDay(table, day, status)))));
  }
  return perDay.flat();
}

/** When a record happened, for sorting newest first: payment for orders, receipt for requests. */
export function recordInstant(record: ShopRecord): string {
  return record.kind === 'order' ? record.order.paidAt : record.request.createdAt;
}

/** When a record was written to the table: the tie-break between equal payment times. */
function recordedAt(record: ShopRecord): string {
  return record.kind === 'order' ? record.order.createdAt : record.request.createdAt;
}

export interface ListOptions {
  status?: string | undefined;
  /** One dispatch day; otherwise every day from `weeksBack` weeks back to 8 weeks ahead. */
  dispatchDate?: IsoDate | undefined;
  weeksBack?: number;
}

/**
 * Orders and requests, newest first, read through the `byDispatchDate` index one day at a time
 * (never a table scan): one day, or every day of a window around today, whatever day an order is
 * dated (moved orders included).
 */
export async function listRecords(
  options: ListOptions,
  deps: Pick<ShopDeps, 'table' | 'now'>,
): Promise<ShopRecord[]> {
  const days =
    options.dispatchDate !== undefined
      ? [options.dispatchDate]
      : daysAround(deps.now(), options.weeksBack ?? OPEN_ORDER_WEEKS, OPEN_ORDER_WEEKS);
  const records = await queryDays(deps.table, days, options.status);
  // Stripe's payment time is whole seconds, so two orders paid in one second tie: the moment each
  // was recorded (milliseconds) breaks the tie.
  return records.sort(
    (a, b) => recordInstant(b).localeCompare(recordInstant(a)) || recordedAt(b).localeCompare(recordedAt(a)),
  );
}

/** The orders to pack on one dispatch day: `paid`, not yet dispatched or refunded, oldest first. */
export async function ordersToPack(day: IsoDate, deps: Pick<ShopDeps, 'table'>): Promise<ManagedOrder[]> {
  const records = await queryDispatchDay(deps.table, day, 'paid');
  return records
    .flatMap((record) => (record.kind === 'order' ? [record.order] : []))
    .sort((a, b) => a.paidAt.localeCompare(b.paidAt) || a.createdAt.localeCompare(b.createdAt));
}

/**
 * The day the merchant packs for next: the earliest day that still holds undispatched orders
 * (one a delay moved to a Tuesday, or one left over from a past week), or else the next dispatch
 * day, whichever comes first.
 */
export async function nextPackingDay(deps: Pick<ShopDeps, 'table' | 'now'>): Promise<IsoDate> {
  const now = deps.now();
  const next = nextDispatchDay(now);
  const days = daysAround(now, OPEN_ORDER_WEEKS, 0).filter((day) => day < next);
  const waiting = await daysHoldingOrders(days, deps);
  return waiting.length > 0 && waiting[0] !== undefined ? waiting[0] : next;
}

/** Of `days`, those holding undispatched (`paid`) orders, earliest first. */
async function daysHoldingOrders(
  days: readonly IsoDate[],
  deps: Pick<ShopDeps, 'table'>,
): Promise<IsoDate[]> {
  const records = await queryDays(deps.table, days, 'paid');
  const held = new Set(records.flatMap((r) => (r.kind === 'order' ? [r.order.dispatchDate] : [])));
  return [...held].sort();
}

/**
 * Refuses a delay that would tell customers something untrue: `to` must be a working day
 * (couriers collect, the shop packs), after `from`, after today, and at most OPEN_ORDER_WEEKS
 * ahead (the bank-holiday data and the lists reach that far).
 * @throws RefusedError with the reason in the merchant's words.
 */
export function checkDelayTarget(from: IsoDate, to: IsoDate, now: Date): void {
  const today = londonDate(now);
  const last = addDays(today, OPEN_ORDER_WEEKS * 7);
  assertBankHolidayCoverage(now, OPEN_ORDER_WEEKS * 7);
  const toText = formatDispatchDate(to, { today });
  if (to <= from) {
    throw new RefusedError(`The new date, ${toText}, must be after ${formatDispatchDate(from, { today })}.`);
  }
  if (to <= today) throw new RefusedError(`The new date, ${toText}, is not in the future.`);
  if (to > last) {
    throw new RefusedError(
      `The new date, ${toText}, is more than ${OPEN_ORDER_WEEKS} weeks ahead: the latest is ${formatDispatchDate(last, { today })}.`,
    );
  }
  if (!isWorkingDay(to)) {
    throw new RefusedError(
      `${toText} is ${nonWorkingDayKind(to)}: couriers collect and the shop dispatches on working days.`,
    );
  }
}

/** The refusal for a delay of a day that holds no undispatched orders, naming the days that do. */
export async function nothingToDelay(
  from: IsoDate,
  deps: Pick<ShopDeps, 'table' | 'now'>,
): Promise<RefusedError> {
  const now = deps.now();
  const today = londonDate(now);
  const days = await daysHoldingOrders(daysAround(now, OPEN_ORDER_WEEKS, OPEN_ORDER_WEEKS).reverse(), deps);
  return new RefusedError(
    `${formatDispatchDate(from, { today })} holds no undispatched orders: nothing to move.${
      days.length > 0
        ? ` Days that do: ${days.map((day) => `${formatDispatchDate(day, { today })} (${day})`).join(', ')}.`
        : ' No day holds undispatched orders.'
    }`,
  );
}

/**
 * Every day from OPEN_ORDER_WEEKS back to OPEN_ORDER_WEEKS ahead that holds undispatched (`paid`)
 * orders, earliest first, each with its orders oldest first: what the merchant still has to pack.
 */
export async function undispatchedByDay(
  deps: Pick<ShopDeps, 'table' | 'now'>,
): Promise<Array<{ day: IsoDate; orders: ManagedOrder[] }>> {
  const records = await queryDays(
    deps.table,
    daysAround(deps.now(), OPEN_ORDER_WEEKS, OPEN_ORDER_WEEKS).reverse(),
    'paid',
  );
  const byDay = new Map<IsoDate, ManagedOrder[]>();
  for (const record of records) {
    if (record.kind !== 'order') continue;
    byDay.set(record.order.dispatchDate, [...(byDay.get(record.order.dispatchDate) ?? []), record.order]);
  }
  return [...byDay]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, orders]) => ({
      day,
      orders: orders.sort(
        (a, b) => a.paidAt.localeCompare(b.paidAt) || a.createdAt.localeCompare(b.createdAt),
      ),
    }));
}

/** The day a record is dated for: an order's dispatch day, or the day a request asks for. */
export function recordDay(record: ShopRecord): IsoDate {
  return record.kind === 'order' ? record.order.dispatchDate : record.request.dispatchDate;
}
