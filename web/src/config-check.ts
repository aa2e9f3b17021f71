// Checked by hand rather than with zod, which would add about 7 KiB gzip wherever this runs (tests
// and prerendering; a browser build carries the answer, see config.ts).
import { DEFAULT_DISPATCH_CUTOFF_HOURS } from '../../shared/dispatch-cutoff';

/** What the browser app needs to know about its deployment. */
export interface AppConfig {
  /** Origin (optionally with a base path) the API is served from, without a trailing slash. */
  apiOrigin: string;
  /** The public, anonymous-level bearer sent with the checkout request; sent only when configured. */
  publicKey: string | undefined;
  /** Same meaning as the lambdas' DISPATCH_CUTOFF_HOURS, so the page shows the date the server will use. */
  dispatchCutoffHours: number;
}

const MAX_CUTOFF_HOURS = 24 * 14;

/** Vite leaves unset variables undefined, but an empty line in a .env file gives "": both are unset. */
function setting(env: Record<string, unknown>, name: string): unknown {
  const value = env[name];
  return value === '' ? undefined : value;
}

function parseApiOrigin(value: unknown): string | undefined | Error {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return new Error();
  // new URL, not URL.canParse: the latter is missing from browsers still on older phones.
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:' ? value : new Error();
  } catch {
    return new Error();
  }
}

function parsePublicKey(value: unknown): string | undefined | Error {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') return new Error();
  return value.trim();
}

function parseCutoffHours(value: unknown): number | undefined | Error {
  if (value === undefined) return undefined;
  const hours = typeof value === 'string' || typeof value === 'number' ? Number(value) : Number.NaN;
  return Number.isInteger(hours) && hours >= 0 && hours <= MAX_CUTOFF_HOURS ? hours : new Error();
}

/** The settings as checked: the API origin is undefined when it is the page's own. */
export type WebSettings = Omit<AppConfig, 'apiOrigin'> & { apiOrigin: string | undefined };

/**
 * Checks the build-time environment. Fails naming the setting, so a bad deployment shows up when
 * the app is built (vite.config.ts runs this) rather than as a confusing checkout failure.
 */
export function parseSettings(env: Record<string, unknown>): WebSettings {
  const apiOrigin = parseApiOrigin(setting(env, 'VITE_API_ORIGIN'));
  const publicKey = parsePublicKey(setting(env, 'VITE_PUBLIC_KEY'));
  const cutoffHours = parseCutoffHours(setting(env, 'VITE_DISPATCH_CUTOFF_HOURS'));
  if (apiOrigin instanceof Error || publicKey instanceof Error || cutoffHours instanceof Error) {
    const invalid = [
      apiOrigin instanceof Error ? 'VITE_API_ORIGIN' : '',
      publicKey instanceof Error ? 'VITE_PUBLIC_KEY' : '',
      cutoffHours instanceof Error ? 'VITE_DISPATCH_CUTOFF_HOURS' : '',
    ].filter(Boolean);
    throw new Error(`Invalid web configuration: check ${invalid.join(', ')}`);
  }
  return {
    apiOrigin: apiOrigin?.replace(/\/+$/, ''),
    publicKey,
    dispatchCutoffHours: cutoffHours ?? DEFAULT_DISPATCH_CUTOFF_HOURS,
  };
}

/** The checked settings at a page origin: the API is the page's own unless one was set. */
export function withPageOrigin(settings: WebSettings, pageOrigin: string): AppConfig {
  return { ...settings, apiOrigin: settings.apiOrigin ?? pageOrigin.replace(/\/+$/, '') };
}

/** Checks the build-time environment, for a page at `pageOrigin`. */
export function parseConfig(env: Record<string, unknown>, pageOrigin: string): AppConfig {
  return withPageOrigin(parseSettings(env), pageOrigin);
}
