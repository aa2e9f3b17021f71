import type { ShopStatus } from '../../../shared/shop-status';
import { type ShopSettings, settingsReaderFromConfig } from '../../domain/shop-settings/shop-settings';
import { type Env, parseEnv, shopStatusRuntimeEnvSchema } from '../../lib/config';
import { type HttpEvent, type HttpResult, json } from '../../lib/http';
import { type HttpRequest, httpEndpoint } from '../../lib/http-handler';
import { logger } from '../../lib/logger';

export interface ShopStatusDeps {
  /** The shop's settings, cached for a few seconds at most. */
  settings: () => Promise<ShopSettings>;
}

/** The settings reader from the environment, once per cold start (see `handler`): no AWS SDK. */
export function loadShopStatusDeps(env: Env): ShopStatusDeps {
  return { settings: settingsReaderFromConfig(parseEnv(shopStatusRuntimeEnvSchema, env)) };
}

/**
 * `GET /functions/v1/shop-status`: whether the shop takes paid orders (`open`), none (`paused`,
 * with the merchant's message for the page's banner) or requests without payment (`requests`).
 * Public and read-only; cacheable for as long as the settings are (5 s).
 */
export function createShopStatusHandler(
  deps: ShopStatusDeps | (() => Promise<ShopStatusDeps>),
): (event: HttpEvent) => Promise<HttpResult> {
  return httpEndpoint({
    route: 'shop-status',
    method: 'GET',
    loadDeps: typeof deps === 'function' ? deps : async () => deps,
    handle: shopStatus,
  });
}

async function shopStatus({ deps, logKeys }: HttpRequest<ShopStatusDeps>): Promise<HttpResult> {
  const settings = await deps.settings();
  const body: ShopStatus = {
    mode: settings.mode,
    ...(settings.message !== undefined && { message: settings.message }),
  };
  logger.info('Shop status answered', { ...logKeys, statusCode: 200, mode: body.mode });
  return json(200, body, { 'cache-control': 'public, max-age=5' });
}

/** The Lambda entry point. */
export const handler = createShopStatusHandler(async () => loadShopStatusDeps(process.env));
