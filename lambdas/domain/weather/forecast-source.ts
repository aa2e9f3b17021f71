import * as z from 'zod/mini';
import {
  OPEN_METEO_COMMERCIAL_URL,
  OPEN_METEO_FREE_URL,
  OPEN_METEO_KEY_JSON_KEY,
} from '../../../shared/open-meteo';
import type { ForecastEnv } from '../../lib/config';
import { logger } from '../../lib/logger';
import { emitMetric, METRIC_NAMES, type MetricsWriter } from '../../lib/metrics';
import { type ExtensionOptions, readSecretString } from '../../lib/secrets-extension';
import type { ForecastSource } from './open-meteo';

export { OPEN_METEO_COMMERCIAL_URL, OPEN_METEO_FREE_URL, OPEN_METEO_KEY_JSON_KEY };

/** Past this a forecast is "not seen": the admin page and the daily check never wait longer for one place. */
export const FORECAST_TIMEOUT_MS = 2_000;

// An empty key is setup's "no key": the free endpoint. Other fields (the stack's filler) are ignored.
const keyDocumentSchema = z.object({ [OPEN_METEO_KEY_JSON_KEY]: z.string() });

/** How the stage's key was found: none stored (or no secret), read, or not readable. */
type KeyRead = { key: string } | { missing: 'no key stored' | 'key not readable' };

/** The key document's key; an empty one is "no key stored". Never throws: a failure is logged. */
async function readForecastKey(env: ForecastEnv, extension: ExtensionOptions): Promise<KeyRead> {
  if (!env.FORECAST_API_KEY_SECRET_ID) return { missing: 'no key stored' };
  try {
    const text = await readSecretString(env.FORECAST_API_KEY_SECRET_ID, {
      port: env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
      ...extension,
    });
    const parsed = keyDocumentSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`secret must be JSON {"${OPEN_METEO_KEY_JSON_KEY}": "..."}`);
    const key = parsed.data[OPEN_METEO_KEY_JSON_KEY].trim();
    return key === '' ? { missing: 'no key stored' } : { key };
  } catch (error) {
    // Never the value: only that it could not be used.
    logger.error('Open-Meteo key not readable', {
      secretId: env.FORECAST_API_KEY_SECRET_ID,
      error: error instanceof Error ? error.message.slice(0, 200) : 'unreadable',
    });
    return { missing: 'key not readable' };
  }
}

/** What the weather card, the daily check's metric and the log say when a trading stage has no key. */
export function forecastKeyProblem(missing: 'no key stored' | 'key not readable'): string {
  const why =
    missing === 'no key stored' ? 'no Open-Meteo key is stored' : 'its Open-Meteo key could not be read';
  return `This stage declares commercial use, but ${why}: the weather check asks Open-Meteo's free endpoint, which is for non-commercial use only. Store the key with npm run setup (--open-meteo-key), then run npm run doctor.`;
}

/**
 * FORECAST_API_URL, with Open-Meteo's commercial key read like the Stripe keys when
 * FORECAST_API_KEY_SECRET_ID is set (a key turns the free host into customer-api). An unreadable key is
 * logged, not thrown, so the check still works; on a `commercial` stage it is the `keyProblem` the card shows
 * and {@link reportForecastKey} counts (ADR 0045). `extension` overrides the port and token (tests).
 */
export async function loadForecastSource(
  env: ForecastEnv,
  extension: ExtensionOptions = {},
): Promise<ForecastSource> {
  const source = { url: env.FORECAST_API_URL, timeoutMs: FORECAST_TIMEOUT_MS };
  const read = await readForecastKey(env, extension);
  if ('missing' in read) {
    if (env.FORECAST_PLAN !== 'commercial') return source;
    const keyProblem = forecastKeyProblem(read.missing);
    logger.error('Open-Meteo key missing on a commercial stage', { problem: read.missing });
    return { ...source, keyProblem };
  }
  const url = source.url.replace(/\/+$/, '') === OPEN_METEO_FREE_URL ? OPEN_METEO_COMMERCIAL_URL : source.url;
  return { ...source, url, apiKey: read.key };
}

/**
 * One `ForecastKeyUnreadable` per check of a trading stage lacking its key (alarmed); returns the problem.
 */
export function reportForecastKey(source: ForecastSource, metrics: MetricsWriter): string | undefined {
  if (source.keyProblem !== undefined) emitMetric(metrics, METRIC_NAMES.forecastKeyUnreadable, 1);
  return source.keyProblem;
}
