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

// What a Checkout Session's events do to its dispatch day's bottles. Every function reads the
// reservation from the session's metadata (signed by Stripe in an event, or retrieved from
// Stripe), and does nothing for a session that carries none (made before capacity existed).

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
 * Counts a day that sold out, once, when the sale that filled it is made. The metric's time is
 * the sale's, so the line names the dispatch day as a property (the dashboard lists it): as a
 * dimension each date would be a new metric, billed for a month, that no alarm or widget watches.
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
 * A completed session (paid, or a debit pending) keeps its bottles: its hold becomes a sale on its
 * day. When the order is recorded after that day's cut-off (`earliest`, the first day an order
 * recorded now can go: a session paid across the cut-off, a debit that settled days later), the
 * reserved day gets the bottles back and they are sold on the first day from `earliest` with room
 * (over `earliest`'s limit when none within 8 weeks has any: the money is taken). Without
 * `earliest` (no order yet: a debit pending) the day never moves. Safe to repeat: a replay sells
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

/**
 * An expired session gives its hold back (`checkout.session.expired`, or the reconciler finding it
 * expired). False when there was nothing to give: released before, or never made.
 */
export async function releaseExpiredSession(metadata: Metadata, store: CapacityStore): Promise<boolean> {
  const reservation = reservationOf(metadata);
  if (reservation === undefined) return false;
  return releaseHold(store, reservation.date, reservation.hold);
}

/**
 * A delayed payment that failed (`checkout.session.async_payment_failed`) gives its bottles back,
 * whether they were still a hold or already a sale (the completed event came first). No order
 * exists for such a session, so nothing else depends on them.
 */
export async function returnFailedPayment(metadata: Metadata, store: CapacityStore): Promise<boolean> {
  const reservation = reservationOf(metadata);
  if (reservation === undefined) return false;
  return releaseOrGiveBack(store, reservation.date, reservation.hold);
}

/**
 * A paid session refunded in full in Stripe before its order was recorded gives its bottles back,
 * whether still a hold or already a sale (a debit pending sold them): like a failed payment, nothing
 * will be dispatched. False when neither: done before.
 */
export async function returnRefundedSession(metadata: Metadata, store: CapacityStore): Promise<boolean> {
  return returnFailedPayment(metadata, store);
}

/**
 * The reconciler's look at a completed session that is not paid: a debit still with the bank
 * keeps its bottles (the completed event may have been missed), a failed one gives them back (its
 * failure event may have been missed). `intentStatus` is its PaymentIntent's.
 */
export async function settleUnpaidSession(
  metadata: Metadata,
  intentStatus: string | undefined,
  deps: SessionCapacityDeps,
): Promise<void> {
  if (intentStatus === 'requires_payment_method' || intentStatus === 'canceled') {
    await returnFailedPayment(metadata, deps.store);
    return;
  }
  await keepSessionReservation(metadata, deps);
}

/**
 * A refunded order that was never dispatched gives its bottles back to the day they counted on,
 * once: the give-back is conditional on the sale. While a delay is moving them
 * (`capacityMovingFrom`), they may still be on the old day too: given back there as well. A
 * dispatched order's bottles were used. False when nothing was given back now.
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
