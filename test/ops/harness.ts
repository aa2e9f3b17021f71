import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { toOrderItem } from '../../lambdas/domain/checkout/paid-checkout';
import { fulfilCheckout } from '../../lambdas/domain/fulfilment/fulfil-checkout';
import type { OrderItem } from '../../lambdas/domain/storage/order';
import { createAdminApiHandler, loadAdminDeps } from '../../lambdas/handlers/admin-api/handler';
import { withJwtAuthorizer } from '../../local/jwt-authorizer';
import { createAdminClient } from '../../ops/admin-client';
import { asksFirst, runCli } from '../../ops/cli';

/** The commands that dispatch an order (a first tracking number does too). */
const DISPATCHES = new Set(['mark-dispatched', 'tracking']);

import { quoteOrder } from '../../shared/pricing';
import { apiGatewayEvent } from '../support/api-gateway-event';
import type { SessionOptions } from '../support/checkout-sessions';
import {
  type FulfilmentHarness,
  ORDER_PAGE_SECRET,
  startFulfilmentHarness,
} from '../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../support/jwt-tokens';
import { TEST_SHOP_ID } from '../support/shop';
import { type StoredEmail, standInEnvironment } from '../support/stand-ins';

export interface CliRun {
  code: number;
  out: string;
  err: string;
  /** The questions the run asked at its (fake) terminal, in turn. */
  asked: string[];
}

export interface OpsHarness {
  shop: FulfilmentHarness;
  /** The operator's clock; tests move it to a bank-holiday week. */
  setNow(instant: Date | undefined): void;
  /**
   * Runs `npm run orders -- <args>` against the real admin API handler over the stand-ins, signed
   * in as the merchant (a token the handler's JWT check verifies), in `cwd`; `env` adds variables
   * (ORDERS_STAGE), `targetFile` is where the target is remembered (none by default).
   */
  orders(
    args: string[],
    options?: {
      cwd?: string;
      env?: Record<string, string>;
      targetFile?: string;
      /** The admin API's email (SES) unreachable during this run. */
      emailDown?: boolean;
      /** The admin API's Stripe unreachable during this run. */
      stripeDown?: boolean;
      /** The admin API's Stripe at another address during this run (a test's proxy). */
      stripeApiBase?: string;
      /** The admin API with the order page's secret (links in emails, revoke-link) during this run. */
      orderPage?: boolean;
      /** The admin API's forecasts from this address (an Open-Meteo stand-in) during this run. */
      forecastUrl?: string;
      /** Sees each request the admin API's Stripe client makes during this run. */
      onStripeRequest?: (request: Stripe.RequestEvent) => void;
      /**
       * How the confirm rule (ops/confirm.ts) is met. By default the run is a script that confirmed:
       * `--yes` is added to a command that asks first (unless --yes, --dry-run or --help is given),
       * so a test of what a command does need not repeat it. `'as typed'`: no terminal, the flags
       * as given. `{ terminal }`: a terminal whose answers are these, in turn ('' once they run out).
       */
      confirm?: 'as typed' | { terminal: string[] };
    },
  ): Promise<CliRun>;
  /** A paid order made the real way: a session paid in the simulator, fulfilled by fulfilCheckout. */
  paidOrder(options?: SessionOptions): Promise<OrderItem>;
  /** An order written directly with the real mapping, for a given moment of payment. */
  orderPaidAt(now: Date, n: number, bottles?: 3 | 6 | 9): Promise<OrderItem>;
  emailsTo(address: string): Promise<StoredEmail[]>;
  close(): Promise<void>;
}

