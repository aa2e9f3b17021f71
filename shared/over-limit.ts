// A delay moves its orders' sold bottles to the new day whatever that day's limit (the merchant
// chose the day). The CLI's `delay` and the /admin page's delay both say so, in these words.

import * as z from 'zod/mini';

/** A day that has sold more than its limit: what it sold, and the limit. */
export const overLimitSchema = z.object({ sold: z.number(), capacity: z.number() });
export type OverLimit = z.infer<typeof overLimitSchema>;

/**
 * "Tuesday 1 December 2026 is now over its limit: 15 sold of 10. Nothing is cancelled, and it
 * sells no more.": what a delay says of its new day when that day is now over its limit. `day` is
 * the day as the caller writes dates (the CLI with its year, the page without).
 */
export function describeOverLimit(day: string, { sold, capacity }: OverLimit): string {
  return `${day} is now over its limit: ${sold} sold of ${capacity}. Nothing is cancelled, and it sells no more.`;
}
