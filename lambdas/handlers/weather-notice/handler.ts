import { reportForecastKey } from '../../domain/weather/forecast-source';
import { postcodeInAddress } from '../../domain/weather/postcode-places';
import {
  notifyWeatherAtRisk,
  type WeatherNoticeDeps,
  type WeatherNoticeResult,
} from '../../domain/weather/weather-notice';
import { initOnce } from '../../lib/cold-start';
import { type Env, parseEnv, weatherNoticeRuntimeEnvSchema } from '../../lib/config';
import { stdoutMetricsWriter } from '../../lib/metrics';
import { forecastSource, shopEmail, shopTable } from '../../runtime';

/** The weather notice's clients from the environment: once per cold start. */
export async function loadWeatherNoticeDeps(env: Env): Promise<WeatherNoticeDeps> {
  const config = parseEnv(weatherNoticeRuntimeEnvSchema, env);
  const { sender, seller, merchantEmail } = shopEmail(config);
  return {
    table: shopTable(config),
    now: () => new Date(),
    forecast: await forecastSource(config),
    dispatchPostcode: postcodeInAddress(config.SELLER_ADDRESS),
    sender,
    merchantEmail,
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
