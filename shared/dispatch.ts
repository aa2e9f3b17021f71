import { BANK_HOLIDAYS_COVER_UNTIL, BANK_HOLIDAYS_ENGLAND_AND_WALES } from './bank-holidays.generated';
import { DEFAULT_DISPATCH_CUTOFF_HOURS } from './dispatch-cutoff';

export { DEFAULT_DISPATCH_CUTOFF_HOURS };

/** A calendar day as `YYYY-MM-DD`, the form dispatch dates travel in (metadata, orders, emails). */
export type IsoDate = string;

export interface DispatchOptions {
  /** Wall-clock hours before a dispatch day's 00:00 (London) after which orders go to the next week. */
  cutoffHours?: number;
  /** Bank holidays to avoid; defaults to the generated England and Wales list. */
  bankHolidays?: ReadonlySet<IsoDate>;
}

const DAY_MS = 86_400_000;
const defaultHolidays: ReadonlySet<IsoDate> = new Set(BANK_HOLIDAYS_ENGLAND_AND_WALES);

const HOUR_MS = 3_600_000;

/**
 * London's offset from UTC (BST: last Sunday of March to last Sunday of October, 01:00 UTC), worked
 * out rather than asked of Intl, whose ICU load costs a Lambda cold start about 16 ms (ADR 0034).
 * test/shared/london-clock.test.ts holds it to Intl's Europe/London from 1996 to 2100.
 */
export function londonOffsetMs(instant: number): number {
  const year = new Date(instant).getUTCFullYear();
  return instant >= lastSundayAt0100Utc(year, 2) && instant < lastSundayAt0100Utc(year, 9) ? HOUR_MS : 0;
}

/** 01:00 UTC on the last Sunday of `month` (0 = January) of `year`, as epoch milliseconds. */
function lastSundayAt0100Utc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS + HOUR_MS;
}

/** The London calendar day of an instant. Never the server's UTC day: they differ near midnight in BST. */
export function londonDate(instant: Date): IsoDate {
  return new Date(instant.getTime() + londonOffsetMs(instant.getTime())).toISOString().slice(0, 10);
}

/** London's wall clock from `day`: "36 hours before Monday" is Saturday noon even when clocks change. */
function londonWallClock(day: IsoDate, hoursAfterMidnight: number): number {
  const wall = Date.parse(`${day}T00:00:00Z`) + hoursAfterMidnight * 3_600_000;
  const guess = wall - londonOffsetMs(wall);
  const offset = londonOffsetMs(guess);
  return wall - offset;
}

/** The packing cut-off: after it orders go to the next week and addresses can no longer change. */
export function dispatchCutoff(day: IsoDate, cutoffHours: number = DEFAULT_DISPATCH_CUTOFF_HOURS): Date {
  return new Date(londonWallClock(day, -cutoffHours));
}

