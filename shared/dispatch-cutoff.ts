/**
 * Default hours before the start of a dispatch day (London wall clock) after which an order goes
 * to the next week's dispatch: Saturday noon for a Monday. A module of its own, so the web page's
 * first load reads it without the dispatch calendar and its bank holidays.
 */
export const DEFAULT_DISPATCH_CUTOFF_HOURS = 36;
