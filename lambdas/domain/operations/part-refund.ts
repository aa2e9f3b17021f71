import type Stripe from 'stripe';
import { clockTime, londonOffsetMs } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { isStripeError } from '../../lib/stripe-errors';
import { giveBackPartOfSale, holdBottles, holdId } from '../capacity/holds';
import { partRefundWhat } from '../emails/order-updates';
import type { SendOnceOutcome } from '../emails/send-email-once';
import { RefusedError } from '../refusal';
import { capacityStoreFromTable } from '../storage/capacity-table';
import { appendHistory, historyEntry } from '../storage/history';
import type { ManagedOrder, PartRefund, RefundReason } from '../storage/managed-order';
import { type ChangeResult, changeOrder, emailOf } from '../storage/outbox';
import { clearPartRefundPending, markPartRefundPending, partRefundsBefore } from '../storage/refund-writes';
import { findOrder, paymentIntentOf, sendDueEmails } from './order-actions';
import type { ShopStripeDeps } from './shop-deps';

export interface PartRefundResult {
  reference: string;
  refundId: string;
  pence: number;
  email: SendOnceOutcome;
  order: ManagedOrder;
}

/** What a part refund costs: the bottles at the price the customer paid, and the delivery they paid. */
export function partRefundPence(
  order: Pick<ManagedOrder, 'unitPricePence' | 'shippingPence'>,
  part: { bottles: number; delivery: boolean },
): number {
  return part.bottles * order.unitPricePence + (part.delivery ? order.shippingPence : 0);
}

/** A part refund like one made this long ago is taken for a repeat unless asked for `again`. */
export const REPEAT_WINDOW_MS = 15 * 60_000;