/** The calendar day `days` after (or before, when negative) `day`. */
export function addDays(day: IsoDate, days: number): IsoDate {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** A real `YYYY-MM-DD` day: Date.parse would roll 2026-11-31 over to 1 December. */
export function isCalendarDate(value: string): value is IsoDate {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** A day couriers collect on and the shop can dispatch: Monday to Friday, no bank holiday. */
export function isWorkingDay(day: IsoDate, holidays: ReadonlySet<IsoDate> = defaultHolidays): boolean {
  return weekdayIndex(day) < 5 && !holidays.has(day);
}

/** Why `day` is not a working day (a bank holiday never falls on a weekend: its substitute does). */
export function nonWorkingDayKind(day: IsoDate): 'a weekend day' | 'a bank holiday' {
  return weekdayIndex(day) >= 5 ? 'a weekend day' : 'a bank holiday';
}

/** 0 = Monday ... 6 = Sunday. */
function weekdayIndex(day: IsoDate): number {
  return (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** The dispatch day of the week starting on `monday`: Monday, or the first working day after a bank holiday. */
function dispatchDayOfWeek(monday: IsoDate, holidays: ReadonlySet<IsoDate>): IsoDate | undefined {
  for (let i = 0; i < 5; i += 1) {
    const day = addDays(monday, i);
    if (!holidays.has(day)) return day;
  }
  return undefined; // A whole week of holidays: no dispatch that week.
}

/**
 * An order's dispatch day: Monday, or the week's first working day after a bank holiday (London),
 * the next week after the cut-off. Beyond the holiday data, plain Mondays (assertBankHolidayCoverage).
 */
export function nextDispatchDate(now: Date, options: DispatchOptions = {}): IsoDate {
  const cutoffHours = options.cutoffHours ?? DEFAULT_DISPATCH_CUTOFF_HOURS;
  const holidays = options.bankHolidays ?? defaultHolidays;
  const today = londonDate(now);
  let monday = addDays(today, -weekdayIndex(today));
  // A few weeks always suffice; the bound only guards against a pathological holiday list.
  for (let week = 0; week < 8; week += 1, monday = addDays(monday, 7)) {
    const day = dispatchDayOfWeek(monday, holidays);
    if (day && now.getTime() < londonWallClock(day, -cutoffHours)) return day;
  }
  throw new Error('No dispatch day found in the next 8 weeks');
}

/** How far ahead checkout sells and delays move, and how far back the merchant's lists look. */
export const DISPATCH_WINDOW_WEEKS = 8;

/** The first dispatch day on or after `day`: at noon, a cut-off 24 hours after its start keeps `day` itself. */
export function dispatchDayOnOrAfter(day: IsoDate): IsoDate {
  return nextDispatchDate(new Date(`${day}T12:00:00Z`), { cutoffHours: -24 });
}

/** The first dispatch day on or after today (London): the first the merchant still packs for. */
export function firstComingDispatchDay(now: Date): IsoDate {
  return nextDispatchDate(now, { cutoffHours: -24 });
}

/** The dispatch day of `day`'s week: capacity is counted per dispatch day, one a week. */
export function dispatchDayOfWeekOf(day: IsoDate): IsoDate {
  return dispatchDayOnOrAfter(addDays(day, -weekdayIndex(day)));
}

/**
 * The day a merchant's date means for packing: a working day is itself (a delay may move orders
 * there); any other the first dispatch day on or after it (Easter Monday gives the Tuesday).
 */
export function packingDay(day: IsoDate): IsoDate {
  return isWorkingDay(day) ? day : dispatchDayOnOrAfter(day);
}

/** Throws when bank holiday data ends within `horizonDays`. Never called in a checkout. */
export function assertBankHolidayCoverage(now: Date, horizonDays = 365): void {
  const needed = addDays(londonDate(now), horizonDays);
  if (needed > BANK_HOLIDAYS_COVER_UNTIL) {
    throw new Error(
      `Bank holiday data ends ${BANK_HOLIDAYS_COVER_UNTIL}, before ${needed}: run npm run generate:bank-holidays with a later LAST_YEAR`,
    );
  }
}

/** The `count`-th working day (isWorkingDay) after `day`. */
export function addWorkingDays(
  day: IsoDate,
  count: number,
  holidays: ReadonlySet<IsoDate> = defaultHolidays,
): IsoDate {
  let result = day;
  for (let left = count; left > 0; ) {
    result = addDays(result, 1);
    if (isWorkingDay(result, holidays)) left -= 1;
  }
  return result;
}

/** A new Bacs mandate takes 7 working days, and every mandate here is new (no accounts). */
export const DIRECT_DEBIT_WORKING_DAYS = 7;

/**
 * The dispatch day for a Direct Debit set up at `start`: the first whose cut-off follows the day it
 * should confirm, since the goods wait for the money.
 */
export function debitDispatchDate(start: Date, options: DispatchOptions = {}): IsoDate {
  const holidays = options.bankHolidays ?? defaultHolidays;
  const confirmed = addWorkingDays(londonDate(start), DIRECT_DEBIT_WORKING_DAYS, holidays);
  const endOfThatDay = new Date(londonWallClock(addDays(confirmed, 1), 0) - 1);
  return nextDispatchDate(endOfThatDay, options);
}

/** When an order dispatched on `day` should arrive by 1st Class (no Sunday or bank holiday). */
export function expectedArrivalDate(day: IsoDate, holidays: ReadonlySet<IsoDate> = defaultHolidays): IsoDate {
  let arrival = addDays(day, 1);
  while (weekdayIndex(arrival) === 6 || holidays.has(arrival)) arrival = addDays(arrival, 1);
  return arrival;
}

// Spelled out rather than asked of Intl: no ICU load on a Lambda's path (ADR 0034), and no
// difference between ICU versions ("Sep" or "Sept", a comma after the weekday or not).
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** "Monday 23 November"; given `today`, another year's day carries its year. */
export function formatDispatchDate(day: IsoDate, options: { today?: IsoDate } = {}): string {
  // A wrong day in an email or on Stripe's page is worse than no email: refuse it, as Intl did.
  if (!isCalendarDate(day)) throw new RangeError(`Not a calendar date: ${day}`);
  const date = new Date(`${day}T00:00:00Z`);
  const text = `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
  return options.today !== undefined && options.today.slice(0, 4) !== day.slice(0, 4)
    ? `${text} ${day.slice(0, 4)}`
    : text;
}

// Pure: a bundle that never formats a short date (the browser's) drops them.
const SHORT_WEEKDAYS = /* @__PURE__ */ WEEKDAYS.map((name) => name.slice(0, 3));
const SHORT_MONTHS = /* @__PURE__ */ MONTHS.map((name) => name.slice(0, 3));

/** London's wall clock at `instant`; a non-time throws, so "NaN undefined" never reaches an email. */
function londonWallClockOf(instant: string | Date): Date {
  const at = new Date(instant).getTime();
  if (Number.isNaN(at)) throw new RangeError(`Not a time: ${String(instant)}`);
  return new Date(at + londonOffsetMs(at));
}

/** "Saturday": the weekday of a wall clock read with the UTC getters. */
export function formatWeekday(wall: Date): string {
  return WEEKDAYS[wall.getUTCDay()] ?? '';
}

/** "09:05": a wall clock's hours and minutes (read with the UTC getters), on the 24-hour clock. */
export function clockTime(wall: Date): string {
  return `${String(wall.getUTCHours()).padStart(2, '0')}:${String(wall.getUTCMinutes()).padStart(2, '0')}`;
}

/** "21 November 2026": the London calendar day of an instant, as an order's date reads in an email. */
export function formatLondonDate(instant: string | Date): string {
  const wall = londonWallClockOf(instant);
  return `${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()}`;
}

/** "Monday 30 November at 13:05": a London day and clock time, as a deadline a day away reads. */
export function formatLondonDayAndTime(instant: string | Date): string {
  const wall = londonWallClockOf(instant);
  return `${WEEKDAYS[wall.getUTCDay()]} ${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]} at ${clockTime(wall)}`;
}

/** "Wed 25 Nov, 13:15" in London, with the year when not `now`'s; stored values stay UTC. */
export function formatLondonTime(instant: string | Date, now: Date): string {
  const wall = londonWallClockOf(instant);
  const year = String(wall.getUTCFullYear());
  const day = `${SHORT_WEEKDAYS[wall.getUTCDay()]} ${wall.getUTCDate()} ${SHORT_MONTHS[wall.getUTCMonth()]}`;
  return `${day}${year === londonDate(now).slice(0, 4) ? '' : ` ${year}`}, ${clockTime(wall)}`;
}
