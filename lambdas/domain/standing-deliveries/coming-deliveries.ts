import {
  addDays,
  dispatchCutoff,
  dispatchDayOfWeekOf,
  type IsoDate,
  nextDispatchDate,
} from '../../../shared/dispatch';
import { REPEAT_WEEKS, standingDeliveryDay } from '../../../shared/standing-order';
import { dispatchDaysFrom } from '../capacity/holds';
import type { StandingOrderItem } from '../storage/standing-orders';
import { firstComingIndex } from './pause-collection';

/** One unpaid delivery of a standing order still to come, and the moment Stripe takes its payment. */
export interface ComingDelivery {
  /** Which delivery (0 the first): always after the record's `lastDeliveryIndex` and `voidedThrough`. */
  index: number;
  day: IsoDate;
  paymentAt: Date;
  /** The customer skipped it: no payment taken, no bottles held (listed so the page can say so). */
  skipped: boolean;
}

export type ComingDeliveriesRecord = Pick<
  StandingOrderItem,
  | 'status'
  | 'repeat'
  | 'firstDelivery'
  | 'lastDeliveryIndex'
  | 'voidedThrough'
  | 'nextPaymentAt'
  | 'skippedDeliveries'
  | 'pausedByCustomerAt'
  | 'pausedByShopAt'
>;

const WEEK_MS = 7 * 86_400_000;

/**
 * The unpaid deliveries whose days fall in the checkout's window, in order: delivery `k` is paid at
 * nextPaymentAt + (k - lastDeliveryIndex - 1) periods and goes on that moment's standingDeliveryDay
 * (ADR 0058). Left out: a day closed at `now` (paid late, its sale goes on its own day then), one voided by a
 * pause (ADR 0064), and all while cancelled or paused, as nothing will be charged.
 */
export function comingDeliveries(
  record: ComingDeliveriesRecord,
  now: Date,
  options: { cutoffHours: number; weeks: number },
): ComingDelivery[] {
  if (record.status !== 'active' || record.pausedByCustomerAt || record.pausedByShopAt) return [];
  const { cutoffHours } = options;
  const window = dispatchDaysFrom(nextDispatchDate(now, { cutoffHours }), options.weeks);
  const [opens, closes] = [window[0], window.at(-1)];
  if (opens === undefined || closes === undefined) return [];
  const skipped = new Set(record.skippedDeliveries ?? []);
  const coming: ComingDelivery[] = [];
  // Each delivery's planned day is a week or two after the last's, so the loop ends past the
  // window; the bound only guards against a record whose first delivery is years back.
  const first = firstComingIndex(record);
  for (let index = first; index < first + 1000; index += 1) {
    const paymentAt = paymentMoment(record, index, cutoffHours);
    const day = standingDeliveryDay(
      { first: record.firstDelivery, repeat: record.repeat, index, paidAt: paymentAt },
      { cutoffHours },
    );
    // ISO dates compare as strings.
    if (day > closes) break;
    if (day >= opens) coming.push({ index, day, paymentAt, skipped: skipped.has(day) });
  }
  return coming;
}

/**
 * A period per delivery after the coming payment; without its moment (Stripe gave no period end), the latest
 * a payment may be: its planned day's packing cut-off.
 */
function paymentMoment(record: ComingDeliveriesRecord, index: number, cutoffHours: number): Date {
  const periods = index - record.lastDeliveryIndex - 1;
  if (record.nextPaymentAt !== undefined) {
    return new Date(Date.parse(record.nextPaymentAt) + periods * REPEAT_WEEKS[record.repeat] * WEEK_MS);
  }
  const planned = dispatchDayOfWeekOf(addDays(record.firstDelivery, 7 * REPEAT_WEEKS[record.repeat] * index));
  return new Date(dispatchCutoff(planned, cutoffHours).getTime() - 1);
}