/** The CLI over the local stand-ins (dynalite, SES stand-in, Stripe simulator), on free ports. */
export async function startOpsHarness(): Promise<OpsHarness> {
  const shop = await startFulfilmentHarness();
  let now: Date | undefined;
  const clock = () => now ?? new Date();
  const env = {
    ...standInEnvironment(shop.standIns),
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_ops',
    STRIPE_API_BASE: shop.simulator.url,
    SITE_URL: 'http://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    // No test reaches the internet: a forecast nobody set up is one that cannot be seen.
    FORECAST_API_URL: 'http://127.0.0.1:9',
  };
  let stripeListener: ((request: Stripe.RequestEvent) => void) | undefined;
  const key = signingKey();
  const token = signToken(key, { email: 'merchant@live-aquatics.test', expiresIn: 3600 });
  // The admin API as deployed behind its JWT authorizer, on the harness's clock.
  const adminOver = (adminEnv: Record<string, string>) =>
    withJwtAuthorizer(
      createAdminApiHandler(async () => {
        const deps = await loadAdminDeps(adminEnv);
        deps.stripe.on('request', (request: Stripe.RequestEvent) => stripeListener?.(request));
        return { ...deps, now: clock };
      }),
      { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks },
    );
  // One warm handler for each environment a test asks for, as one Lambda container is.
  const handlers = new Map<string, ReturnType<typeof adminOver>>();
  const handlerFor = (overrides: Record<string, string>) => {
    const key = JSON.stringify(overrides);
    const found = handlers.get(key) ?? adminOver({ ...env, ...overrides });
    handlers.set(key, found);
    return found;
  };
  let admin = handlerFor({});
  const adminFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const result = await admin(
      apiGatewayEvent({
        method: init?.method ?? 'GET',
        path: url.pathname,
        headers,
        ...(url.search !== '' && { queryStringParameters: Object.fromEntries(url.searchParams) }),
        ...(typeof init?.body === 'string' && { body: init.body }),
      }),
    );
    return new Response(result.body ?? '', {
      status: result.statusCode ?? 200,
      headers: (result.headers ?? {}) as Record<string, string>,
    });
  };
  return {
    shop,
    setNow(instant) {
      now = instant;
    },
    async orders(args, options = {}) {
      const out: string[] = [];
      const err: string[] = [];
      stripeListener = options.onStripeRequest;
      const unreachable = 'http://127.0.0.1:9';
      admin = handlerFor({
        ...(options.emailDown && { SES_ENDPOINT: unreachable }),
        ...(options.stripeDown && { STRIPE_API_BASE: unreachable }),
        ...(options.stripeApiBase !== undefined && { STRIPE_API_BASE: options.stripeApiBase }),
        ...(options.forecastUrl !== undefined && { FORECAST_API_URL: options.forecastUrl }),
        ...(options.orderPage && { ORDER_PAGE_SECRET }),
      });
      const confirm = options.confirm;
      const script = confirm === undefined || confirm === 'as typed';
      const confirmed = args.some((arg) => ['--yes', '--dry-run', '--help', '-h'].includes(arg));
      const argv =
        confirm === undefined && !confirmed && asksFirst(args[0] ?? '') ? [...args, '--yes'] : [...args];
      // Orders here are paid on the real clock: on a weekend after the cut-off they are planned for
      // the week after next, and a dispatch would be refused as early. A script says --early for
      // them; the early rule itself is tested on a fixed clock (confirm.test.ts, early-dispatch tests).
      if (confirm === undefined && !confirmed && DISPATCHES.has(args[0] ?? '') && !args.includes('--early'))
        argv.push('--early');
      const answers = script ? [] : [...confirm.terminal];
      const asked: string[] = [];
      const code = await runCli(
        argv,
        {
          out: (l) => out.push(l),
          err: (l) => err.push(l),
          env: { ...options.env },
          now: clock,
          cwd: options.cwd ?? process.cwd(),
          targetFile: options.targetFile,
          isTerminal: !script,
          ask: async (question) => {
            asked.push(question);
            return answers.shift() ?? '';
          },
        },
        async (target) => {
          if (target.key !== 'local') throw new Error('tests run the local stack only');
          return {
            description: target.description,
            api: createAdminClient({
              origin: 'http://shop.test',
              email: 'merchant@live-aquatics.test',
              idToken: async () => token,
              fetch: adminFetch,
            }),
          };
        },
      );
      stripeListener = undefined;
      return { code, out: out.join('\n'), err: err.join('\n'), asked };
    },
    async paidOrder(options) {
      const session = await shop.paidSession(options);
      const result = await fulfilCheckout(session.id, shop.deps);
      if (result.outcome !== 'fulfilled') throw new Error(`not fulfilled: ${result.outcome}`);
      const order = await shop.deps.orders.get(session.id);
      if (!order) throw new Error('no order');
      return order;
    },
    async orderPaidAt(at, n, bottles = 3) {
      const quote = quoteOrder(bottles);
      const sessionId = `cs_test_seeded${at.getTime()}x${String(n).padStart(6, '0')}`;
      const order = toOrderItem(
        {
          sessionId,
          paymentIntentId: `pi_test_seeded${n}`,
          livemode: false,
          quote,
          currency: 'gbp',
          customer: {
            name: `Customer ${n}`,
            email: `customer${n}@example.com`,
            phone: '07700 900123',
            address: `${n} Pond Lane\nBristol`,
            postcode: 'BS1 4DJ',
          },
          promisedDispatchDate: undefined,
          checkoutCreatedAt: at,
        },
        { now: at, cutoffHours: 36 },
      );
      await shop.standIns.inspector.send(new PutCommand({ TableName: shop.standIns.tableName, Item: order }));
      return order;
    },
    async emailsTo(address) {
      return (await shop.standIns.emails()).filter((email) => email.destination.to.includes(address));
    },
    close: () => shop.close(),
  };
}
