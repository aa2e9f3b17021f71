import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { weatherKnownFrom } from '../../../lambdas/domain/weather/weather-check';
import { startForecastStandIn } from '../../../local/forecast-stand-in';
import { LOCAL_ORDER_PAGE_SECRET, startLocalShop } from '../../../local/local-shop';
import { localVapidKeys, startPushStandIn } from '../../../local/push-stand-in';
import { startRehearsal } from '../../../local/rehearse/rehearsal';
import { testStage } from '../../../local/rehearse/synth';
import { firstComingDispatchDay } from '../../../shared/dispatch';
import { STACK_ENV, STACK_SETTINGS_MAX_AGE_MS } from './stack';

/**
 * Starts the whole local shop for the browser tests on free ports (the shop and every stand-in on
 * port 0), so a second run, or a developer's `npm start`, never collides with it. The addresses
 * reach the test workers through the environment, which Playwright hands down from here; the
 * returned function stops the stack when the run ends.
 *
 * REHEARSE=1 serves the shop from the synthesised dev stage instead (`npm run rehearse`), or from
 * REHEARSE_ASSEMBLY when it names an assembly already synthesised.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  if (process.env.REHEARSE === '1') return rehearse();
  const webRoot = resolve('dist/web');
  if (!existsSync(resolve(webRoot, 'index.html'))) {
    throw new Error('No web build in dist/web: run `npm run test:e2e`, which builds it first.');
  }
  const weatherNow = weatherClock();
  const forecast = await startForecastStandIn(0, () => weatherNow ?? new Date());
  const push = await startPushStandIn(0);
  const shop = await startLocalShop({
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    dataDir: undefined,
    webRoot,
    stripe: undefined,
    log: (line) => {
      if (process.env.E2E_LOG_STACK) console.log(`  [shop] ${line}`);
    },
    forecastUrl: forecast.url,
    weatherNow,
    // The standing order's tests move Stripe's clock (a test clock), never the shop's.
    stripeSignsOnHostClock: true,
    settingsMaxAgeMs: STACK_SETTINGS_MAX_AGE_MS,
    push: { url: push.url, keys: localVapidKeys(undefined, () => {}) },
  });
  process.env[STACK_ENV.shop] = shop.url;
  process.env[STACK_ENV.push] = push.url;
  process.env[STACK_ENV.dynamo] = shop.dynamoUrl;
  process.env[STACK_ENV.ses] = shop.sesUrl;
  process.env[STACK_ENV.simulator] = shop.simulator?.url ?? '';
  process.env[STACK_ENV.table] = 'live-aquatics-orders';
  process.env[STACK_ENV.merchantEmail] = 'merchant@live-aquatics.test';
  process.env[STACK_ENV.orderPageSecret] = LOCAL_ORDER_PAGE_SECRET;
  process.env[STACK_ENV.forecast] = forecast.url;
  process.env[STACK_ENV.weatherNow] = weatherNow?.toISOString() ?? '';
  return async () => {
    await shop.close();
    await forecast.close();
    await push.close();
  };
}

/**
 * The weather check on the evening it first knows the coming dispatch day, when the run is earlier
 * in the week (LOCAL_WEATHER_NOW's option), for both stacks: only the weather runs on this clock.
 */
function weatherClock(): Date | undefined {
  const now = new Date();
  const knownFrom = weatherKnownFrom(firstComingDispatchDay(now));
  return now < knownFrom ? new Date(knownFrom.getTime() + 30 * 60_000) : undefined;
}

async function rehearse(): Promise<() => Promise<void>> {
  let assemblyDir = process.env.REHEARSE_ASSEMBLY;
  if (!assemblyDir) {
    const started = Date.now();
    // The local shop's seller and addresses, so the specs' literal texts (names, subjects) hold
    // here too; vitest's rehearsal tests synthesised the same stage, so it is usually cached.
    assemblyDir = (await testStage()).dir;
    console.log(`  [rehearsal] dev stage ready in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const denied: string[] = [];
  const started = Date.now();
  const weatherNow = weatherClock();
  const rehearsal = await startRehearsal({
    assemblyDir: resolve(assemblyDir),
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    identityProviderPort: 0,
    extensionPort: 0,
    viewerPerConnection: true,
    weatherNow,
    stripeSignsOnHostClock: true,
    settingsMaxAgeMs: STACK_SETTINGS_MAX_AGE_MS,
    log: (line) => {
      if (line.includes('AccessDenied')) denied.push(line);
      if (process.env.E2E_LOG_STACK || line.includes('AccessDenied')) console.log(`  [rehearsal] ${line}`);
    },
  });
  console.log(`  [rehearsal] serving in ${Math.round((Date.now() - started) / 1000)} s at ${rehearsal.url}`);
  process.env[STACK_ENV.shop] = rehearsal.url;
  process.env[STACK_ENV.dynamo] = rehearsal.dynamoUrl;
  process.env[STACK_ENV.ses] = rehearsal.sesUrl;
  process.env[STACK_ENV.simulator] = rehearsal.simulator.url;
  process.env[STACK_ENV.table] = rehearsal.ordersTableName;
  process.env[STACK_ENV.merchantEmail] = rehearsal.merchantEmail;
  // The value the rehearsal generated for the template's secret, as CloudFormation would.
  process.env[STACK_ENV.orderPageSecret] = rehearsal.secretValue('OrderPageSecret') ?? '';
  process.env[STACK_ENV.forecast] = rehearsal.forecastUrl;
  process.env[STACK_ENV.push] = rehearsal.pushUrl;
  process.env[STACK_ENV.weatherNow] = weatherNow?.toISOString() ?? '';
  return async () => {
    await rehearsal.close();
    // A call a role does not allow would fail in AWS: the run fails with it, even if the page coped.
    if (denied.length > 0) throw new Error(`The rehearsal refused calls:\n${denied.join('\n')}`);
  };
}
