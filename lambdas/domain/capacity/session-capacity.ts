import type { IsoDate } from '../../../shared/dispatch';
import { logger } from '../../lib/logger';
import { emitMetric, METRIC_NAMES, type MetricsWriter } from '../../lib/metrics';
import { type CapacitySettings, limitFor } from '../storage/capacity-settings';
import type { CapacityDay, CapacityStore } from '../storage/capacity-store';
import {
  giveBackSale,
  holdBottles,
  isSoldOut,
  releaseHold,
  releaseOrGiveBack,
  sellFromDay,
  sellHold,
} from './holds';
import { reservationOf } from './session-reservation';

// What a session's events do to its day's bottles, by the reservation in its metadata (Stripe-signed, or
// retrieved); nothing for a session without one (made before capacity existed).

type Metadata = Readonly<Record<string, string>> | null | undefined;

/** A sale that left its day without room for the smallest order: what the merchant is told. */
export interface DayFull {
  sold: number;
  capacity: number;
}

/** Where a paid session's bottles are sold, and whether this sale filled that day. */
export interface KeptReservation {
  date: IsoDate;
  hold: string;
  /** Set when this call's sale left the day full (once per day filling). */
  full?: DayFull | undefined;
}

/** The day full after `after`, when this sale of `bottles` is what filled it. */
function filledBy(
  after: CapacityDay | undefined,
  limit: number | undefined,
  bottles: number,
): DayFull | undefined {
  if (after === undefined || limit === undefined) return undefined;
  const before = { sold: after.sold - bottles };
  return isSoldOut(after, limit) && !isSoldOut(before, limit)
    ? { sold: after.sold, capacity: limit }
    : undefined;
}

/**
 * Counts a sold-out day once, at the filling sale. The day is a property, not a dimension: each date would be
 * a new metric, billed for a month, that no alarm or widget watches.
 */
function countSoldOut(kept: KeptReservation, metrics: MetricsWriter): void {
  if (kept.full === undefined) return;
  logger.info('Dispatch day sold out', { dispatchDate: kept.date, ...kept.full });
  emitMetric(metrics, METRIC_NAMES.dispatchDaySoldOut, 1, { dispatchDate: kept.date, ...kept.full });
}

export interface SessionCapacityDeps {
  store: CapacityStore;
  settings: CapacitySettings | undefined;
  metrics: MetricsWriter;
}

/**
 * A completed session (paid, or a debit pending) turns its hold into a sale. Recorded after its day's cut-off
 * (`earliest`), the bottles move to the first day from `earliest` with room (over its limit when none within
 * 8 weeks has: the money is taken); without `earliest` (a debit pending) the day never moves. A replay sells
 * nothing twice.
 * @returns undefined for a session without a reservation.
 */
export async function keepSessionReservation(
  metadata: Metadata,
  deps: SessionCapacityDeps,
  earliest?: IsoDate | undefined,
): Promise<KeptReservation | undefined> {
  const reservation = reservationOf(metadata);
  if (reservation === undefined) return undefined;
  const { hold } = reservation;
  const bottles = holdBottles(hold);
  let date = reservation.date;
  let after: CapacityDay | undefined;
  if (earliest !== undefined && date < earliest) {
    await releaseOrGiveBack(deps.store, date, hold);
    const sold = await sellFromDay(deps.store, { from: earliest, hold, capacity: deps.settings });
    logger.warn('Paid after its dispatch day closed: its bottles move to a later dispatch day', {
      reservedDate: date,
      dispatchDate: sold.date,
    });
    date = sold.date;
    after = sold.after;
  } else {
    after = await sellHold(deps.store, date, hold);
  }
  const kept = { date, hold, full: filledBy(after, limitFor(deps.settings, date), bottles) };
  countSoldOut(kept, deps.metrics);
  return kept;
}

/** An expired session gives its hold back; false when released before or never made. */
export async function releaseExpiredSession(metadata: Metadata, store: CapacityStore): Promise<boolean> {
  const reservation = reservationOf(metadata);
  if (reservation === undefined) return false;
  return releaseHold(store, reservation.date, reservation.hold);
}

/**
 * A session that makes no order (its delayed payment failed, or it was refunded in full before its order was
 * recorded) gives its bottles back, hold or sale; false when done before or never held.
 */
export async function returnSessionBottles(metadata: Metadata, store: CapacityStore): Promise<boolean> {
  const reservation = reservationOf(metadata);
  if (reservation === undefined) return false;
  return releaseOrGiveBack(store, reservation.date, reservation.hold);
}

/**
 * The reconciler's look at a completed unpaid session: a debit still with the bank keeps its bottles, a
 * failed one gives them back (either event may have been missed). `intentStatus` is its PaymentIntent's.
 */
export async function settleUnpaidSession(
  metadata: Metadata,
  intentStatus: string | undefined,
  deps: SessionCapacityDeps,
): Promise<void> {
  if (intentStatus === 'requires_payment_method' || intentStatus === 'canceled') {
    await returnSessionBottles(metadata, deps.store);
    return;
  }
  await keepSessionReservation(metadata, deps);
}

/**
 * An undispatched refunded order gives its bottles back once (conditional on the sale), also on the old day
 * while a delay is moving them (`capacityMovingFrom`). False when nothing was given back now.
 */
export async function returnRefundedBottles(
  store: CapacityStore,
  order: {
    status: string;
    dispatchedAt?: string | undefined;
    capacityHold?: string | undefined;
    capacityDate?: IsoDate | undefined;
    capacityMovingFrom?: IsoDate | undefined;
  },
): Promise<boolean> {
  if (order.status !== 'refunded' || order.dispatchedAt !== undefined) return false;
  if (order.capacityHold === undefined || order.capacityDate === undefined) return false;
  const onDay = await giveBackSale(store, order.capacityDate, order.capacityHold);
  const onOldDay =
    order.capacityMovingFrom !== undefined &&
    (await giveBackSale(store, order.capacityMovingFrom, order.capacityHold));
  return onDay || onOldDay;
}
