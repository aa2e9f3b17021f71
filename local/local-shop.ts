import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backfillReferenceKeys } from '../lambdas/domain/storage/reference-keys';
import type { VapidKeys } from '../lambdas/lib/web-push';
import { ADMIN_API_PREFIX } from '../shared/admin-api-paths';
import {
  ADMIN_CONFIG_PATH,
  ADMIN_PAGE_PATH,
  adminConfigSchema,
  CLI_LOOPBACK_PORTS,
  cliCallbackUrl,
} from '../shared/admin-config';
import { ADMIN_SESSION_PATH } from '../shared/admin-session-routes';
import {
  PUBLIC_API_ROUTES,
  type PublicRoute,
  type PublicRouteName,
  publicRouteNames,
} from '../shared/public-routes';
import { LOCAL_STAGE_SETTINGS } from '../shared/stage-config';
import { type HttpLambda, serveWithLambda } from './api-gateway-adapter';
import {
  type IdentityProvider,
  LOCAL_ADMIN_CLIENT_ID,
  LOCAL_MERCHANT,
  type LocalSignIn,
  type LocalUser,
  localMerchant,
  signInHandle,
  startIdentityProvider,
} from './identity-provider';
import { fetchJwks, withJwtAuthorizer } from './jwt-authorizer';
import { ensureOrdersTable } from './orders-table';
import { closeServer, KEPT_FILES, listen, startStoreStandIns } from './stand-in-servers';
import { createStaticSite } from './static-site';
import { type StripeSimulator, startStripeSimulator } from './stripe-simulator/server';
import { adminApiOnWeatherClock, weatherNoticeOnWeatherClock } from './weather-clock';

export interface LocalShopOptions {
  /** The shop: web build and API. 0 picks a free port. */
  port: number;
  dynamoPort: number;
  sesPort: number;
  simulatorPort: number;
  /** The merchant's sign-in (local/identity-provider.ts); 0 or absent picks a free port. */
  identityProviderPort?: number;
  /** Who may sign in to /admin: LOCAL_MERCHANT when absent; tests add a user outside `merchants`. */
  adminUsers?: readonly LocalUser[];
  /** Folder for dynalite's data; undefined keeps it in memory (tests). */
  dataDir: string | undefined;
  /**
   * Folder the other stand-ins keep their state in between runs (ADR 0046): the Stripe simulator's
   * objects, the SES inbox, the identity provider's key and sign-ins. Undefined keeps them in memory.
   */
  keepDir?: string | undefined;
  /** The Vite build to serve. */
  webRoot: string;
  /** Real Stripe test mode instead of the simulator, when given. */
  stripe: { secretKey: string; webhookSecret: string | undefined } | undefined;
  log: (line: string) => void;
  /** Where the weather check asks for forecasts: the Open-Meteo stand-in (local/forecast-stand-in.ts). */
  forecastUrl?: string;
  /**
   * The weather check's clock, fixed at this instant (LOCAL_WEATHER_NOW): the check, its delay of
   * the orders at risk and the weather notice run as if it were then; everything else keeps the real
   * clock. Only the local shop has this: Lambda's weather check always runs on the real clock.
   */
  weatherNow?: Date | undefined;
  /**
   * The Stripe simulator signs its webhooks on the host's clock, as Stripe does whatever a test clock
   * says: for tests that move Stripe's clock (a standing order's renewals) while the shop keeps the real one.
   */
  stripeSignsOnHostClock?: boolean;
  /**
   * The merchant's notifications (ADR 0056): the push-service stand-in's origin, the one http
   * endpoint a device may subscribe at, and the local stage's VAPID pair. Absent: no pushes.
   */
  push?: { url: string; keys: VapidKeys } | undefined;
  /**
   * How long the functions keep the shop's settings (SETTINGS_MAX_AGE_MS), when not the deployed
   * 5 s: the browser suite's stack sets a short one, so a spec need not wait 5 s after each write.
   */
  settingsMaxAgeMs?: number | undefined;
}

/** The local shop's own controls, beside the API: not in AWS, where EventBridge runs these. */
export const LOCAL_CONTROL_PATHS = {
  /** POST: the daily weather check and its merchant email, run now (what the 18:30 UTC rule runs). */
  weatherNotice: '/__local/weather-notice',
} as const;

export interface LocalShop {
  url: string;
  dynamoUrl: string;
  sesUrl: string;
  simulator: StripeSimulator | undefined;
  /** The /admin page's identity provider: where to sign in, and as whom by default. */
  identityProvider: LocalSignIn;
  close(): Promise<void>;
}

/**
 * The local shop's order-page secret (ADR 0037), when ORDER_PAGE_SECRET gives none: known to all,
 * so a link from a local email opens only a local order. Exported for tests that seal a link themselves.
 */
