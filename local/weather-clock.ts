import type * as AdminApi from '../lambdas/handlers/admin-api/handler';
import type * as WeatherNotice from '../lambdas/handlers/weather-notice/handler';

/*
 * The weather check on a set clock (LOCAL_WEATHER_NOW): `npm start` and `npm run rehearse` both
 * build the admin API's and the weather notice's handlers through these, from the TypeScript
 * sources or from the template's bundles (which export the same factories). Never in Lambda.
 * Only type imports, so the rehearsal's function runner bundles this file alone.
 */

type AdminApiModule = Pick<typeof AdminApi, 'createAdminApiHandler' | 'loadAdminDeps' | 'originValueFromEnv'>;
type WeatherNoticeModule = Pick<typeof WeatherNotice, 'createWeatherNoticeHandler' | 'loadWeatherNoticeDeps'>;
type Env = Parameters<typeof AdminApi.loadAdminDeps>[0];

/** The admin API with its weather check (and only that) on the clock fixed at `weatherNow`. */
export function adminApiOnWeatherClock(adminApi: AdminApiModule, weatherNow: Date, env: Env) {
  return adminApi.createAdminApiHandler(
    async () => ({ ...(await adminApi.loadAdminDeps(env)), weatherNow: () => new Date(weatherNow) }),
    { expectedOrigin: adminApi.originValueFromEnv(env) },
  );
}

/** The weather notice's whole run on the clock fixed at `weatherNow`. */
export function weatherNoticeOnWeatherClock(weatherNotice: WeatherNoticeModule, weatherNow: Date, env: Env) {
  return weatherNotice.createWeatherNoticeHandler(async () => ({
    ...(await weatherNotice.loadWeatherNoticeDeps(env)),
    now: () => new Date(weatherNow),
  }));
}

const isFunction = (value: unknown): boolean => typeof value === 'function';

function isAdminApi(module: Record<string, unknown>): module is Record<string, unknown> & AdminApiModule {
  return ['createAdminApiHandler', 'loadAdminDeps', 'originValueFromEnv'].every((name) =>
    isFunction(module[name]),
  );
}

function isWeatherNotice(
  module: Record<string, unknown>,
): module is Record<string, unknown> & WeatherNoticeModule {
  return ['createWeatherNoticeHandler', 'loadWeatherNoticeDeps'].every((name) => isFunction(module[name]));
}

/**
 * A loaded function module's handler on the weather clock, when it is one of the two the clock
 * concerns (by the factories it exports); undefined for any other function.
 */
export function handlerOnWeatherClock(
  module: Record<string, unknown>,
  weatherNow: Date,
  env: Env,
): ((event: never) => Promise<unknown>) | undefined {
  if (isAdminApi(module)) return adminApiOnWeatherClock(module, weatherNow, env);
  if (isWeatherNotice(module)) return weatherNoticeOnWeatherClock(module, weatherNow, env);
  return undefined;
}
