import type Stripe from 'stripe';
import { logger } from '../../lib/logger';
import { isStripeError } from '../../lib/stripe-errors';
import type { ShopTable } from '../storage/orders-table';
import type { ShopSettings } from '../storage/shop-settings';
import {
  listStandingOrders,
  readStandingOrder,
  type StandingOrderItem,
  setPausedByShop,
} from '../storage/standing-orders';
import { type PauseCollection, pauseCollectionFor } from './pause-collection';

// The shop's pause holds the standing orders' renewals too (issue 50, ADR 0061): no payment is
// taken while the merchant has stopped sales. The record says so (`pausedByShopAt`), and Stripe's
// collection follows the record (pauseCollectionFor); the reconciler runs the same sync, so a
// crash between the two writes, or a standing order recorded during the pause, heals.

export interface ShopPauseDeps {
  table: ShopTable;
  stripe: Stripe;
  now: () => Date;
}

/** How many standing orders were changed, and those Stripe refused (left to the reconciler). */
export interface RenewalsOutcome {
  changed: number;
  failed: Array<{ subscriptionId: string; message: string }>;
}

/** Whether the shop's mode holds renewals: a pause, and requests mode (no payment without the merchant). */
export function shopHoldsRenewals(settings: Pick<ShopSettings, 'mode'>): boolean {
  return settings.mode !== 'open';
}

/**
 * Every active standing order made to follow the shop: marked paused by the shop (or unmarked),
 * then its subscription's pause_collection set to what the record says. One refused by Stripe
 * does not stop the others; it is reported, and the reconciler's next run sets it again.
 */
export async function followShopPause(held: boolean, deps: ShopPauseDeps): Promise<RenewalsOutcome> {
  const outcome: RenewalsOutcome = { changed: 0, failed: [] };
  for (const listed of await listStandingOrders(deps.table, 'active')) {
    try {
      // Read again, strongly: the listing is eventually consistent.
      const record = await readStandingOrder(deps.table, listed.subscriptionId);
      if (record === undefined || record.status !== 'active') continue;
      if (await syncShopPause(record, held, deps)) outcome.changed += 1;
    } catch (error) {
      if (!isStripeError(error)) throw error;
      logger.warn('Could not set a standing order to follow the shop; the reconciler retries', {
        subscriptionId: listed.subscriptionId,
        error,
      });
      outcome.failed.push({ subscriptionId: listed.subscriptionId, message: error.message });
    }
  }
  return outcome;
}

/**
 * One standing order: its shop mark written when it differs from `held` (conditionally, so a
 * repeat writes nothing), then, read again, Stripe's collection set to the record's when Stripe's
 * differs. `true` when either changed.
 */
export async function syncShopPause(
  record: StandingOrderItem,
  held: boolean,
  deps: ShopPauseDeps,
): Promise<boolean> {
  let current = record;
  let marked = false;
  if ((record.pausedByShopAt !== undefined) !== held) {
    marked = await setPausedByShop(
      deps.table,
      record.subscriptionId,
      held ? deps.now().toISOString() : undefined,
    );
    // Read again: the customer may have paused, skipped or cancelled meanwhile.
    current = (await readStandingOrder(deps.table, record.subscriptionId)) ?? record;
  }
  if (current.status !== 'active') return marked;
  return (await applyCollection(current, deps)) || marked;
}

/** Stripe's pause_collection set to what the record says, only when Stripe's differs: `true` when set. */
async function applyCollection(record: StandingOrderItem, deps: ShopPauseDeps): Promise<boolean> {
  const wanted = pauseCollectionFor(record, deps.now());
  const subscription = await deps.stripe.subscriptions.retrieve(record.subscriptionId);
  if (subscription.status === 'canceled' || sameCollection(subscription.pause_collection, wanted))
    return false;
  await deps.stripe.subscriptions.update(record.subscriptionId, { pause_collection: wanted });
  logger.info('Standing order collection set', {
    subscriptionId: record.subscriptionId,
    pauseCollection: wanted === '' ? 'cleared' : wanted.behavior,
  });
  return true;
}

function sameCollection(
  current: Stripe.Subscription.PauseCollection | null,
  wanted: PauseCollection,
): boolean {
  if (wanted === '') return current === null;
  return (
    current !== null &&
    current.behavior === wanted.behavior &&
    (current.resumes_at ?? undefined) === (wanted.resumes_at ?? undefined)
  );
}
