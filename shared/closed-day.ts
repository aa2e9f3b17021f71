// A delay closes the dispatch day it moved orders off (that day's capacity set to 0), so the day
// the merchant could not dispatch is not sold to the next customer. The CLI's `delay`, the admin
// API's answer and the /admin page all say so, and how to sell the day again, in these words.

import * as z from 'zod/mini';

/**
 * The day a delay closed, and what its own limit was before (`null`: no limit that day;
 * `default`: it followed the weekly default): setting it back reopens the day as it was.
 */
export const closedDaySchema = z.object({
  date: z.string(),
  before: z.union([z.number(), z.null(), z.literal('default')]),
});
export type ClosedDay = z.infer<typeof closedDaySchema>;

/**
 * "Monday 7 December 2026 is now closed: checkout sells nothing more on it. To sell it again:
 * <how>.": `day` as the caller writes dates, `reopen` the caller's way to set its capacity.
 */
export function describeClosedDay(day: string, reopen: string): string {
  return `${day} is now closed: checkout sells nothing more on it. To sell it again: ${reopen}.`;
}

/** The value that sets a closed day's capacity back to what it was (`capacity --set`, POST capacity's `bottles`). */
export function reopeningValue(closed: ClosedDay): string {
  return closed.before === null ? 'none' : String(closed.before);
}
