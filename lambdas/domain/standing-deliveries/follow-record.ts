import type Stripe from 'stripe';
import type { CapacityStore } from '../storage/capacity-store';
import type { ShopTable } from '../storage/orders-table';
import {
  clearStandingOrderDue,
  readStandingOrderWithEmails,
  type StandingOrderItem,
} from '../storage/standing-orders';
import { type PauseCollection, pauseCollectionFor } from './pause-collection';
import { type StandingEmailDeps, sendStandingOrderEmails } from './standing-emails';
import { syncStandingHolds } from './standing-holds';

// Stripe, the holds and the emails follow the record (ADR 0059, 0062): every change writes the record with
// its emails and `outboxDueAt`; settleStandingOrder (else the reconciler) makes the rest follow.

/** What making Stripe and the holds follow a record needs. */
export interface FollowDeps {
  table: ShopTable;
  stripe: Stripe;
  now: () => Date;
  cutoffHours: number;
  /** The coming deliveries' holds (ADR 0060); absent only in tests of the actions alone. */
  capacity?: CapacityStore | undefined;
}

/** The same pause_collection, Stripe's (null when none) and ours ('' when none). */
function samePause(current: Stripe.Subscription.PauseCollection | null, wanted: PauseCollection): boolean {
  if (wanted === '') return current === null;
  return current?.behavior === wanted.behavior && (current.resumes_at ?? undefined) === wanted.resumes_at;
}

/**
 * The subscription follows the record: deleted when cancelled; else pause_collection, the bottles line's
 * quantity and `quantity` metadata (fulfilInvoice's check), changed only where they differ: heals crashes.
 */
export async function applyStandingOrderToStripe(
  record: StandingOrderItem,
  deps: Pick<FollowDeps, 'stripe' | 'now'>,
): Promise<void> {
  const subscription = await deps.stripe.subscriptions.retrieve(record.subscriptionId);
  if (subscription.status === 'canceled') return;
  if (record.status === 'cancelled') {
    await deps.stripe.subscriptions.cancel(record.subscriptionId);
    return;
  }
  const params: Stripe.SubscriptionUpdateParams = {};
  const pause = pauseCollectionFor(record, deps.now());
  if (!samePause(subscription.pause_collection, pause)) params.pause_collection = pause;
  const bottles = subscription.items.data[0];
  if (bottles !== undefined && bottles.quantity !== record.bottles) {
    params.items = [{ id: bottles.id, quantity: record.bottles }];
    params.proration_behavior = 'none';
  }
  if (subscription.metadata.quantity !== String(record.bottles)) {
    params.metadata = { quantity: String(record.bottles) };
  }
  if (Object.keys(params).length === 0) return;
  await deps.stripe.subscriptions.update(record.subscriptionId, params);
}

/** A newer change meanwhile is followed too, this many times at most; the marker stays for the next sweep after. */
const ROUNDS = 5;

/**
 * Stripe follows the record, the holds are set, owed emails sent once, then the due marker goes, conditional
 * on the version followed; re-read after Stripe's answer so an older record's call never lands last
 * unnoticed. Without `emails` (a shop pause, owing none) an unsent email keeps the marker.
 * @returns how many emails this call sent.
 */
export async function settleStandingOrder(
  subscriptionId: string,
  deps: FollowDeps,
  emails?: StandingEmailDeps,
): Promise<number> {
  let sent = 0;
  let { record } = await readStandingOrderWithEmails(deps.table, subscriptionId);
  for (let round = 0; record !== undefined && round < ROUNDS; round += 1) {
    await applyStandingOrderToStripe(record, deps);
    if (deps.capacity !== undefined)
      await syncStandingHolds(record, { capacity: deps.capacity, cutoffHours: deps.cutoffHours }, deps.now());
    if (emails !== undefined) sent += await sendStandingOrderEmails(subscriptionId, emails);
    const after = await readStandingOrderWithEmails(deps.table, subscriptionId);
    if (after.record === undefined) return sent;
    if (after.record.version === record.version) {
      // Another sender's live claim, or an email this call could not send: the marker stays.
      const unsettled = after.emails.some(({ state }) => state === 'pending' || state === 'sending');
      if (after.record.outboxDueAt === undefined || unsettled) return sent;
      if (await clearStandingOrderDue(deps.table, after.record)) return sent;
      ({ record } = await readStandingOrderWithEmails(deps.table, subscriptionId));
    } else {
      record = after.record;
    }
  }
  return sent;
}
