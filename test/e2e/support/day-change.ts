import { firstComingDispatchDay, londonDate, nextDispatchDate } from '../../../shared/dispatch';

/**
 * The days a spec reads from the clock when it starts: London's today, the day an order placed now is
 * dispatched (the stack's 36-hour cut-off, Saturday 12:00 London) and the coming dispatch day. The stack
 * reads the same real clock, so a test running across a change of one of them would expect another day
 * than the page shows.
 */
function daysAt(instant: number): string {
  const now = new Date(instant);
  return `${londonDate(now)} ${nextDispatchDate(now, { cutoffHours: 36 })} ${firstComingDispatchDay(now)}`;
}

/**
 * How long to wait so that none of those days changes within `withinMs` of now: until a second past the
 * change when one falls within it, else 0. Changes are hours apart, so two never fall in one window.
 */
export function msClearOfDayChange(now: number, withinMs: number): number {
  const days = daysAt(now);
  if (daysAt(now + withinMs) === days) return 0;
  let before = now;
  let after = now + withinMs;
  while (after - before > 50) {
    const middle = Math.floor((before + after) / 2);
    if (daysAt(middle) === days) before = middle;
    else after = middle;
  }
  return after - now + 1000;
}
