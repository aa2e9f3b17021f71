// The one schema for a day on every boundary. Beside dispatch.ts rather than in it, so the pages
// that read dates without checking a body do not load zod.
import * as z from 'zod/mini';
import { isCalendarDate } from './dispatch';

const MESSAGE = 'Give a date as YYYY-MM-DD.';

/** A day that exists, written `YYYY-MM-DD` (2026-11-31 is refused). */
export const calendarDateSchema = z.string({ error: MESSAGE }).check(z.refine(isCalendarDate, MESSAGE));
