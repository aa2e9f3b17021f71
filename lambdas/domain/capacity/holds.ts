import { addDays, DISPATCH_WINDOW_WEEKS, type IsoDate, nextDispatchDate } from '../../../shared/dispatch';
import { DAPHNIA } from '../../../shared/product';
import {
  giveBackChange,
  partGiveBackChanges,
  releaseChange,
  reserveChange,
  sellChange,
  sellLateChange,
  transferChanges,
} from '../storage/capacity-changes';
import { type CapacitySettings, limitFor } from '../storage/capacity-settings';
import type { CapacityDay, CapacityStore } from '../storage/capacity-store';

// Each transition is ONE conditional update of the day's item (storage/capacity-changes.ts); here, when each
// is made. A hold id is `<reservation id>:<bottles>`; conditions on set membership make every transition
// happen at most once per id whatever replays it, so a hold is never released twice nor after its sale.

/** The smallest order: a day with fewer bottles left than this has no room. */
export const SMALLEST_ORDER = DAPHNIA.min;

/** No dispatch day within DISPATCH_WINDOW_WEEKS has room for the order. */
export class CapacityFullError extends Error {
  constructor(
    readonly from: IsoDate,
    readonly bottles: number,
  ) {
    super(
      `No dispatch day from ${from} within ${DISPATCH_WINDOW_WEEKS} weeks has room for ${bottles} bottles`,
    );
    this.name = 'CapacityFullError';
  }
}

const HOLD_PATTERN = /^([A-Za-z0-9_-][A-Za-z0-9._-]{0,99}):([1-9]\d{0,3})$/;

/** A hold id: the reservation and the bottles it holds, so a release or sale needs nothing else. */
export function holdId(reservationId: string, bottles: number): string {
  const hold = `${reservationId}:${bottles}`;
  if (!HOLD_PATTERN.test(hold)) throw new Error(`"${hold}" is not a hold id`);
  return hold;
}

/** Whether `value` is a hold id (a session's metadata is read back from outside). */
export function isHoldId(value: string): boolean {
  return HOLD_PATTERN.test(value);
}

/** The bottles a hold id names. */
export function holdBottles(hold: string): number {
  const match = HOLD_PATTERN.exec(hold);
  if (!match?.[2]) throw new Error(`"${hold}" is not a hold id`);
  return Number(match[2]);
}

/**
 * `c<token>.<expires_at>`: the token comes from the page's idempotency key, so a retry reserves once; the
 * expiry lets a hold whose session can no longer be paid be known by its id, even if no session was made.
 */
export function checkoutReservationId(token: string, expiresAt: number): string {
  return `c${token}.${expiresAt}`;
}

/**
 * `r<reference>.<holds_until>` (epoch seconds): a request's hold lapses by its id alone, as a checkout's does
 * (lapsed-holds.ts); `r<reference>` for a request from before requests lapsed. A payment link holds under its
 * own id ({@link paymentLinkReservationId}), so an expired link's late events never free a newer link's.
 */
export function requestReservationId(reference: string, holdsUntil?: number): string {
  return holdsUntil === undefined ? `r${reference}` : `r${reference}.${holdsUntil}`;
}

/** A payment link's reservation: its request's, with the link's `expires_at` (epoch seconds). */
export function paymentLinkReservationId(reference: string, expiresAt: number): string {
  return `r${reference}.${expiresAt}`;
}

