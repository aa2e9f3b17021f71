import type Stripe from 'stripe';
import { DISPATCH_WINDOW_WEEKS, firstComingDispatchDay, type IsoDate } from '../../../shared/dispatch';
import { logger } from '../../lib/logger';
import { dispatchDaysFrom, holdExpiresAt, releaseHold } from '../capacity/holds';
import { reservationOf } from '../capacity/session-reservation';
import { hasShopMarker } from '../checkout/order-metadata';
import type { CapacityStore } from '../storage/capacity-store';

/**
 * How far back expired sessions are listed: a session lives at most 24 hours (Stripe's limit on
 * `expires_at`), so a day more covers a reconciler that missed runs.
 */
const EXPIRED_LOOKBACK_MS = 48 * 3_600_000;

/**
 * How long after its session's `expires_at` a checkout hold is taken as lapsed. Stripe expires a
 * session at that moment and refuses payment after it; the margin covers its own delay and a
 * payment completed in the last second, whose session this run has already sold (the reconciler
 * handles completed sessions first).
 */
export const LAPSE_MARGIN_MS = 30 * 60_000;

export interface LapsedHoldDeps {
  stripe: Stripe;
  store: CapacityStore;
  /** SHOP_ID: only this deployment's sessions. */
  shopId: string;
  now: () => Date;
}

/**
 * Gives back the holds the webhook should have released: those of this shop's sessions Stripe
 * lists as expired (the last two days), and checkout and payment-link holds whose session's
 * expiry, written in the hold id, is past by LAPSE_MARGIN_MS (a function stopped between the
 * reservation and Stripe, so no session ever carried it). Looks at the coming dispatch days and
 * the days those sessions held; each day is read once and only its lapsed holds are written. An
 * order request's own hold lapses the same way, by the `holds_until` in its id: its bottles go
 * back on sale and nobody is emailed (the request stays, for the merchant to invite or decline).
 * @returns how many holds it released.
 */
export async function releaseLapsedHolds(deps: LapsedHoldDeps): Promise<number> {
  const now = deps.now();
  const expired = new Map<IsoDate, Set<string>>();
  for await (const session of deps.stripe.checkout.sessions.list({
    status: 'expired',
    created: { gte: Math.floor((now.getTime() - EXPIRED_LOOKBACK_MS) / 1000) },
    limit: 100,
  })) {
    if (!hasShopMarker(session.metadata, deps.shopId)) continue;
    const reservation = reservationOf(session.metadata);
    if (reservation === undefined) continue;
    const holds = expired.get(reservation.date) ?? new Set<string>();
    holds.add(reservation.hold);
    expired.set(reservation.date, holds);
  }
  const coming = dispatchDaysFrom(firstComingDispatchDay(now), DISPATCH_WINDOW_WEEKS + 1);
  let released = 0;
  for (const date of new Set([...coming, ...expired.keys()])) {
    const day = await deps.store.read(date);
    for (const hold of day.holds) {
      const expiresAt = holdExpiresAt(hold);
      const lapsed = expiresAt !== undefined && expiresAt * 1000 + LAPSE_MARGIN_MS < now.getTime();
      if (!lapsed && !expired.get(date)?.has(hold)) continue;
      if (await releaseHold(deps.store, date, hold)) {
        released += 1;
        logger.warn('Released a hold the webhook did not', { dispatchDate: date, hold });
      }
    }
  }
  return released;
}
