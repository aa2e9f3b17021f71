import { en } from 'zod/locales';
import type * as z from 'zod/mini';

/**
 * zod's English messages as a per-parse context (zod/mini registers no locale: "Invalid input"). Not zod's
 * global configuration: it is process-wide, so the customer's 400 message would depend on module load order.
 */
export const ENGLISH_MESSAGES: z.core.ParseContext<z.core.$ZodIssue> = { error: en().localeError };
