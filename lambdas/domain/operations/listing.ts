import {
  addDays,
  assertBankHolidayCoverage,
  DISPATCH_WINDOW_WEEKS,
  firstComingDispatchDay,
  formatDispatchDate,
  type IsoDate,
  isWorkingDay,
  londonDate,
  nonWorkingDayKind,
} from '../../../shared/dispatch';
import { RefusedError } from '../refusal';
import type { ManagedOrder } from '../storage/managed-order';
import { queryDispatchDay, type ShopRecord, type StatusKeys } from '../storage/records';
import type { ShopDeps } from './shop-deps';

/**
 * Every calendar day from `weeksBack` before `now` to `weeksAhead` after, newest first: not only dispatch
 * days, as a delay moves orders to any working day and an order must never drop out of a list.
 */
export function daysAround(now: Date, weeksBack: number, weeksAhead: number): IsoDate[] {
  const start = londonDate(now);
  const days: IsoDate[] = [];
  for (let offset = weeksAhead * 7; offset >= -weeksBack * 7; offset -= 1) days.push(addDays(start, offset));
  return days;
}

/** DynamoDB queries in flight at once when reading many days: quick, and far below any throttle. */
const QUERY_CONCURRENCY = 8;

/** The items of several dispatch days, optionally of some statuses, in the order of `days`. */
async function queryDays(
  table: ShopDeps['table'],
  days: readonly IsoDate[],
  status?: StatusKeys,
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

/** The order or request a record holds: what a search, a filter or a tie-break reads is on both. */
export const itemOf = (record: ShopRecord) => (record.kind === 'order' ? record.order : record.request);

export interface ListOptions {
  status?: string | undefined;
  /** One dispatch day; otherwise every day from `weeksBack` weeks back to 8 weeks ahead. */
  dispatchDate?: IsoDate | undefined;
  weeksBack?: number;
}

/** Orders and requests, newest first, via `byDispatchDate` a day at a time (never a scan). */
export async function listRecords(
  options: ListOptions,
  deps: Pick<ShopDeps, 'table' | 'now'>,
): Promise<ShopRecord[]> {
  const days =
    options.dispatchDate !== undefined
      ? [options.dispatchDate]
      : daysAround(deps.now(), options.weeksBack ?? DISPATCH_WINDOW_WEEKS, DISPATCH_WINDOW_WEEKS);
  const records = await queryDays(deps.table, days, options.status);
  // Stripe's payment time is whole seconds, so two orders paid in one second tie: the moment each
  // was recorded (milliseconds) breaks the tie.
  return records.sort(
    (a, b) =>
      recordInstant(b).localeCompare(recordInstant(a)) ||
      itemOf(b).createdAt.localeCompare(itemOf(a).createdAt),
  );
}

/** The orders to pack on one dispatch day: `paid`, not yet dispatched or refunded, oldest first. */
export async function ordersToPack(day: IsoDate, deps: Pick<ShopDeps, 'table'>): Promise<ManagedOrder[]> {
  return (await undispatchedOn([day], deps))[0]?.orders ?? [];
}

/** The earliest day still holding undispatched orders (moved, or left over), else the next dispatch day. */
export async function nextPackingDay(deps: Pick<ShopDeps, 'table' | 'now'>): Promise<IsoDate> {
  const now = deps.now();
  // packingDayAmong keeps only the days before the next dispatch day.
  return packingDayAmong(await undispatchedOn(daysAround(now, DISPATCH_WINDOW_WEEKS, 0), deps), now);
}

/**
 * `nextPackingDay` from days already read (earliest first, reaching back DISPATCH_WINDOW_WEEKS): the week's
 * view reads every undispatched day anyway, and a second read of the past weeks cost 57 more queries.
 */
export function packingDayAmong(waiting: ReadonlyArray<{ day: IsoDate }>, now: Date): IsoDate {
  const today = londonDate(now);
  const next = firstComingDispatchDay(now);
  return waiting.find((w) => w.day <= today && w.day < next)?.day ?? next;
}

/**
 * `to` must be a working day after `from` and today, within DISPATCH_WINDOW_WEEKS (the holiday data's reach),
 * or customers would be told something untrue. @throws RefusedError in the merchant's words.
 */
export function checkDelayTarget(from: IsoDate, to: IsoDate, now: Date): void {
  const today = londonDate(now);
  const last = addDays(today, DISPATCH_WINDOW_WEEKS * 7);
  assertBankHolidayCoverage(now, DISPATCH_WINDOW_WEEKS * 7);
  const toText = formatDispatchDate(to, { today });
  if (to <= from) {
    throw new RefusedError(`The new date, ${toText}, must be after ${formatDispatchDate(from, { today })}.`);
  }
  if (to <= today) throw new RefusedError(`The new date, ${toText}, is not in the future.`);
  if (to > last) {
    throw new RefusedError(
      `The new date, ${toText}, is more than ${DISPATCH_WINDOW_WEEKS} weeks ahead: the latest is ${formatDispatchDate(last, { today })}.`,
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
  const today = londonDate(deps.now());
  const days = (await undispatchedByDay(deps)).map((waiting) => waiting.day);
  return new RefusedError(
    `${formatDispatchDate(from, { today })} holds no undispatched orders: nothing to move.${
      days.length > 0
        ? ` Days that do: ${days.map((day) => `${formatDispatchDate(day, { today })} (${day})`).join(', ')}.`
        : ' No day holds undispatched orders.'
    }`,
  );
}

/** A day holding undispatched orders, and those orders, oldest payment first. */
export interface WaitingDay {
  day: IsoDate;
  orders: ManagedOrder[];
}

/** Days within DISPATCH_WINDOW_WEEKS either side holding `paid` orders, earliest first, orders oldest. */
export async function undispatchedByDay(deps: Pick<ShopDeps, 'table' | 'now'>): Promise<WaitingDay[]> {
  return undispatchedOn(daysAround(deps.now(), DISPATCH_WINDOW_WEEKS, DISPATCH_WINDOW_WEEKS), deps);
}

/** Of `days`, those holding undispatched (`paid`) orders, earliest first, each with its orders oldest first. */
export async function undispatchedOn(
  days: readonly IsoDate[],
  deps: Pick<ShopDeps, 'table'>,
): Promise<WaitingDay[]> {
  return undispatchedAmong(await queryDays(deps.table, days, 'paid'));
}

/**
 * `undispatchedByDay` and the requests waiting, in one query a day where two reads cost two: `paid` and
 * `requested` sort apart from every status but `refunded` (between them), which is read and dropped; `invited`
 * and `declined` sort before `paid`, so every request read still waits.
 */
export async function undispatchedAndRequested(
  deps: Pick<ShopDeps, 'table' | 'now'>,
): Promise<{ waiting: WaitingDay[]; requested: number }> {
  const days = daysAround(deps.now(), DISPATCH_WINDOW_WEEKS, DISPATCH_WINDOW_WEEKS);
  const records = await queryDays(deps.table, days, { first: 'paid', last: 'requested' });
  const requested = records.filter((record) => record.kind === 'request').length;
  return { waiting: undispatchedAmong(records), requested };
}

/** The `paid` orders among `records` by day, earliest first, each day's oldest payment first. */
function undispatchedAmong(records: readonly ShopRecord[]): WaitingDay[] {
  const byDay = new Map<IsoDate, ManagedOrder[]>();
  for (const record of records) {
    if (record.kind !== 'order' || record.order.status !== 'paid') continue;
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
