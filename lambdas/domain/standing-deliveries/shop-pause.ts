import { logger } from '../../lib/logger';
import { isStripeError } from '../../lib/stripe-errors';
import type { ShopSettings } from '../storage/shop-settings';
import {
  changeStandingOrder,
  listActiveStandingOrderIds,
  readStandingOrder,
  type StandingOrderChange,
  type StandingOrderItem,
} from '../storage/standing-orders';
import { type FollowDeps, settleStandingOrder } from './follow-record';
import { voidedByPause } from './pause-collection';

// The shop's pause holds renewals too (issue 50, ADR 0061): the record says so (`pausedByShopAt`, no email),
// then Stripe's collection (void) and the holds follow (settleStandingOrder); the reconciler marks one
// recorded during the pause, and its due sweep settles a crash in between (ADR 0062).

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
 * Every active standing order made to follow the shop; one already so costs a read, no Stripe call. A failure
 * does not stop the others: it is reported and the reconciler's next run retries it.
 */
export async function followShopPause(held: boolean, deps: FollowDeps): Promise<RenewalsOutcome> {
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
async function syncShopPause(subscriptionId: string, held: boolean, deps: FollowDeps): Promise<boolean> {
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
