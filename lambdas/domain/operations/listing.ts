import { BANK_HOLIDAYS_ENGLAND_AND_WALES } from '../../../shared/bank-holidays.generated';
import { type IsoDate, londonDate, nextDispatchDate } from '../../../shared/dispatch';
import type { ManagedOrder } from '../orders/managed-order';
import { queryDispatchDay, type ShopRecord } from '../orders/records';
import type { ShopDeps } from './shop-deps';

const DAY_MS = 86_400_000;

function addDays(day: IsoDate, days: number): IsoDate {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

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

/** The dispatch days from `weeksBack` weeks before `now` to `weeksAhead` after, newest first. */
export function dispatchDaysAround(now: Date, weeksBack: number, weeksAhead: number): IsoDate[] {
  const days: IsoDate[] = [];
  const start = londonDate(now);
  for (let week = weeksAhead; week >= -weeksBack; week -= 1) {
    days.push(dispatchDayOfWeek(addDays(start, week * 7)));
  }
  return [...new Set(days)];
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
  /** One dispatch day; otherwise the days of `weeksBack` weeks back to 8 weeks ahead. */
  dispatchDate?: IsoDate | undefined;
  weeksBack?: number;
}

/**
 * Orders and requests, newest first, read through the `byDispatchDate` index one dispatch day at
 * a time (never a table scan): one day, or every dispatch day of a window around today.
 */
export async function listRecords(
  options: ListOptions,
  deps: Pick<ShopDeps, 'table' | 'now'>,
): Promise<ShopRecord[]> {
  const days =
    options.dispatchDate !== undefined
      ? [options.dispatchDate]
      : dispatchDaysAround(deps.now(), options.weeksBack ?? 8, 8);
  const records: ShopRecord[] = [];
  for (const day of days) records.push(...(await queryDispatchDay(deps.table, day, options.status)));
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