/** When a hold lapses (epoch seconds): a checkout's or a payment link's session expiry, or a request's `holds_until`; undefined for an older request's. */
export function holdExpiresAt(hold: string): number | undefined {
  const match = /^[cr][A-Za-z0-9_-]+\.(\d{9,11}):\d+$/.exec(hold);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The next week's dispatch day, where a full day moves an order: one a week (Monday, or after a holiday). */
export function followingDispatchDay(day: IsoDate): IsoDate {
  return nextDispatchDate(new Date(`${addDays(day, 1)}T12:00:00Z`), { cutoffHours: 0 });
}

/** `count` dispatch days from `first` (itself a dispatch day), one a week. */
export function dispatchDaysFrom(first: IsoDate, count: number): IsoDate[] {
  return [...comingDispatchDays(first, count)];
}

/** Worked out lazily: a search stopping at the first day (nearly every checkout's) costs one look-up. */
export function* comingDispatchDays(first: IsoDate, count: number): Generator<IsoDate> {
  let day = first;
  for (let index = 0; index < count; index += 1) {
    if (index > 0) day = followingDispatchDay(day);
    yield day;
  }
}

/** Bottles still free on a day (reserved ones count as taken); undefined when it has no limit. */
export function bottlesLeft(day: CapacityDay, limit: number | undefined): number | undefined {
  return limit === undefined ? undefined : Math.max(0, limit - day.taken);
}

/** True when the day's sales alone leave no room for the smallest order: sold out, whatever reservations lapse. */
export function isSoldOut(day: Pick<CapacityDay, 'sold'>, limit: number | undefined): boolean {
  return limit !== undefined && limit - day.sold < SMALLEST_ORDER;
}

export interface Reservation {
  date: IsoDate;
  hold: string;
  /** False when this attempt's hold was already there (a retry): it is not this call's to release. */
  added: boolean;
}

/**
 * Reserves on the first dispatch day from `from` with room: one conditional update per day tried, the day
 * read (strongly consistent) only on failure, to tell this attempt's earlier hold (a retry) from a full day.
 * @throws CapacityFullError when no day within DISPATCH_WINDOW_WEEKS has room.
 */
export async function reserveBottles(
  store: CapacityStore,
  request: { from: IsoDate; hold: string; capacity: CapacitySettings | undefined },
): Promise<Reservation> {
  const bottles = holdBottles(request.hold);
  for (const date of comingDispatchDays(request.from, DISPATCH_WINDOW_WEEKS)) {
    const limit = limitFor(request.capacity, date);
    if (limit !== undefined && limit < bottles) continue;
    if (await store.apply(date, reserveChange(request.hold, bottles, limit))) {
      return { date, hold: request.hold, added: true };
    }
    const day = await store.read(date);
    if (day.holds.has(request.hold) || day.sales.has(request.hold)) {
      return { date, hold: request.hold, added: false };
    }
  }
  throw new CapacityFullError(request.from, bottles);
}

/**
 * Sells a paid order's bottles on the first day from `from` with room when their held day has closed (paid
 * across its cut-off, or a debit settled later); with no room within DISPATCH_WINDOW_WEEKS, on `from` all the
 * same: the money is taken. A repeat finds the sale and sells nothing twice.
 * @returns the day they are sold on, and the day's counters when this call sold them.
 */
export async function sellFromDay(
  store: CapacityStore,
  request: { from: IsoDate; hold: string; capacity: CapacitySettings | undefined },
): Promise<{ date: IsoDate; after: CapacityDay | undefined }> {
  const { hold } = request;
  const bottles = holdBottles(hold);
  for (const date of comingDispatchDays(request.from, DISPATCH_WINDOW_WEEKS)) {
    const limit = limitFor(request.capacity, date);
    if (limit !== undefined && limit < bottles) continue;
    const after = await store.change(date, sellLateChange(hold, bottles, limit));
    if (after) return { date, after };
    const day = await store.read(date);
    if (day.sales.has(hold)) return { date, after: undefined };
    if (day.holds.has(hold)) return { date, after: await sellHold(store, date, hold) };
  }
  return { date: request.from, after: await sellHold(store, request.from, hold) };
}

/** Gives a hold's bottles back to its day; false when it is not held (released already, or sold). */
export async function releaseHold(store: CapacityStore, date: IsoDate, hold: string): Promise<boolean> {
  return store.apply(date, releaseChange(hold, holdBottles(hold)));
}

/**
 * Makes a hold a sale. A hold that is gone (lapsed, or never written because Stripe answered after
 * create-checkout gave up) is sold all the same, over the limit if need be: the customer has paid. Undefined
 * for a replay.
 */
export async function sellHold(
  store: CapacityStore,
  date: IsoDate,
  hold: string,
): Promise<CapacityDay | undefined> {
  const bottles = holdBottles(hold);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const fromHold = await store.change(date, sellChange(hold, bottles));
    if (fromHold) return fromHold;
    const withoutHold = await store.change(date, sellLateChange(hold, bottles));
    if (withoutHold) return withoutHold;
    if ((await store.read(date)).sales.has(hold)) return undefined;
    // The hold reappeared between the two updates (a retried reservation of the same attempt): again.
  }
  throw new Error(`Could not sell hold ${hold} on ${date}`);
}

