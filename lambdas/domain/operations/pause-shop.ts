import type Stripe from 'stripe';
import { isStripeError } from '../../lib/stripe-errors';
import { hasShopMarker, isPaymentLinkSession } from '../checkout/order-metadata';
import { followShopPause, type RenewalsOutcome } from '../standing-deliveries/shop-pause';
import { capacityStoreFromTable } from '../storage/capacity-table';
import { writeShopSettings } from '../storage/settings-store';
import type { ShopSettings } from '../storage/shop-settings';
import type { ShopStripeDeps } from './shop-deps';

/** A session lives at most 24 hours (Stripe's `expires_at` limit); the extra hour covers clock skew. */
const OPEN_SESSION_LOOKBACK_MS = 25 * 3_600_000;

/** What `pause` asks for: stop sales with a message, or take order requests without payment. */
export interface PauseInput {
  mode: 'paused' | 'requests';
  message?: string | undefined;
}

export interface PauseOutcome {
  settings: ShopSettings;
  /** Sessions this pause expired: their customers can no longer pay them. */
  closed: string[];
  /** Payment links of order requests left open (requests mode only): the merchant sent those. */
  paymentLinksKept: string[];
  /** Completed between the listing and the expire (Stripe errs): fulfilment records the order, flagged. */
  completedMeanwhile: string[];
  /** Sessions Stripe would not expire for another reason (a permission, a network failure): still payable. */
  failed: Array<{ sessionId: string; message: string }>;
  /** The open sessions could not be listed at all: some may still be payable. */
  listingFailed?: string | undefined;
  /** The standing orders' renewals held (ADR 0061): no payment taken while the shop is not open. */
  renewals?: RenewalsOutcome | undefined;
}

/**
 * Pauses the shop (`paused`, or `requests`: requests without payment) and expires through Stripe the sessions
 * customers could still pay, so a pause means no new money. Settings are written before the sessions are
 * listed: listing first would leave a gap for a session made after the listing and never closed;
 * create-checkout also confirms the settings before and after making a session. Only sessions with this
 * deployment's marker close; `--requests` keeps the request payment links the merchant sent. Resuming
 * releases no request's bottles: each hold lapses by itself (REQUEST_HOLD_HOURS). A session that completed or
 * expired meanwhile never fails the pause; a completed one is reported and recorded, flagged, by fulfilment.
 * @throws RefusedError when the message is missing or invalid (nothing written, nothing closed).
 */
export async function pauseShop(
  input: PauseInput,
  deps: Pick<ShopStripeDeps, 'table' | 'stripe' | 'shopId' | 'now' | 'cutoffHours'>,
): Promise<PauseOutcome> {
  const settings = await writeShopSettings(deps.table, input, deps.now());
  const outcome: PauseOutcome = {
    settings,
    closed: [],
    paymentLinksKept: [],
    completedMeanwhile: [],
    failed: [],
    renewals: await followShopPause(true, { ...deps, capacity: capacityStoreFromTable(deps.table) }),
  };
  let open: Stripe.Checkout.Session[];
  try {
    open = await listOpenSessions(deps);
  } catch (error) {
    if (!isStripeError(error)) throw error;
    return { ...outcome, listingFailed: error.message };
  }
  // Listed in full before any is expired, so closing sessions never moves the pagination cursor.
  for (const session of open) {
    if (input.mode === 'requests' && isPaymentLinkSession(session)) {
      outcome.paymentLinksKept.push(session.id);
      continue;
    }
    try {
      await deps.stripe.checkout.sessions.expire(session.id);
      outcome.closed.push(session.id);
    } catch (error) {
      if (!isStripeError(error)) throw error;
      const now = await statusAfterRefusal(deps.stripe, session.id, error);
      if (now === 'complete') outcome.completedMeanwhile.push(session.id);
      else if (now !== 'expired') outcome.failed.push({ sessionId: session.id, message: error.message });
    }
  }
  return outcome;
}

/**
 * Opens the shop, then clears each standing order's shop mark and sets Stripe's collection to its record
 * (still void while its customer paused it).
 */
export async function resumeShop(
  deps: Pick<ShopStripeDeps, 'table' | 'stripe' | 'now' | 'cutoffHours'>,
): Promise<{ settings: ShopSettings; renewals: RenewalsOutcome }> {
  const settings = await writeShopSettings(deps.table, { mode: 'open' }, deps.now());
  const capacity = capacityStoreFromTable(deps.table);
  return { settings, renewals: await followShopPause(false, { ...deps, capacity }) };
}

/** This shop's open sessions, every page (the SDK fetches further pages as the loop goes). */
async function listOpenSessions(
  deps: Pick<ShopStripeDeps, 'stripe' | 'shopId' | 'now'>,
): Promise<Stripe.Checkout.Session[]> {
  const since = Math.floor((deps.now().getTime() - OPEN_SESSION_LOOKBACK_MS) / 1000);
  const sessions: Stripe.Checkout.Session[] = [];
  for await (const session of deps.stripe.checkout.sessions.list({
    status: 'open',
    created: { gte: since },
    limit: 100,
  })) {
    if (hasShopMarker(session.metadata, deps.shopId)) sessions.push(session);
  }
  return sessions;
}

/**
 * Only an invalid-request answer can mean "no longer open", then the session says completed or expired; any
 * other error, or a session still open, leaves it payable: `undefined`.
 */
async function statusAfterRefusal(
  stripe: Stripe,
  sessionId: string,
  error: Stripe.errors.StripeError,
): Promise<Stripe.Checkout.Session.Status | undefined> {
  if (error.type !== 'StripeInvalidRequestError') return undefined;
  try {
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    return session.status === 'open' ? undefined : (session.status ?? undefined);
  } catch (retrieveError) {
    if (!isStripeError(retrieveError)) throw retrieveError;
    return undefined;
  }
}
