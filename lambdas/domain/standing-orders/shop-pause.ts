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
  type StandingOrderChange,
  type StandingOrderItem,
} from '../storage/standing-orders';
import { settleStandingOrder } from './follow-record';
import { voidedByPause } from './pause-collection';

// The shop's pause holds the standing orders' renewals too (issue 50, ADR 0061): no payment is
// taken while the merchant has stopped sales. The record says so (`pausedByShopAt`, written as
// any change of it, its version bumped, no email), then Stripe's collection follows the record
// (settleStandingOrder: pause_collection void) and its coming holds go. The reconciler runs the
// same sync, so one recorded during the pause is marked; a crash between the record's write and
// Stripe's leaves the record's due marker, and the reconciler's sweep settles it (ADR 0062).

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
 * when it is not so yet, then Stripe and the holds set to what its record says; one already so
 * costs one read and no Stripe call (a crash after its mark left the due marker). One that fails does not stop the others; it is reported, and the
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

/** The shop's pause written, or lifted with the payments Stripe voided meanwhile counted (ADR 0064). */
function shopPauseChange(record: StandingOrderItem, held: boolean, now: Date): StandingOrderChange {
  const at = now.toISOString();
  if (held) return { at, set: { pausedByShopAt: at }, emails: [] };
  return {
    at,
    set: voidedByPause(record, record.pausedByShopAt ?? at, now),
    remove: ['pausedByShopAt'],
    emails: [],
  };
}

/** One standing order to the shop's mode, its record first, then Stripe and its holds: `true` when its record changed. */
async function syncShopPause(subscriptionId: string, held: boolean, deps: ShopPauseDeps): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const record = await readStandingOrder(deps.table, subscriptionId);
    if (record === undefined || record.status !== 'active') return false;
    if ((record.pausedByShopAt !== undefined) === held) return false;
    const written = await changeStandingOrder(deps.table, record, shopPauseChange(record, held, deps.now()));
    if (written !== undefined) {
      await settleStandingOrder(subscriptionId, deps);
      return true;
    }
  }
  return false;
}