/**
 * Moves a hold to another id on the same day without letting go: the new id joins first (`taken` unchanged,
 * so no checkout takes the bottles meanwhile), then the old leaves; a repeat finishes. False if not held.
 */
export async function transferHold(
  store: CapacityStore,
  date: IsoDate,
  from: string,
  to: string,
): Promise<boolean> {
  if (holdBottles(from) !== holdBottles(to)) throw new Error(`${from} and ${to} hold different bottles`);
  const [join, leave] = transferChanges(from, to);
  await store.apply(date, join);
  await store.apply(date, leave);
  return (await store.read(date)).holds.has(to);
}

/** Gives a sale's bottles back to its day (a refund or a failed debit); false when it is not a sale there. */
export async function giveBackSale(store: CapacityStore, date: IsoDate, hold: string): Promise<boolean> {
  return store.apply(date, giveBackChange(hold, holdBottles(hold)));
}

/**
 * Moves a sale to another day (its order delayed): sold on `to` whatever its limit, then given back on
 * `from`. In that order a stop in between may refuse a checkout that had room, but never oversells; the other
 * order would leave the bottles on neither day. A repeat finishes a stopped move.
 * @returns `to`'s counters after this call's sale there; undefined when they were sold there before.
 */
export async function moveSale(
  store: CapacityStore,
  hold: string,
  days: { from: IsoDate; to: IsoDate },
): Promise<CapacityDay | undefined> {
  if (days.from === days.to) throw new Error(`${hold} cannot move from ${days.from} to itself`);
  const after = await sellHold(store, days.to, hold);
  await giveBackSale(store, days.from, hold);
  return after;
}

/** A checkout that will never be paid (a failed debit): its bottles back, hold or sale; false if done. */
export async function releaseOrGiveBack(store: CapacityStore, date: IsoDate, hold: string): Promise<boolean> {
  return (await releaseHold(store, date, hold)) || (await giveBackSale(store, date, hold));
}

/**
 * The first dispatch day from `from` with room for the smallest order, and what is left there (undefined: no
 * limit); undefined when none within DISPATCH_WINDOW_WEEKS has. An unlimited day costs no read.
 */
export async function firstDayWithRoom(
  store: Pick<CapacityStore, 'read'>,
  capacity: CapacitySettings | undefined,
  from: IsoDate,
): Promise<{ date: IsoDate; left: number | undefined } | undefined> {
  for (const date of comingDispatchDays(from, DISPATCH_WINDOW_WEEKS)) {
    const limit = limitFor(capacity, date);
    if (limit === undefined) return { date, left: undefined };
    if (limit < SMALLEST_ORDER) continue;
    const left = bottlesLeft(await store.read(date), limit) ?? 0;
    if (left >= SMALLEST_ORDER) return { date, left };
  }
  return undefined;
}

/**
 * Gives back `bottles` of a sale (a part refund before dispatch): the sale becomes the same reservation with
 * fewer bottles, or goes. Two conditional steps, as one update cannot add and delete in one set; a repeat
 * after a stop makes only the second, so nothing is given back twice.
 * @returns the hold id of what is still sold (undefined: none), and whether bottles went back now.
 */
export async function giveBackPartOfSale(
  store: CapacityStore,
  date: IsoDate,
  hold: string,
  bottles: number,
): Promise<{ next: string | undefined; given: boolean }> {
  const left = holdBottles(hold) - bottles;
  if (left <= 0) return { next: undefined, given: await giveBackSale(store, date, hold) };
  const next = holdId(hold.slice(0, hold.lastIndexOf(':')), left);
  const [lower, leave] = partGiveBackChanges(hold, next, bottles);
  const given = await store.apply(date, lower);
  await store.apply(date, leave);
  return { next, given };
}
