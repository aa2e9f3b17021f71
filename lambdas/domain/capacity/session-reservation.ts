import { type IsoDate, isCalendarDate } from '../../../shared/dispatch';
import { isHoldId } from './holds';

/**
 * The metadata key of a Checkout Session's hold on its dispatch day's bottles. The day is the
 * session's `dispatch_date` (order-metadata.ts): the day the hold was made on, and the one the
 * customer was shown.
 */
export const CAPACITY_HOLD_KEY = 'capacity_hold';

/** A session's reservation: its dispatch day and hold id. */
export interface SessionReservation {
  date: IsoDate;
  hold: string;
}

/**
 * The reservation a session's metadata carries; undefined for a session made before capacity
 * existed, or one whose metadata does not hold a well-formed one (such a session moves nothing).
 */
export function reservationOf(
  metadata: Readonly<Record<string, string>> | null | undefined,
): SessionReservation | undefined {
  const hold = metadata?.[CAPACITY_HOLD_KEY];
  const date = metadata?.dispatch_date;
  if (hold === undefined || date === undefined) return undefined;
  if (!isHoldId(hold) || !isCalendarDate(date)) return undefined;
  return { date, hold };
}
