import * as z from 'zod/mini';
import type { ForecastEnv } from '../../lib/config';
import { logger } from '../../lib/logger';
import { type ExtensionOptions, readSecretString } from '../../lib/secrets-extension';
import type { ForecastSource } from './open-meteo';

/** JSON key of the Open-Meteo secret: `{ "openMeteoApiKey": "..." }` (docs/deploy-reference.md, npm run setup). */
export const OPEN_METEO_KEY_JSON_KEY = 'openMeteoApiKey';

/** Past this a forecast is "not seen": the admin page and the daily check never wait longer for one place. */
export const FORECAST_TIMEOUT_MS = 2_000;

/** Open-Meteo's free host, and the host its commercial keys are for (open-meteo.com/en/pricing). */
export const OPEN_METEO_FREE_URL = 'https://api.open-meteo.com';
export const OPEN_METEO_COMMERCIAL_URL = 'https://customer-api.open-meteo.com';

// An empty key is setup's "no key": the free endpoint. Other fields (the stack's filler) are ignored.
const keyDocumentSchema = z.object({ [OPEN_METEO_KEY_JSON_KEY]: z.string() });

/**
 * Where forecasts come from: FORECAST_API_URL, with Open-Meteo's commercial key read from Secrets
 * Manager (through the extension, as the Stripe keys are) when FORECAST_API_KEY_SECRET_ID is set;
 * a key turns the free host into the customer-api host it is for (another URL, a stand-in, is kept).
 * No secret id, or an empty key: no key (the free endpoint, the local stand-in). A key that cannot
 * be read is logged and left out rather than thrown: the weather check then asks the free endpoint
 * or says it could not see the forecast, and the rest of the admin goes on.
 */
export async function loadForecastSource(
  env: ForecastEnv,
  extension: ExtensionOptions = {},
): Promise<ForecastSource> {
  const source = { url: env.FORECAST_API_URL, timeoutMs: FORECAST_TIMEOUT_MS };
  if (!env.FORECAST_API_KEY_SECRET_ID) return source;
  try {
    const text = await readSecretString(env.FORECAST_API_KEY_SECRET_ID, extension);
    const parsed = keyDocumentSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`secret must be JSON {"${OPEN_METEO_KEY_JSON_KEY}": "..."}`);
    const apiKey = parsed.data[OPEN_METEO_KEY_JSON_KEY].trim();
    if (apiKey === '') return source;
    const url =
      source.url.replace(/\/+$/, '') === OPEN_METEO_FREE_URL ? OPEN_METEO_COMMERCIAL_URL : source.url;
    return { ...source, url, apiKey };
  } catch (error) {
    // Never the value: only that it could not be used.
    logger.error('Open-Meteo key not readable', {
      secretId: env.FORECAST_API_KEY_SECRET_ID,
      error: error instanceof Error ? error.message.slice(0, 200) : 'unreadable',
    });
    return source;
  }
}
