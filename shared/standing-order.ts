/**
 * Standing orders (issue 50): the same bottles again every week or every 2 weeks, each delivery
 * paid through Stripe before its packing cut-off. "Once" is the spec's own flow and stays the
 * default: a checkout body without `repeat` is a one-off order, exactly as the spec sends it.
 */
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

export function isRepeat(value: unknown): value is Repeat {
  return typeof value === 'string' && (REPEATS as readonly string[]).includes(value);
}
