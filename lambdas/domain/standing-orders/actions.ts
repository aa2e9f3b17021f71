import { dispatchCutoff, formatDispatchDate, formatLondonDayAndTime } from '../../../shared/dispatch';
import { quoteOrder } from '../../../shared/pricing';
import type { StandingOrderChangeBody } from '../../../shared/standing-order-page';
import { logger } from '../../lib/logger';
import { refundFoundOrder } from '../operations/order-actions';
import type { ShopStripeDeps } from '../operations/shop-deps';
import { RefusedError } from '../refusal';
import { type FollowDeps, settleStandingOrder } from '../standing-deliveries/follow-record';
import { voidedByPause } from '../standing-deliveries/pause-collection';
import { type StandingEmailDeps, standingEmailFacts } from '../standing-deliveries/standing-emails';
import type { CapacityStore } from '../storage/capacity-store';
import { ACTORS } from '../storage/history';
import {
  changeStandingOrder,
  markStandingOrderCancelled,
  type NewStandingEmail,
  readStandingOrder,
  type StandingOrderChange,
  type StandingOrderItem,
} from '../storage/standing-orders';
import { nextSkippable, type PaidDelivery, paidDeliveryOf } from './page';

// A standing order's changes (issue 50, ADR 0059): one conditional write of the record with the email it owes
// (ADR 0044), then settleStandingOrder (Stripe, holds, emails). A change not allowed now: RefusedError (409).

/** What the actions need: the operator's Stripe actions' deps, and the dispatch days' bottles. */
export interface StandingOrderActionDeps extends ShopStripeDeps {
  /** Where the coming deliveries' holds are (syncStandingHolds, ADR 0060); absent only in tests of the actions alone. */
  capacity?: CapacityStore | undefined;
}

/** A write lost to another change reads and decides again, this many times at most. */
const ATTEMPTS = 5;

/** Reads, asks `plan` (which refuses), and writes conditionally; a failed condition reads and plans again. */
async function changeWithRetry(
  subscriptionId: string,
  plan: (record: StandingOrderItem) => Promise<StandingOrderChange>,
  deps: Pick<StandingOrderActionDeps, 'table'>,
): Promise<StandingOrderItem> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const record = await readStandingOrder(deps.table, subscriptionId);
    if (record === undefined) throw new RefusedError(`There is no standing order ${subscriptionId}.`);
    const written = await changeStandingOrder(deps.table, record, await plan(record));
    if (written !== undefined) return written;
  }
  throw new RefusedError('The standing order changed while this was being saved: look at it again.');
}

/** The customer's cancel also tells the merchant; the merchant's and Stripe's need not. */
function cancelEmails(record: StandingOrderItem, by: string, at: string): NewStandingEmail[] {
  const facts = standingEmailFacts(record, { by });
  const emails: NewStandingEmail[] = [{ kind: 'cancel', at, facts }];
  if (by === ACTORS.customer) emails.push({ kind: 'cancelNotice', at, facts });
  return emails;
}

export type CancelResult = { record: StandingOrderItem; changed: boolean };

/** Marks the record cancelled by `by`, with the emails that owes, unless it is already; undefined: no record. */
async function markCancelled(
  subscriptionId: string,
  by: string,
  deps: Pick<StandingOrderActionDeps, 'table' | 'now'>,
): Promise<CancelResult | undefined> {
  let record = await readStandingOrder(deps.table, subscriptionId);
  if (record === undefined) return undefined;
  for (let attempt = 0; record.status === 'active' && attempt < ATTEMPTS; attempt += 1) {
    const at = deps.now();
    const emails = cancelEmails(record, by, at.toISOString());
    const written = await markStandingOrderCancelled(deps.table, record, { by, emails }, at);
    if (written !== undefined) return { record: written, changed: true };
    record = (await readStandingOrder(deps.table, subscriptionId)) ?? record;
  }
  return { record, changed: false };
}

/**
 * Cancels a standing order once, whoever asks: the record marked with its emails in one write, then the
 * subscription deleted in Stripe, holds gone, emails sent; asked again it finishes what a stopped call left.
 * @throws RefusedError when there is no such standing order.
 */
export async function cancelStandingOrder(
  subscriptionId: string,
  actor: string,
  deps: StandingOrderActionDeps,
): Promise<CancelResult> {
  const result = await markCancelled(subscriptionId, actor, deps);
  if (result === undefined) throw new RefusedError(`There is no standing order ${subscriptionId}.`);
  if (result.changed) logger.info('Standing order cancelled', { subscriptionId, by: actor });
  await settleStandingOrder(subscriptionId, deps, deps);
  return result;
}

/**
 * `customer.subscription.deleted`: marked cancelled by Stripe with its email, unless our cancel marked it
 * first (that write owes the email). Then the holds and the email.
 */
export async function recordCancelledInStripe(
  subscriptionId: string,
  deps: StandingEmailDeps & FollowDeps,
): Promise<boolean> {
  const result = await markCancelled(subscriptionId, ACTORS.stripe, deps);
  if (result === undefined) return false;
  await settleStandingOrder(subscriptionId, deps, deps);
  return result.changed;
}

function refuseCancelled(record: StandingOrderItem): void {
  if (record.status === 'cancelled')
    throw new RefusedError('This standing order is cancelled: nothing can be changed.');
}

