// zod/mini, like the shared schemas: classic zod is not tree-shakable and the page ships this.
import * as z from 'zod/mini';
import { DEFAULT_DISPATCH_CUTOFF_HOURS } from '../../shared/dispatch';

/** What the browser app needs to know about its deployment. */
export interface AppConfig {
  /** Origin (optionally with a base path) the API is served from, without a trailing slash. */
  apiOrigin: string;
  /** The public, anonymous-level bearer sent with the checkout request; sent only when configured. */
  publicKey: string | undefined;
  /** Same meaning as the lambdas' DISPATCH_CUTOFF_HOURS, so the page shows the date the server will use. */
  dispatchCutoffHours: number;
}

// Vite leaves unset variables undefined, but an empty line in a .env file gives "": treat both as unset.
const optional = <T extends z.ZodMiniType>(schema: T) =>
  z.pipe(
    z.transform((value: unknown) => (value === '' ? undefined : value)),
    z.optional(schema),
  );

const envSchema = z.object({
  VITE_API_ORIGIN: optional(z.url({ protocol: /^https?$/ })),
  VITE_PUBLIC_KEY: optional(z.string().check(z.trim(), z.minLength(1))),
  VITE_DISPATCH_CUTOFF_HOURS: optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(24 * 14))),
});

/**
 * Parses the build-time environment. Fails fast, naming the setting, so a bad deployment shows up
 * when the page loads rather than as a confusing checkout failure.
 */
export function parseConfig(env: Record<string, unknown>, pageOrigin: string): AppConfig {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const setting = result.error.issues.map((issue) => String(issue.path[0])).join(', ');
    throw new Error(`Invalid web configuration: check ${setting}`);
  }
  return {
    apiOrigin: (result.data.VITE_API_ORIGIN ?? pageOrigin).replace(/\/+$/, ''),
    publicKey: result.data.VITE_PUBLIC_KEY,
    dispatchCutoffHours: result.data.VITE_DISPATCH_CUTOFF_HOURS ?? DEFAULT_DISPATCH_CUTOFF_HOURS,
  };
}

/** The app's configuration, read once. Components get it through AppProvider so tests can pass their own. */
export const config: AppConfig = parseConfig(import.meta.env, window.location.origin);
