import type Stripe from 'stripe';
import { logger } from '../../lib/logger';
import { isStripeError } from '../../lib/stripe-errors';
import type { CapacityStore } from '../storage/capacity-store';
import type { ShopTable } from '../storage/orders-table';
import type { ShopSettings } from '../storage/shop-settings';
import {
  changeStandingOrder,
  listActiveStandingOrderIds,
  readStandingOrder,
  type StandingOrderItem,
} from '../storage/standing-orders';
import { applyStandingOrderToStripe } from './actions';
import { syncStandingHolds } from './standing-holds';

// The shop's pause holds the standing orders' renewals too (issue 50, ADR 0061): no payment is
// taken while the merchant has stopped sales. The record says so (`pausedByShopAt`, written as
// any change of it, its version bumped, no email), then Stripe's collection follows the record
// (applyStandingOrderToStripe: pause_collection void) and its coming holds go. The reconciler
// runs the same sync, so a crash between the two writes, or one recorded during the pause, heals.

export interface ShopPauseDeps {
  table: ShopTable;
  stripe: Stripe;
  now: () => Date;
  cutoffHours: number;
  /** The coming deliveries' holds (ADR 0060): released while paused, held again on resume. */
  capacity?: CapacityStore | undefined;
}

/** How many standing orders the shop's mode changed, and those that failed (the reconciler retries). */
export interface RenewalsOutcome {
  changed: number;
  failed: Array<{ subscriptionId: string; message: string }>;
}

/** Whether the shop's mode holds renewals: a pause, and requests mode (no payment without the merchant). */
export function shopHoldsRenewals(settings: Pick<ShopSettings, 'mode'>): boolean {
  return settings.mode !== 'open';
}

/** A write lost to another change (a paid invoice, the customer's) reads and decides again, this many times. */
const ATTEMPTS = 5;

/**
 * Every active standing order made to follow the shop: marked paused by the shop (or unmarked)
 * when it is not so yet, then Stripe and the holds set to what its record says (each time, so a
 * crash between heals). One that fails does not stop the others; it is reported, and the
 * reconciler's next run does it again.
 */
export async function followShopPause(held: boolean, deps: ShopPauseDeps): Promise<RenewalsOutcome> {
  const outcome: RenewalsOutcome = { changed: 0, failed: [] };
  for (const subscriptionId of await listActiveStandingOrderIds(deps.table)) {
    try {
      if (await syncShopPause(subscriptionId, held, deps)) outcome.changed += 1;
    } catch (error) {
      if (!isStripeError(error)) throw error;
      logger.warn('Could not set a standing order to follow the shop; the reconciler retries', {
        subscriptionId,
        error,
      });
      outcome.failed.push({ subscriptionId, message: error.message });
    }
  }
  return outcome;
}

/** One standing order to the shop's mode, its record first: `true` when its record changed. */
async function syncShopPause(subscriptionId: string, held: boolean, deps: ShopPauseDeps): Promise<boolean> {
  let changed = false;
  let record: StandingOrderItem | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    record = await readStandingOrder(deps.table, subscriptionId);
    if (record === undefined || record.status !== 'active') return false;
    if ((record.pausedByShopAt !== undefined) === held) break;
    const written = await changeStandingOrder(
      deps.table,
      record,
      held
        ? { set: { pausedByShopAt: deps.now().toISOString() }, emails: [] }
        : { remove: ['pausedByShopAt'], emails: [] },
    );
    if (written !== undefined) {
      [record, changed] = [written, true];
      break;
    }
  }
  if (record === undefined) return changed;
  await applyStandingOrderToStripe(record, deps);
  if (deps.capacity !== undefined)
    await syncStandingHolds(record, { capacity: deps.capacity, cutoffHours: deps.cutoffHours }, deps.now());
  return changed;
}
