import * as z from 'zod/mini';
import type { ForecastEnv } from '../../lib/config';
import { logger } from '../../lib/logger';
import { type ExtensionOptions, readSecretString } from '../../lib/secrets-extension';
import type { ForecastSource } from './open-meteo';

/** JSON key of the Open-Meteo secret: `{ "openMeteoApiKey": "..." }` (docs/deploy.md, npm run setup). */
export const OPEN_METEO_KEY_JSON_KEY = 'openMeteoApiKey';

/** Past this a forecast is "not seen": the admin page and the daily check never wait longer for one place. */
export const FORECAST_TIMEOUT_MS = 2_000;

const keyDocumentSchema = z.object({ [OPEN_METEO_KEY_JSON_KEY]: z.string().check(z.minLength(1)) });

/**
 * Where forecasts come from: FORECAST_API_URL, with Open-Meteo's commercial key read from Secrets
 * Manager (through the extension, as the Stripe keys are) when FORECAST_API_KEY_SECRET_ID is set.
 * No secret id: no key (the free endpoint, the local stand-in). A key that cannot be read is logged
 * and left out rather than thrown: the weather check then says it could not see the forecast,
 * and the rest of the admin goes on.
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
    return { ...source, apiKey: parsed.data[OPEN_METEO_KEY_JSON_KEY] };
  } catch (error) {
    // Never the value: only that it could not be used.
    logger.error('Open-Meteo key not readable', {
      secretId: env.FORECAST_API_KEY_SECRET_ID,
      error: error instanceof Error ? error.message.slice(0, 200) : 'unreadable',
    });
    return source;
  }
}
