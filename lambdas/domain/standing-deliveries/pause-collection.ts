import type Stripe from 'stripe';
import { addDays, dispatchDayOfWeekOf, type IsoDate } from '../../../shared/dispatch';
import { REPEAT_WEEKS } from '../../../shared/standing-order';
import type { StandingOrderItem } from '../storage/standing-orders';

// Stripe's collection follows the record (issue 50, ADR 0059): every action writes the record, then
// pause_collection; a crash between leaves the record due for the reconciler (ADR 0062).

const WEEK_MS = 7 * 86_400_000;
const HOUR_MS = 3_600_000;

/** What `pause_collection` should be: void while paused or a skipped payment is coming, else cleared. */
export type PauseCollection = Stripe.SubscriptionUpdateParams.PauseCollection | '';

/**
 * When Stripe takes delivery `index`'s payment: the coming payment's moment plus 1 or 2 weeks per delivery
 * between. Undefined for a paid delivery, or when Stripe has not said when the coming payment is.
 */
export function standingPaymentAt(
  record: Pick<StandingOrderItem, 'nextPaymentAt' | 'lastDeliveryIndex' | 'repeat'>,
  index: number,
): Date | undefined {
  if (record.nextPaymentAt === undefined || index <= record.lastDeliveryIndex) return undefined;
  const periods = index - record.lastDeliveryIndex - 1;
  return new Date(Date.parse(record.nextPaymentAt) + periods * REPEAT_WEEKS[record.repeat] * WEEK_MS);
}

/** The first delivery neither paid nor voided by a pause (ADR 0064). */
export function firstComingIndex(
  record: Pick<StandingOrderItem, 'lastDeliveryIndex' | 'voidedThrough'>,
): number {
  return Math.max(record.lastDeliveryIndex, record.voidedThrough ?? -1) + 1;
}

/**
 * At a resume, Stripe voided the payments due between `pausedAt` and `now` (pause_collection void), so
 * `voidedThrough` becomes the last of them; a payment due before the pause (late, retried) may still be paid.
 */
export function voidedByPause(
  record: Pick<StandingOrderItem, 'nextPaymentAt' | 'lastDeliveryIndex' | 'repeat' | 'voidedThrough'>,
  pausedAt: string,
  now: Date,
): { voidedThrough?: number } {
  let voidedThrough: number | undefined;
  // The bound only guards against a record whose coming payment is years back.
  for (let index = firstComingIndex(record); index < firstComingIndex(record) + 1000; index += 1) {
    const at = standingPaymentAt(record, index);
    if (at === undefined || at > now) break;
    if (at.getTime() >= Date.parse(pausedAt)) voidedThrough = index;
  }
  return voidedThrough === undefined ? {} : { voidedThrough };
}

/** Whether delivery `index` is the one in `day`'s week (a bank holiday or a late payment may move its day within the week). */
function isDeliveryOfDay(
  record: Pick<StandingOrderItem, 'firstDelivery' | 'repeat'>,
  index: number,
  day: IsoDate,
) {
  const planned = addDays(record.firstDelivery, 7 * REPEAT_WEEKS[record.repeat] * index);
  return dispatchDayOfWeekOf(planned) === dispatchDayOfWeekOf(day);
}

/** Whether unpaid delivery `index` is one the customer skipped. */
function isSkipped(record: StandingOrderItem, index: number): boolean {
  return (record.skippedDeliveries ?? []).some((day) => isDeliveryOfDay(record, index, day));
}

/**
 * `{behavior: 'void'}` while the customer or shop paused it; with `resumes_at` an hour after the last skipped
 * payment in a row while the coming one is skipped, so Stripe voids exactly those; else `''`.
 */
export function pauseCollectionFor(record: StandingOrderItem, now: Date): PauseCollection {
  if (record.status === 'cancelled') return '';
  if (record.pausedByCustomerAt !== undefined || record.pausedByShopAt !== undefined) {
    return { behavior: 'void' };
  }
  let index = comingPaymentIndex(record, now);
  if (index === undefined || !isSkipped(record, index)) return '';
  while (isSkipped(record, index + 1)) index += 1;
  const lastSkipped = standingPaymentAt(record, index);
  if (lastSkipped === undefined) return '';
  return { behavior: 'void', resumes_at: Math.floor((lastSkipped.getTime() + HOUR_MS) / 1000) };
}

/** An invoice is made at the payment's moment, voided or charged within the hour: "coming" that hour. */
function comingPaymentIndex(record: StandingOrderItem, now: Date): number | undefined {
  const first = firstComingIndex(record);
  const firstAt = standingPaymentAt(record, first);
  if (firstAt === undefined) return undefined;
  const period = REPEAT_WEEKS[record.repeat] * WEEK_MS;
  const behind = now.getTime() - (firstAt.getTime() + HOUR_MS);
  return behind < 0 ? first : first + Math.floor(behind / period) + 1;
}
