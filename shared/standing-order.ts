import {
  addDays,
  type DispatchOptions,
  dispatchDayOfWeekOf,
  formatDispatchDate,
  formatWeekday,
  type IsoDate,
  londonDate,
  nextDispatchDate,
} from './dispatch';
import { formatGbp, type Quote } from './pricing';

/** Standing orders (issue 50); a checkout body without `repeat` is the spec's one-off order. */
export const REPEATS = ['weekly', 'fortnightly'] as const;
export type Repeat = (typeof REPEATS)[number];

/** The choice beside the spec's form, in the order shown; `once` is sent as no `repeat` at all. */
export const REPEAT_CHOICES = [
  { value: 'once', label: 'Once' },
  { value: 'weekly', label: 'Every week' },
  { value: 'fortnightly', label: 'Every 2 weeks' },
] as const satisfies ReadonlyArray<{ value: 'once' | Repeat; label: string }>;

/** Weeks between deliveries: Stripe's `recurring.interval_count` with `interval: 'week'`. */
export const REPEAT_WEEKS: Readonly<Record<Repeat, 1 | 2>> = { weekly: 1, fortnightly: 2 };

// The order page's standing-order texts, pure functions of the choice, quote and `now`. Renewals keep
// the first payment's moment (Stripe's billing anchor); each is dispatched in its own week.

const WEEK_MS = 7 * 86_400_000;

/** "£14.70 a delivery (3 bottles at £3.25 and £4.95 delivery)": what each delivery costs, every time. */
export function formatRepeatCost(quote: Quote): string {
  return `${formatGbp(quote.totalPence)} a delivery (${quote.bottles} bottles at ${formatGbp(quote.unitPricePence)} and ${formatGbp(quote.shippingPence)} delivery)`;
}

/**
 * "£14.70 every week by card: paid today at checkout, then every Monday, …". `now`'s weekday: renewals
 * keep the first payment's moment, so every payment precedes its delivery's cut-off.
 */
export function describeRepeatPayments(repeat: Repeat, quote: Quote, now: Date): string {
  const weekday = formatWeekday(new Date(`${londonDate(now)}T00:00:00Z`));
  const every = repeat === 'weekly' ? 'week' : '2 weeks';
  const then = repeat === 'weekly' ? `every ${weekday}` : `every other ${weekday}`;
  return `${formatGbp(quote.totalPence)} every ${every} by card: paid today at checkout, then ${then}, each time before that delivery's packing cut-off.`;
}

/**
 * Delivery `index`'s dispatch day: its own week, 1 or 2 weeks × `index` after the first, but never a
 * day whose cut-off had passed when it was paid (a payment retried late goes on the next one).
 */
export function standingDeliveryDay(
  delivery: { first: IsoDate; repeat: Repeat; index: number; paidAt: Date },
  options: DispatchOptions = {},
): IsoDate {
  const { first, repeat, index, paidAt } = delivery;
  const planned = dispatchDayOfWeekOf(addDays(first, 7 * REPEAT_WEEKS[repeat] * index));
  const earliest = nextDispatchDate(paidAt, options);
  // ISO dates compare as strings.
  return planned.localeCompare(earliest) > 0 ? planned : earliest;
}

/** Which delivery a payment is for: Stripe makes each invoice at its period's boundary, however late paid. */
export function standingDeliveryIndex(
  startSeconds: number,
  invoiceCreatedSeconds: number,
  repeat: Repeat,
): number {
  const period = REPEAT_WEEKS[repeat] * 7 * 86_400;
  return Math.max(0, Math.round((invoiceCreatedSeconds - startSeconds) / period));
}

/** One payment of a standing order and the day its delivery is dispatched. */
export interface RepeatDelivery {
  paidOn: IsoDate;
  dispatchOn: IsoDate;
}

/** The first `count` payments of a standing order started at `now`, and each one's dispatch day. */
export function planRepeatDeliveries(
  repeat: Repeat,
  now: Date,
  options: DispatchOptions = {},
  count = 3,
): RepeatDelivery[] {
  const first = nextDispatchDate(now, options);
  return Array.from({ length: count }, (_, index) => {
    const paidAt = new Date(now.getTime() + index * REPEAT_WEEKS[repeat] * WEEK_MS);
    return {
      paidOn: londonDate(paidAt),
      dispatchOn: standingDeliveryDay({ first, repeat, index, paidAt }, options),
    };
  });
}

/** "Paid today, dispatched Monday 14 December", …: the coming deliveries as the order page lists them. */
export function describeRepeatDeliveries(
  repeat: Repeat,
  now: Date,
  options: DispatchOptions = {},
  count = 3,
): string[] {
  const today = londonDate(now);
  return planRepeatDeliveries(repeat, now, options, count).map(({ paidOn, dispatchOn }) => {
    const paid = paidOn === today ? 'today' : formatDispatchDate(paidOn, { today });
    return `Paid ${paid}, dispatched ${formatDispatchDate(dispatchOn, { today })}`;
  });
}
