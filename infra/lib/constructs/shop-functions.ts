import { Duration, Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { OPEN_METEO_FREE_URL } from '../../../shared/open-meteo';
import type { ShopConfig } from '../config';
import type { ShopEmail } from './email';
import type { OrdersTable } from './orders-table';
import type { ForecastKeySecret, StripeSecrets, VapidKeySecret } from './secrets';
import { ShopFunction, type ShopFunctionProps } from './shop-function';

/** How often the reconciler looks for paid sessions whose webhook never arrived. */
export const RECONCILE_EVERY = Duration.minutes(15);

/** The reconciler's time limit: a run that has not finished is cut off, and the next run resumes. */
export const RECONCILER_TIMEOUT = Duration.minutes(5);

/**
 * Reserved concurrency when `reservedConcurrency` is on (29 in all): the webhook most, so checkouts
 * cannot starve it; the reconciler one, so runs never overlap. Needs a quota of 129 (deploy-reference.md).
 */
export const RESERVED_CONCURRENCY = {
  createCheckout: 5,
  checkoutStatus: 5,
  stripeWebhook: 10,
  reconcileOrders: 1,
  weatherNotice: 1,
  shopStatus: 2,
  adminApi: 2,
  orderPage: 3,
} as const;

/** The shop's functions by name (the names of {@link RESERVED_CONCURRENCY}). */
export type ShopFunctionSet = { readonly [name in keyof typeof RESERVED_CONCURRENCY]: ShopFunction };

/** Props of {@link ShopFunctions}: the settings and the data stack's stateful parts they touch. */
export interface ShopFunctionsProps {
  /** Validated settings (see config.ts). */
  readonly config: ShopConfig;
  /** Repository root, for the Lambda entries. */
  readonly repoRoot: string;
  readonly orders: OrdersTable;
  readonly stripeSecrets: StripeSecrets;
  readonly email: ShopEmail;
  /** The key that seals an order page's link (ADR 0047). */
  readonly orderPageSecret: Secret;
  readonly forecastKey: ForecastKeySecret;
  /** The pair that signs the merchant's pushes (ADR 0056). */
  readonly vapidKey: VapidKeySecret;
}

type Environment = Readonly<Record<string, string>>;
type FunctionOptions = Omit<ShopFunctionProps, 'repoRoot' | 'reservedConcurrentExecutions'> & {
  reservedConcurrency: number;
};

/** The shop's eight functions with exactly the settings and permissions each needs, and two schedules. */
export class ShopFunctions extends Construct {
  readonly functions: ShopFunctionSet;
  private readonly props: ShopFunctionsProps;

  constructor(scope: Construct, id: string, props: ShopFunctionsProps) {
    super(scope, id);
    this.props = props;
    const env = functionEnvironments(props, `${Stack.of(this).stackName}-${props.config.stage}`);
    this.functions = { ...this.defineApiFunctions(env), ...this.defineOperatorFunctions(env) };
    grantAccess(this.functions, props);
    this.scheduleRuns();
  }

  /** success_url, cancel_url and the emails' links are built from this, never from a request. */
  addSiteUrl(siteUrl: string): void {
    const { createCheckout, stripeWebhook, reconcileOrders, weatherNotice, adminApi, orderPage } =
      this.functions;
    // The webhook's is where a customer whose Direct Debit failed is sent to order again.
    for (const fn of [createCheckout, stripeWebhook, reconcileOrders, weatherNotice, adminApi, orderPage]) {
      fn.function.addEnvironment('SITE_URL', siteUrl);
    }
  }

  private define(id: string, { reservedConcurrency, ...options }: FunctionOptions): ShopFunction {
    return new ShopFunction(this, id, {
      ...options,
      repoRoot: this.props.repoRoot,
      reservedConcurrentExecutions: this.props.config.reservedConcurrency ? reservedConcurrency : undefined,
    });
  }

  // API timeouts: under API Gateway's 30 s and above one Stripe call with its 8 s timeout and one
  // retry, so a slow Stripe ends as a clean 502 rather than a killed function.
  private defineApiFunctions(env: FunctionEnvironments) {
    return {
      createCheckout: this.define('CreateCheckout', {
        entry: 'lambdas/handlers/create-checkout/handler.ts',
        description: 'Creates a Stripe Checkout Session at the server price',
        timeout: Duration.seconds(20),
        reservedConcurrency: RESERVED_CONCURRENCY.createCheckout,
        environment: { ...env.checkout, ...env.push },
      }),
      checkoutStatus: this.define('CheckoutStatus', {
        entry: 'lambdas/handlers/checkout-status/handler.ts',
        description: 'Read-only status of a Checkout Session for the success page',
        timeout: Duration.seconds(20),
        reservedConcurrency: RESERVED_CONCURRENCY.checkoutStatus,
        // The table and the secret answer a placed order's page link (ADR 0047).
        environment: { ...env.stripe('checkoutKey'), ORDERS_TABLE_NAME: env.tableName, ...env.orderPage },
      }),
      stripeWebhook: this.define('StripeWebhook', {
        entry: 'lambdas/handlers/stripe-webhook/handler.ts',
        description: 'Verifies Stripe events and fulfils paid sessions exactly once',
        timeout: Duration.seconds(25),
        reservedConcurrency: RESERVED_CONCURRENCY.stripeWebhook,
        environment: {
          ...env.fulfilment,
          ...env.orderPage,
          ...env.push,
          STRIPE_WEBHOOK_SECRET_ID: env.webhookSecretArn,
        },
      }),
      shopStatus: this.define('ShopStatus', {
        entry: 'lambdas/handlers/shop-status/handler.ts',
        description: 'Whether the shop is open, paused or taking requests, for the page',
        timeout: Duration.seconds(10),
        reservedConcurrency: RESERVED_CONCURRENCY.shopStatus,
        // The cut-off gives the first dispatch day, from which it looks for one with room.
        environment: { ORDERS_TABLE_NAME: env.tableName, ...env.dispatch },
        readsSecrets: false,
      }),
      // The order page and a standing order's page, whose changes call Stripe with the fulfilment key
      // (ADR 0059): up to three Stripe calls (a skip's refund) and two emails.
      orderPage: this.define('OrderPage', {
        entry: 'lambdas/handlers/order-page/handler.ts',
        description:
          "The customer's order page: its status, and the delivery details corrected before packing",
        timeout: Duration.seconds(20),
        reservedConcurrency: RESERVED_CONCURRENCY.orderPage,
        environment: { ...env.stripe('fulfilmentKey'), ...env.shopEmail, ...env.dispatch, ...env.orderPage },
      }),
    };
  }

  private defineOperatorFunctions(env: FunctionEnvironments) {
    return {
      reconcileOrders: this.define('ReconcileOrders', {
        entry: 'lambdas/handlers/reconcile-orders/handler.ts',
        description: 'Fulfils paid sessions whose webhook never arrived',
        // Walks three days of sessions, one Stripe call each: well inside the 15-minute schedule.
        timeout: RECONCILER_TIMEOUT,
        reservedConcurrency: RESERVED_CONCURRENCY.reconcileOrders,
        environment: { ...env.fulfilment, ...env.orderPage, ...env.push },
        // The next scheduled run does the same work; Lambda's async retries would overlap it.
        retryAttempts: 0,
      }),
      // The day before each dispatch, the merchant's email of orders at risk from the weather.
      weatherNotice: this.define('WeatherNotice', {
        entry: 'lambdas/handlers/weather-notice/handler.ts',
        description: 'Emails the merchant the day before a dispatch when the weather puts an order at risk',
        // One forecast request per place (2 s each at most, in parallel) and one email.
        timeout: Duration.seconds(30),
        reservedConcurrency: RESERVED_CONCURRENCY.weatherNotice,
        environment: { ...env.shopEmail, ...env.forecast },
        // The send-once record makes a retry harmless, but the next day's run is soon enough.
        retryAttempts: 0,
      }),
      // Refunds and payment links use the fulfilment key, as the CLI does; the stack adds the origin secret.
      adminApi: this.define('AdminApi', {
        entry: 'lambdas/handlers/admin-api/handler.ts',
        description: "The merchant's admin API (Cognito sign-in, merchants group)",
        timeout: Duration.seconds(25),
        reservedConcurrency: RESERVED_CONCURRENCY.adminApi,
        environment: { ...env.fulfilment, ...env.orderPage, ...env.forecast, ...env.push },
      }),
    };
  }

  private scheduleRuns(): void {
    const { weatherNotice, reconcileOrders } = this.functions;
    // EventBridge rules run on UTC: 18:30 UTC is 18:30 in winter (GMT) and 19:30 in summer (BST),
    // both after the forecast is trusted (18:00 London two days ahead) and the evening before packing.
    new Rule(this, 'WeatherNoticeSchedule', {
      description: 'Emails the merchant the day before a dispatch when an order is at risk from the weather',
      schedule: Schedule.cron({ minute: '30', hour: '18' }),
      targets: [new LambdaFunction(weatherNotice.function, { retryAttempts: 0 })],
    });
    new Rule(this, 'ReconcileSchedule', {
      description: 'Runs the order reconciler',
      schedule: Schedule.rate(RECONCILE_EVERY),
      // No retries: the next run does the same work, and the reconciler is idempotent.
      targets: [new LambdaFunction(reconcileOrders.function, { retryAttempts: 0 })],
    });
  }
}

type FunctionEnvironments = ReturnType<typeof functionEnvironments>;

/** Only the settings each handler parses (lambdas/lib/config.ts); none is secret. */
function functionEnvironments(props: ShopFunctionsProps, shopId: string) {
  const { config, orders, stripeSecrets, email, orderPageSecret, forecastKey, vapidKey } = props;
  const stripe = (secret: 'checkoutKey' | 'fulfilmentKey'): Environment => ({
    STRIPE_SECRET_ID: stripeSecrets.secrets[secret].secretArn,
    STRIPE_LIVEMODE: String(config.stripeLivemode),
    // The marker this deployment puts on its sessions and looks for (money's lambdas/lib/config.ts).
    SHOP_ID: shopId,
  });
  const dispatch = { DISPATCH_CUTOFF_HOURS: String(config.dispatchCutoffHours) };
  const shopEmail: Environment = {
    ORDERS_TABLE_NAME: orders.table.tableName,
    SES_FROM_ADDRESS: config.senderEmail,
    MERCHANT_EMAIL: config.merchantEmail,
    SES_CONFIGURATION_SET: email.configurationSet.configurationSetName,
    SHOP_NAME: config.shopName,
    SELLER_NAME: config.sellerName,
    SELLER_ADDRESS: config.sellerAddress,
    SELLER_EMAIL: config.sellerEmail,
    ...(config.sellerCompanyNumber === undefined
      ? {}
      : { SELLER_COMPANY_NUMBER: config.sellerCompanyNumber }),
    ...(config.sellerVatNumber === undefined ? {} : { SELLER_VAT_NUMBER: config.sellerVatNumber }),
  };
  const fulfilment = { ...stripe('fulfilmentKey'), ...dispatch, ...shopEmail };
  return {
    tableName: orders.table.tableName,
    webhookSecretArn: stripeSecrets.secrets.webhookSigningSecret.secretArn,
    stripe,
    dispatch,
    shopEmail,
    fulfilment,
    // Checkout reads the settings and, in requests mode, records and emails requests.
    checkout: {
      ...fulfilment,
      ...stripe('checkoutKey'),
      ...(config.publicApiKey === undefined ? {} : { PUBLIC_API_KEY: config.publicApiKey }),
    },
    // The stage trading with a missing key is shown and alarmed (ADR 0045).
    forecast: {
      // Open-Meteo (ADR 0036); with a commercial key the functions ask its customer-api host instead.
      FORECAST_API_URL: OPEN_METEO_FREE_URL,
      FORECAST_API_KEY_SECRET_ID: forecastKey.secret.secretArn,
      FORECAST_PLAN: config.forecastPlan,
    },
    // Every function that emails a customer about an order seals the order page's link with it.
    orderPage: { ORDER_PAGE_SECRET_ID: orderPageSecret.secretArn },
    // The functions that push to the merchant's devices, and the admin API that subscribes them (ADR 0056).
    push: { VAPID_SECRET_ID: vapidKey.secret.secretArn },
  };
}

/** Exactly what each function touches; the grants' order is the order of each role's policy statements. */
function grantAccess(functions: ShopFunctionSet, props: ShopFunctionsProps): void {
  const { orders, stripeSecrets, email, orderPageSecret, forecastKey, vapidKey } = props;
  const { createCheckout, checkoutStatus, stripeWebhook, reconcileOrders, shopStatus, adminApi } = functions;
  stripeSecrets.grantRead('fulfilmentKey', adminApi);
  email.grantSend(adminApi);
  // Its refund, decline and request-payment give back or move bottles on the dispatch days.
  orders.grantCapacityReservations(adminApi);
  orders.grantClientHolds(adminApi);
  stripeSecrets.grantRead('checkoutKey', createCheckout);
  // The shop's settings item, and order requests in requests mode: nothing else of the table.
  orders.grantShopSettingsRead(createCheckout);
  orders.grantOrderRequestsWrite(createCheckout);
  email.grantSend(createCheckout);
  orders.grantCapacityReservations(createCheckout);
  // At most 3 open checkouts per client (lambdas/domain/capacity/client-holds.ts); `npm run rehearse` found it missing.
  orders.grantClientHolds(createCheckout);
  orders.grantCheckoutTransactions(createCheckout);
  orders.grantShopSettingsRead(shopStatus);
  orders.grantCapacityRead(shopStatus);
  stripeSecrets.grantRead('checkoutKey', checkoutStatus);
  // The order's page key, to answer its link to the session's holder; GetItem only (ADR 0047).
  orders.grantOrderPageLinkRead(checkoutStatus);
  stripeSecrets.grantRead('webhookSigningSecret', stripeWebhook);
  for (const fulfiller of [stripeWebhook, reconcileOrders]) {
    stripeSecrets.grantRead('fulfilmentKey', fulfiller);
    orders.grantFulfilment(fulfiller);
    email.grantSend(fulfiller);
    // A completed session's hold becomes a sale; an expired one's is released; a refund gives back.
    orders.grantCapacityReservations(fulfiller);
  }
  // The reconciler sweeps orders whose outbox entries were left unsent (ADR 0044).
  orders.grantOutboxSweep(reconcileOrders);
  // It sets every active standing order's capacity holds, the window rolling a week each cut-off (ADR 0060).
  orders.grantStandingOrdersScan(reconcileOrders);
  // The admin lists every standing order (ADR 0061); a pause goes through the active ones (ADR 0060).
  orders.grantStandingOrdersTableScan(adminApi);
  orders.grantStandingOrdersScan(adminApi);

  const { weatherNotice, orderPage } = functions;
  // The page reads and corrects orders (ORDER#* only) and sends the correction's one email.
  orders.grantOrderPage(orderPage);
  // A link sent while the money was with the bank opens the pending (or failed) debit's record.
  orders.grantDebitRecordsRead(orderPage);
  email.grantSend(orderPage);
  // A standing order's page: its record, its changes in Stripe (a skip's refund gives bottles back).
  orders.grantStandingOrderPage(orderPage);
  stripeSecrets.grantRead('fulfilmentKey', orderPage);
  orders.grantCapacityReservations(orderPage);
  for (const linker of [orderPage, stripeWebhook, reconcileOrders, adminApi, checkoutStatus]) {
    orderPageSecret.grantRead(linker);
  }
  // The merchant's pushes: the pair, and the one subscriptions item (each event's claim is on its own item).
  for (const pusher of [stripeWebhook, reconcileOrders, createCheckout, adminApi]) {
    vapidKey.grantRead(pusher);
    orders.grantPushSubscriptions(pusher);
  }
  orders.grantWeatherNotice(weatherNotice);
  // The two functions that ask for forecasts read Open-Meteo's key; nothing else does.
  forecastKey.grantRead(weatherNotice);
  forecastKey.grantRead(adminApi);
  email.grantSend(weatherNotice);
}
