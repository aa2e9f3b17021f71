import { type IsoDate, nextDispatchDate } from '../../../shared/dispatch';
import { PUBLIC_API_ROUTES } from '../../../shared/public-routes';
import type { ShopStatus } from '../../../shared/shop-status';
import { firstDayWithRoom } from '../../domain/capacity/holds';
import { capacityStoreFromTable } from '../../domain/storage/capacity-table';
import { readShopSettings } from '../../domain/storage/settings-store';
import { createSettingsReader, type ShopSettings } from '../../domain/storage/shop-settings';
import { ordersTable } from '../../lib/aws';
import { type Env, parseEnv, shopStatusRuntimeEnvSchema } from '../../lib/config';
import { type HttpResult, json } from '../../lib/http';
import { type DepsOrLoader, type HttpRequest, httpEndpoint } from '../../lib/http-handler';
import { logger } from '../../lib/logger';

export interface ShopStatusDeps {
  /** The shop's settings, cached for a few seconds at most. */
  settings: () => Promise<ShopSettings>;
  /** The first day with room for an order now (null: none within 8 weeks); cached as long as the settings. */
  dayWithRoom?: ((settings: ShopSettings) => Promise<IsoDate | null>) | undefined;
  /** How long the settings are kept (SETTINGS_MAX_AGE_MS): a browser keeps the answer no longer. */
  settingsMaxAgeMs: number;
}

/**
 * The settings reader and the capacity days from the environment, once per cold start (see
 * `handler`); `now`, the clock the settings' age is measured by.
 */
export function loadShopStatusDeps(env: Env, now: () => number = Date.now): ShopStatusDeps {
  const config = parseEnv(shopStatusRuntimeEnvSchema, env);
  const table = ordersTable(config);
  const store = capacityStoreFromTable(table);
  // Worked out again whenever the settings are read again (every SETTINGS_MAX_AGE_MS at most):
  // a full day shows on the page within seconds, without a read per visitor. A failure is not kept.
  let memo: { settings: ShopSettings; day: Promise<IsoDate | null> } | undefined;
  const dayWithRoom = (settings: ShopSettings): Promise<IsoDate | null> => {
    if (memo?.settings !== settings) {
      const from = nextDispatchDate(new Date(now()), { cutoffHours: config.DISPATCH_CUTOFF_HOURS });
      const entry = {
        settings,
        day: firstDayWithRoom(store, settings.capacity, from).then((room) => room?.date ?? null),
      };
      entry.day.catch(() => {
        if (memo === entry) memo = undefined;
      });
      memo = entry;
    }
    return memo.day;
  };
  const settingsMaxAgeMs = config.SETTINGS_MAX_AGE_MS;
  const settings = createSettingsReader(() => readShopSettings(table), settingsMaxAgeMs, now);
  return { settings, dayWithRoom, settingsMaxAgeMs };
}

/**
 * `GET /functions/v1/shop-status`: `open`, `paused` (with the banner message) or `requests`, and with daily
 * limits the first day with room. Public and read-only; cacheable as long as the settings (5 s unless
 * SETTINGS_MAX_AGE_MS says).
 */
export function createShopStatusHandler(deps: DepsOrLoader<ShopStatusDeps>) {
  return httpEndpoint({ route: PUBLIC_API_ROUTES.shopStatus, deps, handle: shopStatus });
}

async function shopStatus({ deps, logKeys }: HttpRequest<ShopStatusDeps>): Promise<HttpResult> {
  const settings = await deps.settings();
  // A shop without limits sells on the calendar's day, which the page works out itself.
  const limited = settings.capacity !== undefined && settings.mode !== 'paused';
  const dispatchDate = limited && deps.dayWithRoom ? await deps.dayWithRoom(settings) : undefined;
  const body: ShopStatus = {
    mode: settings.mode,
    ...(settings.message !== undefined && { message: settings.message }),
    ...(dispatchDate !== undefined && { dispatchDate }),
  };
  logger.info('Shop status answered', { ...logKeys, statusCode: 200, mode: body.mode, dispatchDate });
  const maxAge = Math.floor(deps.settingsMaxAgeMs / 1000);
  return json(200, body, { 'cache-control': `public, max-age=${maxAge}` });
}

/** The Lambda entry point. */
export const handler = createShopStatusHandler(async () => loadShopStatusDeps(process.env));