export const LOCAL_ORDER_PAGE_SECRET = 'local-order-page-secret-known-to-all-not-for-any-real-shop';

/** Local-only values: none of them is a secret, and none is ever used outside this machine. */
const LOCAL = {
  region: 'eu-west-2',
  tableName: 'live-aquatics-orders',
  simulatorSecretKey: 'sk_test_local_simulator',
  simulatorWebhookSecret: 'whsec_local_simulator',
  /** Seals the order pages' links (ADR 0037): fixed, so a link from a local email still opens after a restart. */
  orderPageSecret: LOCAL_ORDER_PAGE_SECRET,
} as const;

/**
 * Resolves once every part answers HTTP (any status: it is listening and serving), so `npm start`
 * prints its banner only when the shop can be used; rejects naming the first part that does not
 * answer within `timeoutMs`.
 */
export async function waitUntilAnswering(
  parts: ReadonlyArray<{ name: string; url: string }>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const part of parts) {
    for (;;) {
      const answered = await fetch(part.url, { signal: AbortSignal.timeout(1_000) }).then(
        async (response) => {
          await response.arrayBuffer();
          return true;
        },
        () => false,
      );
      if (answered) break;
      if (Date.now() >= deadline) throw new Error(`${part.name} does not answer at ${part.url}`);
      await new Promise((wait) => setTimeout(wait, 50));
    }
  }
}

/** The Stripe simulator in place of Stripe, its webhooks to this shop's endpoint. */
function startLocalSimulator(options: LocalShopOptions, url: string): Promise<StripeSimulator> {
  return startStripeSimulator({
    port: options.simulatorPort,
    webhook: {
      url: `${url}${PUBLIC_API_ROUTES.stripeWebhook.path}`,
      secret: LOCAL.simulatorWebhookSecret,
    },
    stateFile: options.keepDir && join(options.keepDir, KEPT_FILES.stripeSimulator),
    ...(options.stripeSignsOnHostClock && { signingNow: Date.now }),
    log: options.log,
  });
}

/**
 * The whole shop on one machine: dynalite for DynamoDB, aws-ses-v2-local for SES, the Stripe
 * Checkout simulator (unless real Stripe test keys are given), and one HTTP server with the web
 * build and the API served by the real Lambda handlers through an API Gateway event adapter.
 */
export async function startLocalShop(options: LocalShopOptions): Promise<LocalShop> {
  const closers: Closers = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const stores = await startStoreStandIns(options, closers);
    const front = await openFront(options.port, closers);
    const url = front.url;
    // Started once the shop's port is known: the app client's callback and sign-out URL is its /admin.
    const adminUsers = options.adminUsers ?? [localMerchant(LOCAL_MERCHANT.email, LOCAL_MERCHANT.password)];
    const identityProvider = await startLocalIdentityProvider(options, url, adminUsers, closers);
    const simulator = options.stripe ? undefined : await startLocalSimulator(options, url);
    if (simulator) closers.push(() => simulator.close());
    await prepareOrdersTable(stores.dynamoUrl);
    // The handlers read their configuration from the environment at their first invocation,
    // exactly as in Lambda; this is the only place the local stack sets it.
    Object.assign(process.env, lambdaEnvironment(options, { url, ...stores, simulator, identityProvider }));
    front.serveWith(await createShopHandler(options, identityProvider));
    await waitUntilAnswering([
      { name: 'DynamoDB stand-in', url: stores.dynamoUrl },
      { name: 'SES stand-in', url: `${stores.sesUrl}/health-check` },
      ...(simulator ? [{ name: 'Stripe simulator', url: simulator.url }] : []),
      { name: 'Shop', url: `${url}/` },
    ]);
    return { url, ...stores, simulator, identityProvider: signInHandle(identityProvider, adminUsers), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What to close when the shop stops, in the order things started (closed in reverse). */
type Closers = Array<() => Promise<void>>;

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The shop's port, opened before the rest starts. The request handler is attached before the port
 * opens: a request that arrives while the rest of the stack starts waits for it (or gets a 503 if
 * start-up fails), and never hangs.
 */
async function openFront(port: number, closers: Closers) {
  let serve: RequestHandler = () => Promise.resolve();
  let markReady: () => void = () => undefined;
  let markFailed: () => void = () => undefined;
  const ready = new Promise<boolean>((done) => {
    markReady = () => done(true);
    markFailed = () => done(false);
  });
  const app = createServer((req, res) => {
    void ready.then((ok) => {
      if (ok) return serve(req, res);
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error: 'The local shop failed to start.' }));
    });
  });
  closers.push(async () => markFailed());
  const listening = await listen(app, 'Shop', port);
  closers.push(() => closeServer(app));
  return {
    url: `http://localhost:${listening}`,
    serveWith(handler: RequestHandler): void {
      serve = handler;
      markReady();
    },
  };
}

