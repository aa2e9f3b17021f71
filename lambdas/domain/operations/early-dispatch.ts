import {
  firstComingDispatchDay,
  formatDispatchDate,
  type IsoDate,
  londonDate,
} from '../../../shared/dispatch';
import { RefusedError } from '../refusal';
import type { ManagedOrder } from '../storage/managed-order';

/**
 * An order planned after the coming dispatch day, dispatched without `early`: its customer was promised the
 * later day. `plannedFor` lets page and CLI ask, then resend with `early`.
 */
export class PlannedLaterError extends RefusedError {
  readonly plannedFor: IsoDate;

  constructor(reference: string, plannedFor: IsoDate, now: Date) {
    super(
      `${reference} is planned for ${formatDispatchDate(plannedFor, { today: londonDate(now) })}: dispatch it now only on purpose (early).`,
    );
    this.name = 'PlannedLaterError';
    this.plannedFor = plannedFor;
  }
}

/**
 * The refusal of dispatching `order` now, when it is a paid order planned after the coming dispatch day and
 * the merchant did not say `early`; undefined when it may go. The coming day, not `status`'s next day to
 * pack: an order left from last week would make this week's "early".
 */
export function earlyDispatchRefusal(
  order: Pick<ManagedOrder, 'reference' | 'status' | 'dispatchDate'>,
  early: boolean | undefined,
  now: Date,
): PlannedLaterError | undefined {
  if (early === true || order.status !== 'paid' || order.dispatchDate <= firstComingDispatchDay(now)) {
    return undefined;
  }
  return new PlannedLaterError(order.reference, order.dispatchDate, now);
}
