// zod/mini registers no locale, so without this every built-in message would read "Invalid input".
// Classic zod registered English on first use; the lambdas keep its messages, which name the
// problem in ConfigError, needs-review problems and corrupt-order errors. Imported for its effect
// by the modules whose messages are surfaced (lib/config.ts loads it at every cold start).
import { en } from 'zod/locales';
import * as z from 'zod/mini';

z.config(en());