/** The merchant's sign-in for /admin and the CLI, as the stack's app client lists its callbacks. */
async function startLocalIdentityProvider(
  options: LocalShopOptions,
  url: string,
  users: readonly LocalUser[],
  closers: Closers,
): Promise<IdentityProvider> {
  const identityProvider = await startIdentityProvider({
    port: options.identityProviderPort ?? 0,
    clientId: LOCAL_ADMIN_CLIENT_ID,
    // The page's /admin, and the CLI's loopback callbacks, as the stack's app client lists them.
    redirectUris: [`${url}${ADMIN_PAGE_PATH}`, ...CLI_LOOPBACK_PORTS.map(cliCallbackUrl)],
    users,
    stateFile: options.keepDir && join(options.keepDir, KEPT_FILES.identityProvider),
    log: options.log,
  });
  closers.push(() => identityProvider.close());
  return identityProvider;
}

/** The orders table, made when missing; a kept one's orders given their reference keys. */
async function prepareOrdersTable(dynamoUrl: string): Promise<void> {
  const dynamo = new DynamoDBClient({
    region: LOCAL.region,
    endpoint: dynamoUrl,
    credentials: LOCAL_CREDENTIALS,
  });
  await ensureOrdersTable(dynamo, LOCAL.tableName);
  // A `.local-data` kept from before references were folded: its orders found as read aloud too.
  await backfillReferenceKeys({ client: DynamoDBDocumentClient.from(dynamo), tableName: LOCAL.tableName });
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** The functions' environment, as the stack sets it, pointed at the stand-ins. */
function lambdaEnvironment(
  options: LocalShopOptions,
  parts: {
    url: string;
    dynamoUrl: string;
    sesUrl: string;
    simulator: StripeSimulator | undefined;
    identityProvider: IdentityProvider;
  },
): Record<string, string> {
  const { url, dynamoUrl, sesUrl, simulator, identityProvider } = parts;
  return {
    SITE_URL: url,
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: options.stripe?.secretKey ?? LOCAL.simulatorSecretKey,
    STRIPE_WEBHOOK_SECRET: options.stripe
      ? (options.stripe.webhookSecret ?? '')
      : LOCAL.simulatorWebhookSecret,
    ...(simulator && { STRIPE_API_BASE: simulator.url }),
    ORDERS_TABLE_NAME: LOCAL.tableName,
    // The order page (/order/<token>): every local email links to it. ORDER_PAGE_SECRET= (empty)
    // turns the links off, as a stage without the secret has none.
    ORDER_PAGE_SECRET: process.env.ORDER_PAGE_SECRET ?? LOCAL.orderPageSecret,
    DYNAMODB_ENDPOINT: dynamoUrl,
    SES_ENDPOINT: sesUrl,
    AWS_REGION: LOCAL.region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    // The local stage's sender and seller, which the site shows too (shared/stage-config.ts).
    SES_FROM_ADDRESS: process.env.SES_FROM_ADDRESS ?? LOCAL_STAGE_SETTINGS.senderEmail,
    MERCHANT_EMAIL: process.env.MERCHANT_EMAIL ?? LOCAL_STAGE_SETTINGS.merchantEmail,
    SHOP_NAME: process.env.SHOP_NAME ?? LOCAL_STAGE_SETTINGS.shopName,
    SELLER_NAME: process.env.SELLER_NAME ?? LOCAL_STAGE_SETTINGS.sellerName,
    SELLER_ADDRESS: process.env.SELLER_ADDRESS ?? LOCAL_STAGE_SETTINGS.sellerAddress,
    SELLER_EMAIL: process.env.SELLER_EMAIL ?? LOCAL_STAGE_SETTINGS.sellerEmail,
    // The deployment marker in session metadata: set your own when sharing a Stripe test account.
    SHOP_ID: process.env.SHOP_ID ?? 'LiveAquatics-local',
    ...(options.forecastUrl && { FORECAST_API_URL: options.forecastUrl }),
    ...(options.settingsMaxAgeMs !== undefined && { SETTINGS_MAX_AGE_MS: String(options.settingsMaxAgeMs) }),
    ...(options.push && {
      VAPID_PUBLIC_KEY: options.push.keys.publicKey,
      VAPID_PRIVATE_KEY: options.push.keys.privateKey,
      PUSH_LOCAL_ORIGIN: options.push.url,
    }),
    // The session routes' provider (ADR 0055): its token endpoint, and its user-pool API for
    // "sign out everywhere", both the identity stand-in.
    ADMIN_SIGN_IN_URL: identityProvider.url,
    ADMIN_CLIENT_ID: identityProvider.clientId,
    ADMIN_USER_POOL_ID: 'local',
    COGNITO_ENDPOINT: identityProvider.url,
  };
}

/** The handlers as deployed, on the weather clock when it is set, the admin's behind its JWT authorizer. */
async function loadFunctions(options: LocalShopOptions, identityProvider: IdentityProvider) {
  const [createCheckout, checkoutStatus, stripeWebhook, shopStatus, adminApi, orderPage, weatherNotice] =
    await Promise.all([
      import('../lambdas/handlers/create-checkout/handler'),
      import('../lambdas/handlers/checkout-status/handler'),
      import('../lambdas/handlers/stripe-webhook/handler'),
      import('../lambdas/handlers/shop-status/handler'),
      import('../lambdas/handlers/admin-api/handler'),
      import('../lambdas/handlers/order-page/handler'),
      import('../lambdas/handlers/weather-notice/handler'),
    ]);
  const { weatherNow } = options;
  // The deployed function unless the weather clock is set, then the same function on that clock.
  const adminHandler = weatherNow
    ? adminApiOnWeatherClock(adminApi, weatherNow, process.env)
    : adminApi.handler;
  const runWeatherNotice = weatherNow
    ? weatherNoticeOnWeatherClock(weatherNotice, weatherNow, process.env)
    : weatherNotice.handler;
  // Every admin path, whatever routes the function has: API Gateway's JWT authorizer in front
  // (issuer, client, expiry, signature from the identity provider's JWKS), the function behind.
  const admin = withJwtAuthorizer(adminHandler, {
    issuer: identityProvider.url,
    clientId: identityProvider.clientId,
    jwks: await fetchJwks(identityProvider.jwksUrl),
  });
  // Each public route (shared/public-routes.ts: its path and method) and its function, as deployed.
  const routes = publicRouter({
    createCheckout: createCheckout.handler,
    checkoutStatus: checkoutStatus.handler,
    stripeWebhook: stripeWebhook.handler,
    shopStatus: shopStatus.handler,
    orderPage: orderPage.handler,
    orderPageAddress: orderPage.handler,
    orderPageStandingOrder: orderPage.handler,
  });
  return { adminHandler, admin, runWeatherNotice, routes };
}

/**
 * The deployed functions behind their routes: the admin API behind its JWT authorizer (the session
 * routes without, as in the stack), the public routes, the local controls, then the site.
 */
async function createShopHandler(
  options: LocalShopOptions,
  identityProvider: IdentityProvider,
): Promise<RequestHandler> {
  const { adminHandler, admin, runWeatherNotice, routes } = await loadFunctions(options, identityProvider);
  const site = createStaticSite(resolve(options.webRoot));

  const adminConfig = adminConfigSchema.parse({
    signInUrl: identityProvider.url,
    clientId: identityProvider.clientId,
  });
  return async (req, res) => {
    try {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (pathname.startsWith(ADMIN_API_PREFIX)) {
        // The session routes carry no JWT authorizer, as in the stack: their cookie is the credential.
        const status = await serveWithLambda(
          req,
          res,
          pathname.startsWith(`${ADMIN_SESSION_PATH}/`) ? adminHandler : admin,
        );
        options.log(`${req.method} ${pathname} ${status}`);
        return;
      }
      if (pathname === LOCAL_CONTROL_PATHS.weatherNotice) {
        if (req.method !== 'POST') {
          res.writeHead(405, { 'content-type': 'application/json', allow: 'POST' });
          res.end(JSON.stringify({ error: 'Use POST.' }));
          return;
        }
        // The scheduled function itself, as EventBridge invokes it (an empty event).
        const result = await runWeatherNotice({});
        options.log(`POST ${pathname} ${result.outcome}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result));
        return;
      }
      if (pathname === ADMIN_CONFIG_PATH) {
        // As the deployment writes it beside the site, never cached.
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
        res.end(JSON.stringify(adminConfig));
        return;
      }
      const route = routes.get(pathname);
      if (!route) {
        await site(req, res);
        return;
      }
      if (req.method !== route.method) {
        res.writeHead(405, { 'content-type': 'application/json', allow: route.method });
        res.end(JSON.stringify({ error: `Use ${route.method}.` }));
        return;
      }
      const status = await serveWithLambda(req, res, route.handler);
      options.log(`${req.method} ${pathname} ${status}`);
    } catch (error) {
      options.log(
        `error serving ${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Internal error' }));
    }
  };
}

/** The public routes by path: each with its method and the function behind it. */
function publicRouter(
  handlers: Readonly<Record<PublicRouteName, HttpLambda>>,
): ReadonlyMap<string, { method: PublicRoute['method']; handler: HttpLambda }> {
  return new Map(
    publicRouteNames().map((name) => {
      const { path, method } = PUBLIC_API_ROUTES[name];
      return [path, { method, handler: handlers[name] }];
    }),
  );
}
