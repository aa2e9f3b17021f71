import { type AddressCorrection, addressCorrectionSchema } from '../../../shared/address-correction';
import { describeIssues } from '../../../shared/checkout-request';
import { dispatchCutoff, formatDispatchDate, formatLondonTime } from '../../../shared/dispatch';
import type { SendOnceOutcome } from '../emails/send-email-once';
import { OrderPageNotFoundError, samePageKey } from '../order-page-token';
import { RefusedError } from '../refusal';
import { appendHistory, historyEntry } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';
import { changeOrder, emailOf } from '../storage/outbox';
import { sendDueEmails } from './order-actions';
import type { ShopDeps } from './shop-deps';

/** What a correction needs: the shop's deps and the packing cut-off (DISPATCH_CUTOFF_HOURS). */
export type CorrectAddressDeps = ShopDeps & { cutoffHours: number };

/** The details were not valid: the checkout's own message per field. */
export class InvalidCorrectionError extends RefusedError {
  constructor(
    readonly fields: Partial<Record<string, string>>,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidCorrectionError';
  }
}

export interface CorrectAddressResult {
  reference: string;
  /** False when the details given were already the order's: nothing written, nothing sent. */
  changed: boolean;
  email: SendOnceOutcome | 'not-due';
  order: ManagedOrder;
}

/** One line of the history: a multi-line address read on one line. */
function oneLine(address: string, postcode: string): string {
  return `${address.replace(/\s*\n\s*/g, ', ')} ${postcode}`;
}

/** "address: A → B; phone: C → D": before and after of what changed, for the merchant to read. */
function changeDetail(order: ManagedOrder, next: AddressCorrection): string {
  const parts: string[] = [];
  const before = oneLine(order.deliveryAddress, order.postcode);
  const after = oneLine(next.address, next.postcode);
  if (before !== after) parts.push(`address: ${before} → ${after}`);
  if (order.customerPhone !== next.phone) {
    parts.push(`phone: ${order.customerPhone || '(none)'} → ${next.phone || '(none)'}`);
  }
  return parts.join('; ');
}

/** The details, checked with the checkout's own rules. */
function parseCorrection(body: unknown): AddressCorrection {
  const parsed = addressCorrectionSchema.safeParse(body);
  if (!parsed.success) {
    const { fields, message } = describeIssues(parsed.error);
    throw new InvalidCorrectionError(fields, message);
  }
  return parsed.data;
}

/** Refuses a correction of an order dispatched, refunded, or past its packing cut-off. */
function refuseOnceClosed(order: ManagedOrder, now: Date, cutoffHours: number): void {
  if (order.status === 'dispatched') {
    throw new RefusedError(`${order.reference} has been dispatched: its address can no longer change.`);
  }
  if (order.status === 'refunded') {
    throw new RefusedError(`${order.reference} was refunded: there is nothing to deliver.`);
  }
  const cutoff = dispatchCutoff(order.dispatchDate, cutoffHours);
  // A careful merchant packs from the list printed at the cut-off: a later change could miss the label.
  if (now.getTime() >= cutoff.getTime()) {
    throw new RefusedError(
      `${order.reference} is being packed for ${formatDispatchDate(order.dispatchDate)} (changes closed ${formatLondonTime(cutoff, now)}): please contact the seller.`,
    );
  }
}

/**
 * Corrects a paid order's address, postcode and phone until its day's packing cut-off (order page, admin,
 * CLI), by the checkout's rules (shared/address-correction.ts). One outbox write, conditional on the order
 * still paid, same day, same details read (two at once never lose one), with history and a confirmation
 * email. Through the order page, its page key is a condition too, so a revoke in between leaves the order
 * unchanged.
 * @throws InvalidCorrectionError for details the checkout would refuse; RefusedError once the order is
 *   dispatched, refunded, past its cut-off, or changed meanwhile; OrderPageNotFoundError when `pageKey` is
 *   given and the order's key is no longer it.
 */
export async function correctOrderAddress(
  order: ManagedOrder,
  body: unknown,
  options: { actor: string; pageKey?: string | undefined },
  deps: CorrectAddressDeps,
): Promise<CorrectAddressResult> {
  const next = parseCorrection(body);
  const now = deps.now();
  refuseOnceClosed(order, now, deps.cutoffHours);
  const detail = changeDetail(order, next);
  if (detail === '') return { reference: order.reference, changed: false, email: 'not-due', order };

  const at = now.toISOString();
  const { pageKey } = options;
  const result = await changeOrder(
    deps.table,
    order.sessionId,
    (stored) => {
      // The token's key replaced meanwhile (a revoke): the old link opens nothing, this included.
      if (pageKey !== undefined && !samePageKey(stored.pageKey, pageKey)) throw new OrderPageNotFoundError();
      if (
        stored.status !== 'paid' ||
        stored.dispatchDate !== order.dispatchDate ||
        stored.deliveryAddress !== order.deliveryAddress ||
        stored.postcode !== order.postcode ||
        stored.customerPhone !== order.customerPhone
      ) {
        throw new RefusedError(
          `${order.reference} changed meanwhile (dispatched, delayed or corrected): look at it again before correcting.`,
        );
      }
      const history = appendHistory(historyEntry(at, options.actor, 'address-corrected', detail));
      const written = {
        ...stored,
        deliveryAddress: next.address,
        postcode: next.postcode,
        customerPhone: next.phone,
      };
      return {
        // Written by this one door only, but held to them all the same, as the merchant read them.
        condition: `#status = :paid AND dispatchDate = :day AND deliveryAddress = :oldAddress AND postcode = :oldPostcode AND customerPhone = :oldPhone${pageKey === undefined ? '' : ' AND pageKey = :pageKey'}`,
        set: ['deliveryAddress = :address', 'postcode = :postcode', 'customerPhone = :phone', history.set],
        names: { '#status': 'status', ...history.names },
        values: {
          ...history.values,
          ':paid': 'paid',
          ':address': next.address,
          ':postcode': next.postcode,
          ':phone': next.phone,
          ':day': order.dispatchDate,
          ':oldAddress': order.deliveryAddress,
          ':oldPostcode': order.postcode,
          ':oldPhone': order.customerPhone,
          ...(pageKey !== undefined && { ':pageKey': pageKey }),
        },
        emails: [emailOf('addressCorrected', written)],
      };
    },
    deps.now,
  );
  const { order: stored, email } = await sendDueEmails(order.sessionId, result, 'addressCorrected', deps);
  return { reference: stored.reference, changed: true, email, order: stored };
}
