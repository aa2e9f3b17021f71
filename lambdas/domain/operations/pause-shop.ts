import type Stripe from 'stripe';
import { isStripeError } from '../../lib/stripe-errors';
import { hasShopMarker, isPaymentLinkSession } from '../checkout/order-metadata';
import { followShopPause, type RenewalsOutcome } from '../standing-orders/shop-pause';
import { capacityStoreFromTable } from '../storage/capacity-table';
import { writeShopSettings } from '../storage/settings-store';
import type { ShopSettings } from '../storage/shop-settings';
import type { ShopStripeDeps } from './shop-deps';

/**
 * How far back open sessions are looked for. A Checkout Session lives at most 24 hours (Stripe's
 * limit on `expires_at`), so nothing older can be open; the extra hour covers a difference
 * between the operator's clock and Stripe's.
 */
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
  /**
   * Sessions that completed between the listing and the expire (Stripe answers the expire with
   * an error): a payment was made or started, and fulfilment records the order, flagged.
   */
  completedMeanwhile: string[];
  /** Sessions Stripe would not expire for another reason (a permission, a network failure): still payable. */
  failed: Array<{ sessionId: string; message: string }>;
  /** The open sessions could not be listed at all: some may still be payable. */
  listingFailed?: string | undefined;
  /** The standing orders' renewals held (ADR 0061): no payment taken while the shop is not open. */
  renewals?: RenewalsOutcome | undefined;
}

/**
 * Pauses the shop (`paused`: checkout refused with the message; `requests`: order requests
 * without payment) and closes the Checkout Sessions of this shop that customers could still pay,
 * through Stripe's expire API, so a pause means no new money.
 *
 * The settings are written first, then the open sessions are listed: every create-checkout that
 * reads the settings after the write refuses to make a session, so the listing sees every session
 * made before the pause. Listing first would leave a gap in which a new session could be made
 * after the listing and never closed. A create-checkout confirms the settings before it makes a
 * session (read again, consistently, when its copy is over a second old) and reads them once more
 * after: a session Stripe finished after this listing is expired there (handlers/create-checkout).
 *
 * Resuming releases no order request's bottles: those customers still wait for the merchant's
 * answer, and each request's hold lapses by itself 48 hours after it came (REQUEST_HOLD_HOURS),
 * while one client can hold at most a few (client-holds.ts).
 *
 * Which sessions close: only those carrying this deployment's marker (another stage or developer
 * on the same Stripe account keeps its own). `pause --message` closes every one of them, payment
 * links of order requests included: the merchant cannot send, whoever was invited. `pause
 * --requests` closes the ordinary checkouts but keeps the payment links: the merchant sent each
 * one deliberately with `request-payment`, which is how requests mode takes money.
 *
 * A session that completed or expired between the listing and the expire answers the expire with
 * an error: it counts as not closed and never fails the pause; a completed one is reported, and
 * its order is recorded (flagged) by fulfilment as any paid session is.
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
 * Opens the shop (paid orders again), then lets the standing orders' renewals go on: each one's
 * shop mark cleared and Stripe's collection set to what its record says (still void while its
 * customer paused it).
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
 * What became of a session Stripe would not expire. Only an invalid-request answer can mean "no
 * longer open"; then the session says whether it completed or expired. Any other error (or a
 * session still open) leaves it payable: `undefined`.
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
