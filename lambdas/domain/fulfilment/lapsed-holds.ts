import type Stripe from 'stripe';
import { DISPATCH_WINDOW_WEEKS, firstComingDispatchDay, type IsoDate } from '../../../shared/dispatch';
import { logger } from '../../lib/logger';
import { dispatchDaysFrom, holdExpiresAt, releaseHold } from '../capacity/holds';
import { reservationOf } from '../capacity/session-reservation';
import { hasShopMarker } from '../checkout/order-metadata';
import type { CapacityStore } from '../storage/capacity-store';

/** A session lives at most 24 hours (Stripe's `expires_at` limit); a day more covers missed runs. */
const EXPIRED_LOOKBACK_MS = 48 * 3_600_000;

/**
 * After `expires_at` Stripe refuses payment; the margin covers its own delay and a payment in the last
 * second, whose session this run has already sold (the reconciler handles completed sessions first).
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
 * Gives back holds the webhook should have released: those of our sessions Stripe lists as expired (two
 * days), and holds whose expiry in their id is past by LAPSE_MARGIN_MS (a function stopped before Stripe made
 * the session). A request's hold lapses the same way by its `holds_until`, nobody emailed. Each day is read
 * once.
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
