import {
  DISPATCH_WINDOW_WEEKS,
  formatDispatchDate,
  type IsoDate,
  londonDate,
} from '../../../shared/dispatch';
import { REPEAT_WEEKS, type Repeat } from '../../../shared/standing-order';
import { type CapacitySettings, limitFor } from '../storage/capacity-settings';
import type { CapacityStore } from '../storage/capacity-store';
import { comingDeliveries } from './coming-deliveries';

const WEEK_MS = 7 * 86_400_000;

/** One of a new standing order's coming days within the 8 weeks has no room for its bottles: nothing was asked of Stripe. */
export class StandingOrderDayFullError extends Error {
  /** What the order page shows: which day, and what the customer can do instead. */
  readonly customerMessage: string;

  constructor(
    readonly day: IsoDate,
    readonly bottles: number,
    now: Date,
  ) {
    super(`${day} has no room for a standing order's ${bottles} bottles`);
    this.name = 'StandingOrderDayFullError';
    // Fewer bottles may fit; a one-off moves to a day with room by itself.
    const text = formatDispatchDate(day, { today: londonDate(now) });
    this.customerMessage = `Sorry, ${text} is fully booked, and this standing order would deliver ${bottles} bottles then. Please choose fewer bottles, or order "Once".`;
  }
}

/**
 * Refuses a new standing order before payment when a coming delivery within DISPATCH_WINDOW_WEEKS lacks room
 * (ADR 0060), planned as its record will be; the first day is the checkout's reservation. One read per
 * limited day.
 * @throws StandingOrderDayFullError naming the first full day.
 */
export async function assertStandingRoom(
  deps: { store: Pick<CapacityStore, 'read'>; capacity: CapacitySettings | undefined; cutoffHours: number },
  order: { first: IsoDate; repeat: Repeat; bottles: number },
  now: Date,
): Promise<void> {
  const planned = comingDeliveries(
    {
      status: 'active',
      repeat: order.repeat,
      firstDelivery: order.first,
      lastDeliveryIndex: 0,
      nextPaymentAt: new Date(now.getTime() + REPEAT_WEEKS[order.repeat] * WEEK_MS).toISOString(),
    },
    now,
    { cutoffHours: deps.cutoffHours, weeks: DISPATCH_WINDOW_WEEKS },
  );
  const full = await Promise.all(
    planned.map(async ({ day }) => {
      const limit = limitFor(deps.capacity, day);
      if (limit === undefined) return false;
      return limit - (await deps.store.read(day)).taken < order.bottles;
    }),
  );
  const day = planned.find((_, at) => full[at])?.day;
  if (day !== undefined) throw new StandingOrderDayFullError(day, order.bottles, now);
}
