import { en } from 'zod/locales';
import type * as z from 'zod/mini';

/**
 * zod's English messages for one parse, passed as its parse context. zod/mini registers no locale,
 * so its built-in messages read "Invalid input"; the lambdas want the English ones where a message
 * reaches a person (ConfigError, a corrupt order, a session that needs review). They ask per parse
 * rather than through zod's global configuration, which is process-wide: with it, the customer's 400 message
 * from the shared request schema would depend on which module happened to load first.
 */
export const ENGLISH_MESSAGES: z.core.ParseContext<z.core.$ZodIssue> = { error: en().localeError };
