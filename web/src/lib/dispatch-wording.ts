import type { IsoDate } from '../../../shared/dispatch';
import { clockTime, expectedArrivalDate, formatDispatchDate, formatWeekday } from '../../../shared/dispatch';

// The server's spelled-out dates and clock (ADR 0034), so the page and the emails read alike.
const HOUR_MS = 3_600_000;

/** The London wall-clock instant `cutoffHours` before 00:00 on `day`, as a UTC-labelled Date. */
function cutoffWallClock(day: IsoDate, cutoffHours: number): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - cutoffHours * HOUR_MS);
}

/** "12:00 on Saturday 28 November": the last moment an order still makes the dispatch on `day`. */
export function formatCutoff(day: IsoDate, cutoffHours: number): string {
  const cutoff = cutoffWallClock(day, cutoffHours);
  return `${clockTime(cutoff)} on ${formatDispatchDate(cutoff.toISOString().slice(0, 10))}`;
}

/** "Saturday 12:00": the weekly cut-off before a Monday dispatch, for wording that names no date. */
export function formatWeeklyCutoff(cutoffHours: number): string {
  // 30 November 2026 is a Monday; only the weekday and time of the result are used.
  const cutoff = cutoffWallClock('2026-11-30', cutoffHours);
  return `${formatWeekday(cutoff)} ${clockTime(cutoff)}`;
}

/** When most orders dispatched on `day` arrive (expectedArrivalDate): "Tuesday 1 December". */
export function formatArrivalEstimate(day: IsoDate): string {
  return formatDispatchDate(expectedArrivalDate(day));
}