/** Why this looks like a repeat (same bottles and delivery within 15 minutes) and how to do it on purpose. */
function repeatOf(order: ManagedOrder, part: { bottles: number; delivery: boolean }, now: Date) {
  const same = (order.partRefunds ?? []).filter(
    (p) =>
      p.bottles === part.bottles &&
      p.delivery === part.delivery &&
      now.getTime() - Date.parse(p.at) < REPEAT_WINDOW_MS,
  );
  const last = same.at(-1);
  if (last === undefined) return undefined;
  const at = Date.parse(last.at);
  const minutes = Math.floor((now.getTime() - at) / 60_000);
  const ago = minutes < 1 ? 'less than a minute ago' : `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const when = `${clockTime(new Date(at + londonOffsetMs(at)))}${last.by === undefined ? '' : `, by ${last.by}`}`;
  return `${order.reference}: ${partRefundWhat(last)} (${formatGbp(last.pence)}) was refunded ${ago} (${when}). To refund the same again on purpose, confirm it again (CLI: --again).`;
}

/** Why this part cannot be refunded, in the merchant's words; undefined when it can. */
function refusalOf(order: ManagedOrder, part: { bottles: number; delivery: boolean }, pence: number) {
  if (order.status === 'refunded') return `${order.reference} was refunded in full already.`;
  if (part.bottles < 0 || !Number.isInteger(part.bottles)) return 'Bottles is a whole number.';
  if (pence <= 0) return 'Refund at least one bottle, or the delivery.';
  const parts = order.partRefunds ?? [];
  const bottlesLeft = order.bottles - parts.reduce((sum, p) => sum + p.bottles, 0);
  if (part.bottles > bottlesLeft) {
    return `${order.reference} has ${bottlesLeft} of its ${order.bottles} bottles not refunded yet: ${part.bottles} cannot be refunded.`;
  }
  if (part.delivery && parts.some((p) => p.delivery))
    return `The delivery of ${order.reference} was refunded already.`;
  const left = order.totalPence - (order.partlyRefundedPence ?? 0);
  if (pence > left) {
    return `${formatGbp(pence)} is more than the ${formatGbp(left)} of ${order.reference} not refunded yet.`;
  }
  return undefined;
}

/**
 * Refunds part of an order (bottles, delivery, or both) at its own prices, through Stripe with its own email,
 * as often as needed up to what was paid. Keyed `refund-<session>-part-<n>` (or by the request's
 * `intention`), so a repeat after a crash gets the same refund back. The intent is stored first
 * (`partRefundPending`) so the `charge.refunded` Stripe sends at once leaves the recording to this call; then
 * one conditional write (n-1 parts recorded) appends it, its history line and email entry. Undispatched
 * bottles go back to their day. The same part within 15 minutes is refused as a repeat unless `again`.
 * @throws RefusedError for more than remains, a refunded order, a repeat, or Stripe's refusal.
 */
export async function refundPart(
  reference: string,
  input: {
    bottles: number;
    delivery: boolean;
    reason: RefundReason;
    actor: string;
    again?: boolean | undefined;
    intention?: string | undefined;
  },
  deps: ShopStripeDeps,
): Promise<PartRefundResult> {
  const part = { bottles: input.bottles, delivery: input.delivery };
  const found = await findOrder(deps, reference);
  const made = found.partRefunds?.find(
    (p) => input.intention !== undefined && p.intention === input.intention,
  );
  if (made !== undefined) return emailAndAnswer(found, made, undefined, deps);
  const pence = partRefundPence(found, part);
  const refused =
    refusalOf(found, part, pence) ?? (input.again === true ? undefined : repeatOf(found, part, deps.now()));
  if (refused !== undefined) throw new RefusedError(refused);
  const seq = (found.partRefunds?.length ?? 0) + 1;
  const pending = await markPartRefundPending(deps.table, found.sessionId, seq);
  if (!pending)
    throw new RefusedError(`${found.reference} changed meanwhile (another refund?): look at it again.`);

  const refund = await askStripeForPart(found, { ...input, seq, pence }, deps);
  const record: PartRefund = {
    refundId: refund.id,
    pence,
    ...part,
    reason: input.reason,
    at: deps.now().toISOString(),
    by: input.actor,
    ...(input.intention !== undefined && { intention: input.intention }),
  };
  const hold = holdAfterPart(found, part.bottles);
  const result = await recordPart(found, { record, seq, hold, actor: input.actor }, deps);
  if (result.changed && hold.givesBack && hold.old !== undefined && found.capacityDate !== undefined) {
    await giveBackPartOfSale(capacityStoreFromTable(deps.table), found.capacityDate, hold.old, part.bottles);
  }
  return emailAndAnswer(found, record, result, deps);
}

/** Stripe's refund of `pence`, keyed by order and sequence (or intention); a refusal clears the pending. */
async function askStripeForPart(
  found: ManagedOrder,
  part: { seq: number; pence: number; reason: RefundReason; intention?: string | undefined },
  deps: ShopStripeDeps,
): Promise<Stripe.Refund> {
  const { seq, intention } = part;
  try {
    return await deps.stripe.refunds.create(
      {
        payment_intent: found.paymentIntentId ?? (await paymentIntentOf(found.sessionId, deps.stripe)),
        amount: part.pence,
        // Keyed by the intention, the parameters must not change with the sequence number.
        metadata: {
          reference: found.reference,
          reason: part.reason,
          ...(intention === undefined ? { part: String(seq) } : { intention }),
        },
      },
      {
        idempotencyKey:
          intention === undefined
            ? `refund-${found.sessionId}-part-${seq}`
            : `refund-${found.sessionId}-intention-${intention}`,
      },
    );
  } catch (error) {
    if (isStripeError(error) && error.type !== 'StripeConnectionError' && error.type !== 'StripeAPIError') {
      await clearPartRefundPending(deps.table, found.sessionId, seq);
      throw new RefusedError(
        `Stripe refused the refund of ${found.reference}: ${error.message}. Nothing was refunded.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The order's hold once `bottles` are refunded: given back when not dispatched yet, smaller or gone. */
interface HoldAfterPart {
  givesBack: boolean;
  old: string | undefined;
  next: string | undefined;
}

function holdAfterPart(found: ManagedOrder, bottles: number): HoldAfterPart {
  // Bottles not dispatched yet were counted on their day: what is left of the sale stays counted.
  const givesBack =
    found.status === 'paid' &&
    bottles > 0 &&
    found.capacityHold !== undefined &&
    found.capacityDate !== undefined &&
    found.capacityMovingFrom === undefined;
  const old = found.capacityHold;
  const next =
    givesBack && old !== undefined && holdBottles(old) > bottles
      ? holdId(old.slice(0, old.lastIndexOf(':')), holdBottles(old) - bottles)
      : undefined;
  return { givesBack, old, next };
}

/** One outbox write records the part (n-1 recorded, this one pending) and its email's entry, with totals. */
function recordPart(
  found: ManagedOrder,
  part: { record: PartRefund; seq: number; hold: HoldAfterPart; actor: string },
  deps: ShopStripeDeps,
): Promise<ChangeResult> {
  const { record, seq, hold } = part;
  const { pence, reason, refundId } = record;
  const before = partRefundsBefore(seq);
  return changeOrder(
    deps.table,
    found.sessionId,
    (stored) => {
      if (stored.partRefundPending !== seq || (stored.partRefunds?.length ?? 0) !== seq - 1) return null;
      const refundedSoFar = (stored.partlyRefundedPence ?? 0) + pence;
      const history = appendHistory(
        historyEntry(
          record.at,
          part.actor,
          'partly-refunded',
          `${formatGbp(pence)} for ${partRefundWhat(record)}, ${reason} (${refundId}); ${formatGbp(refundedSoFar)} of ${formatGbp(stored.totalPence)} in all`,
        ),
      );
      const written: ManagedOrder = {
        ...stored,
        partRefunds: [...(stored.partRefunds ?? []), record],
        partlyRefundedPence: refundedSoFar,
      };
      return {
        condition: `partRefundPending = :seq AND ${before.condition}`,
        set: [
          'partRefunds = list_append(if_not_exists(partRefunds, :none), :part)',
          'partlyRefundedPence = :soFar',
          history.set,
          ...(hold.givesBack && hold.next ? ['capacityHold = :nextHold'] : []),
        ],
        remove: ['partRefundPending', ...(hold.givesBack && !hold.next ? ['capacityHold'] : [])],
        names: history.names,
        values: {
          ...history.values,
          ...before.values,
          ':seq': seq,
          ':none': [],
          ':part': [record],
          ':soFar': refundedSoFar,
          ...(hold.next && { ':nextHold': hold.next }),
        },
        emails: [emailOf('partRefund', written)],
      };
    },
    deps.now,
  );
}

/** The part refund's email sent once (the order's outbox drained), and the order as it now is. */
async function emailAndAnswer(
  found: ManagedOrder,
  record: PartRefund,
  change: ChangeResult | undefined,
  deps: ShopStripeDeps,
): Promise<PartRefundResult> {
  const { order, email } = await sendDueEmails(found.sessionId, change, 'partRefund', deps);
  return { reference: order.reference, refundId: record.refundId, pence: record.pence, email, order };
}
