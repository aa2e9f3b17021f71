/**
 * `npm start`: the whole shop on this machine, no keys and no accounts. The ports are contracts
 * that the README, tests and other tools rely on; PORT moves only the shop itself.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { startForecastStandIn } from './forecast-stand-in';
import { LOCAL_MERCHANT, localMerchant } from './identity-provider';
import { LOCAL_CONTROL_PATHS, startLocalShop } from './local-shop';
import { localVapidKeys, startPushStandIn } from './push-stand-in';

// As in ops/main.ts: the SDK's Node-version notice (Lambda runs Node 24) would open every `npm start`.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    STRIPE_SECRET_KEY: z
      .string()
      .startsWith('sk_test_', 'must be a Stripe test-mode key (sk_test_...)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
    // The stand-ins' ports are contracts; these overrides exist so browser tests can run beside
    // a developer's own `npm start`. LOCAL_DATA_DIR=memory keeps DynamoDB data in memory.
    LOCAL_DYNAMODB_PORT: z.coerce.number().int().min(0).max(65535).default(8000),
    LOCAL_SES_PORT: z.coerce.number().int().min(0).max(65535).default(8005),
    STRIPE_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(12111),
    // The admin page's sign-in (a stand-in for Cognito's managed login) and its one merchant.
    LOCAL_IDP_PORT: z.coerce.number().int().min(0).max(65535).default(8010),
    // Open-Meteo's forecast API for the weather check (POST /__set sets a place's day).
    LOCAL_FORECAST_PORT: z.coerce.number().int().min(0).max(65535).default(4012),
    // A browser's push service for the merchant's notifications (GET /pushes lists what it took).
    LOCAL_PUSH_PORT: z.coerce.number().int().min(0).max(65535).default(8020),
    LOCAL_MERCHANT_EMAIL: z.email().default(LOCAL_MERCHANT.email),
    LOCAL_MERCHANT_PASSWORD: z.string().min(8).default(LOCAL_MERCHANT.password),
    LOCAL_DATA_DIR: z.string().default('.local-data/dynamodb'),
    // The Stripe simulator's objects, the SES inbox and the sign-in's keys (ADR 0046); `memory`
    // forgets them at stop, as it does when LOCAL_DATA_DIR=memory and this is unset.
    LOCAL_STAND_INS_DIR: z.string().optional(),
    // The weather check (and its forecast stand-in) as if at this instant, e.g. 2026-11-28T18:30:00Z,
    // to see a dispatch day's check before its evening two days ahead (docs/operations.md).
    LOCAL_WEATHER_NOW: z.iso.datetime({ offset: true }).optional(),
  })
  .parse(process.env);

const webRoot = resolve('dist/web');
if (!existsSync(resolve(webRoot, 'index.html'))) {
  console.error('No web build in dist/web: run `npm run build:web` first (npm start does it for you).');
  process.exit(1);
}

// Started first so the shop's functions are given its address (FORECAST_API_URL).
const weatherNow = env.LOCAL_WEATHER_NOW === undefined ? undefined : new Date(env.LOCAL_WEATHER_NOW);
const forecast = await startForecastStandIn(env.LOCAL_FORECAST_PORT, () => weatherNow ?? new Date());

const standInsDir =
  env.LOCAL_STAND_INS_DIR ?? (env.LOCAL_DATA_DIR === 'memory' ? 'memory' : '.local-data/stand-ins');

const push = await startPushStandIn(env.LOCAL_PUSH_PORT);
const vapidKeys = localVapidKeys(standInsDir === 'memory' ? undefined : resolve(standInsDir), (line) =>
  console.log(`  ${line}`),
);

const shop = await startLocalShop({
  port: env.PORT,
  dynamoPort: env.LOCAL_DYNAMODB_PORT,
  sesPort: env.LOCAL_SES_PORT,
  simulatorPort: env.STRIPE_SIMULATOR_PORT,
  identityProviderPort: env.LOCAL_IDP_PORT,
  adminUsers: [localMerchant(env.LOCAL_MERCHANT_EMAIL, env.LOCAL_MERCHANT_PASSWORD)],
  dataDir: env.LOCAL_DATA_DIR === 'memory' ? undefined : resolve(env.LOCAL_DATA_DIR),
  keepDir: standInsDir === 'memory' ? undefined : resolve(standInsDir),
  webRoot,
  stripe: env.STRIPE_SECRET_KEY
    ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET }
    : undefined,
  log: (line) => console.log(`  ${line}`),
  forecastUrl: forecast.url,
  weatherNow,
  push: { url: push.url, keys: vapidKeys },
}).catch((error: unknown) => {
  console.error(`Could not start the local shop: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

console.log(`
Live Aquatics is running locally:
  Shop                     ${shop.url}
  Stripe Checkout          ${shop.simulator ? `${shop.simulator.url} (simulator: pay with 4242 4242 4242 4242)` : 'real Stripe test mode (STRIPE_SECRET_KEY)'}
  DynamoDB (dynalite)      ${shop.dynamoUrl} (data in ${env.LOCAL_DATA_DIR})
  Kept between runs        ${standInsDir} (payments, SES inbox, sign-ins)
  SES inbox                ${shop.sesUrl}
  Admin                    ${shop.url}/admin
    sign in at             ${shop.identityProvider.url} (local stand-in for Cognito)
    as                     ${env.LOCAL_MERCHANT_EMAIL} / ${env.LOCAL_MERCHANT_PASSWORD}
  Forecasts (Open-Meteo)   ${forecast.url}/v1/forecast (set one: POST ${forecast.url}/__set)
  Push service (stand-in)  ${push.url}/pushes (the merchant's notifications; POST /subscriptions/<id>/gone answers 410)
  Weather email, now       POST ${shop.url}${LOCAL_CONTROL_PATHS.weatherNotice}${weatherNow ? ` (weather clock: ${weatherNow.toISOString()})` : ''}
Press Ctrl+C to stop.
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([shop.close(), forecast.close(), push.close()]).then(() => process.exit(0));
  });
}