/** Pause and resume: the customer's own pause (the shop's pause is the merchant's, apart). */
function planPause(pause: boolean, now: Date) {
  return async (record: StandingOrderItem): Promise<StandingOrderChange> => {
    refuseCancelled(record);
    const paused = record.pausedByCustomerAt !== undefined;
    if (pause && paused) throw new RefusedError('This standing order is paused already.');
    if (!pause && !paused)
      throw new RefusedError('This standing order is not paused: there is nothing to resume.');
    const facts = standingEmailFacts(record);
    const emails = [{ kind: pause ? ('pause' as const) : ('resume' as const), at: now.toISOString(), facts }];
    const at = now.toISOString();
    if (pause) return { at, set: { pausedByCustomerAt: at }, emails };
    // The payments Stripe voided meanwhile are no delivery's (ADR 0064).
    const voided = voidedByPause(record, record.pausedByCustomerAt ?? at, now);
    return { at, set: voided, remove: ['pausedByCustomerAt'], emails };
  };
}

/** A new quantity from the next unpaid delivery: the record's bottles and price, then Stripe's line and metadata. */
function planQuantity(bottles: 3 | 6 | 9, now: Date) {
  return async (record: StandingOrderItem): Promise<StandingOrderChange> => {
    refuseCancelled(record);
    if (record.bottles === bottles)
      throw new RefusedError(`This standing order is ${bottles} bottles already.`);
    const { totalPence } = quoteOrder(bottles);
    const facts = standingEmailFacts({ ...record, bottles, totalPence }, { previousBottles: record.bottles });
    const at = now.toISOString();
    return { at, set: { bottles, totalPence }, emails: [{ kind: 'quantity', at, facts }] };
  };
}

/**
 * Skip the delivery of `day` (named, as a page shown before another change names another): a paid one
 * refunded first (idempotent per order), an unpaid one voided in Stripe (pauseCollectionFor).
 */
function planSkip(day: string, deps: StandingOrderActionDeps) {
  return async (record: StandingOrderItem): Promise<StandingOrderChange> => {
    refuseCancelled(record);
    const now = deps.now();
    const paid = await paidDeliveryOf(record, deps.table, now);
    const healed = refundedBySkip(record, paid, day);
    if (healed !== undefined) return skipChange(record, day, healed, now);
    const next = nextSkippable(record, paid, now, deps.cutoffHours);
    if (next === undefined || next.day !== day) throw new RefusedError(skipRefusal(record, paid, day, deps));
    let refundedPence: number | undefined;
    if (next.kind === 'paid') {
      const refund = await refundFoundOrder(next.order, { reason: 'other', actor: ACTORS.customer }, deps);
      refundedPence = refund.pence;
    } else if (next.paymentAt.getTime() <= now.getTime()) {
      throw new RefusedError(
        `The payment for ${formatDispatchDate(day)} is being taken now: look again in a few minutes.`,
      );
    }
    return skipChange(record, day, refundedPence, now);
  };
}

function skipChange(
  record: StandingOrderItem,
  day: string,
  refundedPence: number | undefined,
  now: Date,
): StandingOrderChange {
  const facts = standingEmailFacts(record, { day, ...(refundedPence !== undefined && { refundedPence }) });
  const at = now.toISOString();
  return {
    at,
    set: { skippedDeliveries: [...(record.skippedDeliveries ?? []), day] },
    emails: [{ kind: 'skip', at, facts }],
  };
}

/** A skip's refund whose record write was lost (a crash, a change meanwhile), written now; or undefined. */
function refundedBySkip(
  record: StandingOrderItem,
  paid: PaidDelivery | undefined,
  day: string,
): number | undefined {
  if (paid === undefined || paid.day !== day || (record.skippedDeliveries ?? []).includes(day))
    return undefined;
  const { order } = paid;
  return order.status === 'refunded' && order.refundRequestedBy === ACTORS.customer
    ? order.totalPence
    : undefined;
}

function skipRefusal(
  record: StandingOrderItem,
  paid: PaidDelivery | undefined,
  day: string,
  deps: StandingOrderActionDeps,
): string {
  if ((record.skippedDeliveries ?? []).includes(day))
    return `The delivery of ${formatDispatchDate(day)} is skipped already.`;
  const cutoff = dispatchCutoff(day, deps.cutoffHours);
  if (deps.now() >= cutoff || paid?.order.status === 'dispatched') {
    return `The delivery of ${formatDispatchDate(day)} can no longer be skipped: its packing cut-off was ${formatLondonDayAndTime(cutoff)}.`;
  }
  return `The delivery of ${formatDispatchDate(day)} is not the next one to skip: look at the page again.`;
}

type WithoutToken<T> = T extends unknown ? Omit<T, 'token'> : never;
/** A change the page sends, without its token. */
export type PageChange = WithoutToken<StandingOrderChangeBody>;

/**
 * One change from the page (its token opened `record`): skip, quantity, pause, resume or cancel. Answers the
 * record.
 * @throws RefusedError for a change not allowed now (409).
 */
export async function changeFromPage(
  record: StandingOrderItem,
  change: PageChange,
  deps: StandingOrderActionDeps,
): Promise<StandingOrderItem> {
  const { subscriptionId } = record;
  if (change.action === 'cancel') {
    const result = await cancelStandingOrder(subscriptionId, ACTORS.customer, deps);
    if (!result.changed) throw new RefusedError('This standing order is cancelled already.');
    return result.record;
  }
  const now = deps.now();
  const plan =
    change.action === 'skip'
      ? planSkip(change.day, deps)
      : change.action === 'quantity'
        ? planQuantity(change.quantity, now)
        : planPause(change.action === 'pause', now);
  const written = await changeWithRetry(subscriptionId, plan, deps);
  logger.info('Standing order changed by the customer', { subscriptionId, action: change.action });
  // Stripe follows, the holds are set again, the emails owed are sent, the marker goes.
  await settleStandingOrder(subscriptionId, deps, deps);
  return written;
}
