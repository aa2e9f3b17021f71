import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeShopSettings } from '../../../lambdas/domain/storage/settings-store';
import { createCheckoutGate } from '../../../lambdas/handlers/create-checkout/checkout-gate';
import { createShopStatusHandler, loadShopStatusDeps } from '../../../lambdas/handlers/shop-status/handler';
import { checkoutRuntimeEnvSchema, parseEnv } from '../../../lambdas/lib/config';
import { PUBLIC_API_ROUTES } from '../../../shared/public-routes';
import { apiGatewayEvent, jsonBody } from '../../support/api-gateway-event';
import { TEST_SHOP_ID } from '../../support/shop';
import { type StandIns, standInEnvironment, startStandIns } from '../../support/stand-ins';

// SETTINGS_MAX_AGE_MS reaches the two settings readers (shop-status's, create-checkout's gate): 5 s
// when unset, as deployed; the browser suites' stacks set a short one. Each test pauses the shop
// after the first read and moves the readers' own clock, the only clock the age is measured by.

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const table = () => ({ client: standIns.inspector, tableName: standIns.tableName });
const pause = () => writeShopSettings(table(), { mode: 'paused', message: 'Back soon' }, new Date());

beforeEach(async () => {
  await writeShopSettings(table(), { mode: 'open' }, new Date());
});

describe('shop-status', () => {
  async function modesSeen(env: Record<string, string>, after: readonly number[]) {
    let clock = 1_000_000;
    const handle = createShopStatusHandler(async () =>
      loadShopStatusDeps({ ...standInEnvironment(standIns), ...env }, () => clock),
    );
    const ask = async () => {
      const result = await handle(
        apiGatewayEvent({ method: 'GET', path: PUBLIC_API_ROUTES.shopStatus.path }),
      );
      return { mode: (jsonBody(result) as { mode: string }).mode, cache: result.headers?.['cache-control'] };
    };
    const first = await ask();
    await pause();
    const seen = [first];
    for (const ms of after) {
      clock = 1_000_000 + ms;
      seen.push(await ask());
    }
    return seen;
  }

  it('unset: keeps the settings for 5,000 ms, and lets a browser keep its answer 5 s', async () => {
    expect(await modesSeen({}, [4_999, 5_000])).toEqual([
      { mode: 'open', cache: 'public, max-age=5' },
      { mode: 'open', cache: 'public, max-age=5' },
      { mode: 'paused', cache: 'public, max-age=5' },
    ]);
  });

  it('SETTINGS_MAX_AGE_MS=250: keeps them 250 ms, and a browser keeps nothing', async () => {
    expect(await modesSeen({ SETTINGS_MAX_AGE_MS: '250' }, [249, 250])).toEqual([
      { mode: 'open', cache: 'public, max-age=0' },
      { mode: 'open', cache: 'public, max-age=0' },
      { mode: 'paused', cache: 'public, max-age=0' },
    ]);
  });
});

describe("create-checkout's gate", () => {
  async function modesSeen(env: Record<string, string>, after: readonly number[]) {
    let clock = 1_000_000;
    const config = parseEnv(checkoutRuntimeEnvSchema, {
      STRIPE_LIVEMODE: 'false',
      STRIPE_SECRET_KEY: 'sk_test_settings_max_age',
      SITE_URL: 'http://shop.test',
      SHOP_ID: TEST_SHOP_ID,
      ...standInEnvironment(standIns),
      ...env,
    });
    const gate = createCheckoutGate(config, () => clock);
    const seen = [(await gate.settings.cached()).mode];
    await pause();
    for (const ms of after) {
      clock = 1_000_000 + ms;
      seen.push((await gate.settings.cached()).mode);
    }
    return seen;
  }

  it('unset: keeps the settings for 5,000 ms', async () => {
    expect(await modesSeen({}, [4_999, 5_000])).toEqual(['open', 'open', 'paused']);
  });

  it('SETTINGS_MAX_AGE_MS=250: keeps them 250 ms', async () => {
    expect(await modesSeen({ SETTINGS_MAX_AGE_MS: '250' }, [249, 250])).toEqual(['open', 'open', 'paused']);
  });
});
