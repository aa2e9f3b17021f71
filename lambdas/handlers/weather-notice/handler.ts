import { shopEmailIdentity } from '../../domain/emails/send-email';
import { loadForecastSource, reportForecastKey } from '../../domain/weather/forecast-source';
import { postcodeInAddress } from '../../domain/weather/postcode-places';
import {
  notifyWeatherAtRisk,
  type WeatherNoticeDeps,
  type WeatherNoticeResult,
} from '../../domain/weather/weather-notice';
import { ordersTable } from '../../lib/aws';
import { initOnce } from '../../lib/cold-start';
import { type Env, parseEnv, weatherNoticeRuntimeEnvSchema } from '../../lib/config';
import { stdoutMetricsWriter } from '../../lib/metrics';
import { createSesClient } from '../../lib/ses-client';

/** The weather notice's clients from the environment: once per cold start. */
export async function loadWeatherNoticeDeps(env: Env): Promise<WeatherNoticeDeps> {
  const config = parseEnv(weatherNoticeRuntimeEnvSchema, env);
  const ses = createSesClient({ region: config.AWS_REGION, endpoint: config.SES_ENDPOINT });
  const { sender, seller } = shopEmailIdentity(ses, config);
  return {
    table: ordersTable(config),
    now: () => new Date(),
    forecast: await loadForecastSource(config),
    dispatchPostcode: postcodeInAddress(config.SELLER_ADDRESS),
    sender,
    merchantEmail: config.MERCHANT_EMAIL,
    shopName: seller.shopName,
    siteUrl: config.SITE_URL,
  };
}

/**
 * The scheduled (EventBridge, daily) entry point: the event carries nothing; the run emails the
 * merchant when tomorrow's orders are at risk, once per day however often it runs.
 */
export function createWeatherNoticeHandler(
  deps: WeatherNoticeDeps | (() => Promise<WeatherNoticeDeps>),
): (event?: unknown) => Promise<WeatherNoticeResult> {
  const getDeps = typeof deps === 'function' ? deps : async () => deps;
  return async () => {
    const loaded = await getDeps();
    // Every daily run counts a trading stage's missing key, so its alarm holds until the key is read.
    reportForecastKey(loaded.forecast, loaded.metrics ?? stdoutMetricsWriter);
    return notifyWeatherAtRisk(loaded);
  };
}

export const handler = createWeatherNoticeHandler(initOnce(() => loadWeatherNoticeDeps(process.env)));
