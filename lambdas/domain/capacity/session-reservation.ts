import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import type { IsoDate } from '../../../shared/dispatch';
import { isHoldId } from './holds';

/**
 * The metadata key of a session's hold; the day is its `dispatch_date` (order-metadata.ts), the day the hold
 * was made on and the customer shown.
 */
export const CAPACITY_HOLD_KEY = 'capacity_hold';

/** A session's reservation: its dispatch day and hold id. */
export interface SessionReservation {
  date: IsoDate;
  hold: string;
}

// The metadata comes back from Stripe: read through one schema rather than field by field.
const reservationMetadata = z.object({
  [CAPACITY_HOLD_KEY]: z.string().check(z.refine(isHoldId)),
  dispatch_date: calendarDateSchema,
});

/**
 * The reservation a session's metadata carries; undefined for a session made before capacity
 * existed, or one whose metadata does not hold a well-formed one (such a session moves nothing).
 */
export function reservationOf(
  metadata: Readonly<Record<string, string>> | null | undefined,
): SessionReservation | undefined {
  const parsed = reservationMetadata.safeParse(metadata ?? {});
  return parsed.success
    ? { date: parsed.data.dispatch_date, hold: parsed.data[CAPACITY_HOLD_KEY] }
    : undefined;
}
