import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { VIEWER_ADDRESS_HEADER } from '../../lambdas/lib/http';
import { logger } from '../../lambdas/lib/logger';
import { startLocalShop } from '../../local/local-shop';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from '../../test/support/api-gateway-event';

/** The build measured; BENCH_WEB_DIR points at another (an older commit's) to compare. */
export const WEB_DIR = process.env.BENCH_WEB_DIR ?? 'dist/web';
export const LAMBDAS = [
  'create-checkout',
  'checkout-status',
  'stripe-webhook',
  'reconcile-orders',
  'order-page',
] as const;
export type LambdaName = (typeof LAMBDAS)[number];
/** At least 11 rounds for a median and range worth reading; fewer only to try the script out. */
export const COLD_ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 15);
export const LIGHTHOUSE_RUNS = 3;
export const KIB = 1024;

/** The checkout every benchmark places: 3 bottles to London. */
export const ORDER = {
  name: 'Bench Customer',
  email: 'bench@example.com',
  phone: '',
  address: '1 Bench Street\nLondon',
  postcode: 'SW1A 1AA',
  quantity: 3,
  subtotal: 9.75,
  shipping: 4.95,
  total: 14.7,
};

/** The local shop the browser figures load: the built web, stand-ins on free ports, no request logs. */
export async function quietLocalShop() {
  // The shop's handlers log every request; the figures are what matters here.
  logger.setLogLevel('SILENT');
  return startLocalShop({
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    dataDir: undefined,
    webRoot: resolve(WEB_DIR),
    stripe: undefined,
    log: () => {},
  });
}

/** The stand-ins in a child process (scripts/bench/stand-ins.ts), and the environment they serve. */
export async function startStandInsProcess(): Promise<{
  env: Record<string, string>;
  close: () => Promise<void>;
}> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/stand-ins.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    // The AWS SDK's Node-version notice, as the operator commands switch it off.
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  const lines = createInterface({ input: child.stdout });
  const [line] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(() => {
      throw new Error('the stand-ins process stopped before it started');
    }),
  ])) as [string];
  lines.close();
  return {
    env: JSON.parse(line) as Record<string, string>,
    close: async () => {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
}

/** create-checkout's environment on the stand-ins of startStandInsProcess. */
export function checkoutEnvironment(standIns: Record<string, string>): Record<string, string> {
  return {
    ...standIns,
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_LIVEMODE: 'false',
    SITE_URL: 'https://shop.test',
    SHOP_ID: 'bench',
  };
}

let customers = 0;

/**
 * One checkout POST, from a customer of its own (address and viewer), as real traffic is: one
 * client may hold only 3 open checkouts (client-holds.ts), so one bench customer would be refused.
 */
export function benchCheckoutEvent() {
  customers += 1;
  return apiGatewayEvent({
    method: 'POST',
    path: PUBLIC_API_ROUTES.createCheckout.path,
    headers: {
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
      [VIEWER_ADDRESS_HEADER]: `198.18.${(customers >> 8) & 255}.${customers & 255}:51234`,
    },
    body: { ...ORDER, email: `bench-${customers}@example.com` },
  });
}
