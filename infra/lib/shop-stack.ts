import { join } from 'node:path';
import { Aws, CfnOutput, Duration, Stack, type StackProps, Stage, Tags } from 'aws-cdk-lib';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { PACKING_SLIPS_STYLE } from '../../lambdas/domain/fulfilment/dispatch-files';
import { ADMIN_CONFIG_PATH, type AdminConfig } from '../../shared/admin-config';
import { PUBLIC_API_ROOT, PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { PLACEHOLDER_STAGES, type ShopConfig } from './config';
import { CheckoutApi, routeKeyOf } from './constructs/checkout-api';
import { MerchantAdmin, managedLoginUrl } from './constructs/merchant-admin';
import { ShopMonitoring } from './constructs/monitoring';
import { ShopFunction, type ShopFunctionProps } from './constructs/shop-function';
import { Website } from './constructs/website';
import type { ShopDataStack } from './data-stack';
import { acknowledgeNag } from './nag';
import { buildSite } from './site-build';

/** The header CloudFront adds to API requests (as lambdas/lib/origin-verify.ts reads it). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
/**
 * Where CloudFront gives the viewer's address, `ip:port` (as lambdas/lib/http.ts reads it): the
 * authorizer's second identity source, so its cached answer, which carries the address, is per viewer.
 */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/** The site in a template synthesised without bundling (nothing of that stack is deployed then). */
export const PLACEHOLDER_SITE_DIR = 'infra/placeholder-web';

/**
 * Open-Meteo's forecast API (ADR 0036). With a commercial key in the data stack's secret (npm run
 * setup), the functions ask its customer-api host instead (lambdas/domain/weather/forecast-source.ts).
 */
const FORECAST_API_URL = 'https://api.open-meteo.com';

/** How often the reconciler looks for paid sessions whose webhook never arrived. */
export const RECONCILE_EVERY = Duration.minutes(15);

/** The reconciler's time limit: a run that has not finished is cut off, and the next run resumes. */
export const RECONCILER_TIMEOUT = Duration.minutes(5);

/**
 * Reserved concurrency per function, when enabled with `reservedConcurrency` (29 in all; off by
 * default). The webhook gets the most so a flood of checkouts cannot starve it; the reconciler
 * gets one so runs never overlap. Lambda keeps 100 of the account's quota unreserved, so this
 * needs a quota of at least 129; new accounts start at 10 or 50 (docs/deploy-reference.md).
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

/** Props of {@link ShopStack}. */
export interface ShopStackProps extends StackProps {
  /** Validated settings (see config.ts). */
  readonly config: ShopConfig;
  /** Repository root, for the Lambda entries and the web build. */
  readonly repoRoot: string;
  /**
   * A site already built, deployed as it is: for tests, which synthesise many stacks.
   * @default the site built with `config` (infra/lib/site-build.ts) when the stack is bundled
   */
  readonly siteDir?: string;
  /** The stage's stateful stack: table, secrets, SES, alarm topic. */
  readonly data: ShopDataStack;
  /** The us-east-1 WAF web ACL for the distribution (a cross-region reference). @default none */
  readonly webAclArn?: string;
}

/**
 * Stable output keys of the app stack, read by the operator's commands and the ops CLI
 * (`aws cloudformation describe-stacks`). Renaming one breaks them.
 */
export const APP_OUTPUT_KEYS = {
  siteUrl: 'SiteUrl',
  apiUrl: 'ApiUrl',
  /** The API's own execute-api address: `npm run doctor` checks it refuses what bypasses CloudFront. */
  apiOriginUrl: 'ApiOriginUrl',
  stripeWebhookUrl: 'StripeWebhookUrl',
  ordersTableName: 'OrdersTableName',
  alarmTopicArn: 'AlarmTopicArn',
  distributionId: 'DistributionId',
  distributionDomainName: 'DistributionDomainName',
  apiAccessLogGroupName: 'ApiAccessLogGroupName',
  /** The fulfilment key's secret: what the ops CLI reads to call Stripe as the back office. */
  stripeSecretName: 'StripeSecretName',
  /** The merchants' user pool: `npm run orders -- merchant add` creates users in it. */
  adminUserPoolId: 'AdminUserPoolId',
  /** The admin page's app client (public, authorization code + PKCE). */
  adminClientId: 'AdminClientId',
  /** Managed login's base URL, where the admin page sends the merchant to sign in. */
  adminSignInUrl: 'AdminSignInUrl',
  /** The stage's CloudWatch dashboard (sold-out dispatch days, order requests). */
  dashboardUrl: 'DashboardUrl',
} as const;

/** Per function: `<Name>FunctionName` and `<Name>LogGroupName` outputs. */
export const FUNCTION_OUTPUT_NAMES = {
  createCheckout: 'CreateCheckout',
  checkoutStatus: 'CheckoutStatus',
  stripeWebhook: 'StripeWebhook',
  reconcileOrders: 'ReconcileOrders',
  weatherNotice: 'WeatherNotice',
  shopStatus: 'ShopStatus',
  adminApi: 'AdminApi',
  orderPage: 'OrderPage',
} as const;

/**
 * The shop's application stack: website and API behind one CloudFront distribution, the four
 * functions with one role each, and the alarms. Everything here can be deleted and recreated; what
 * holds state is in {@link ShopDataStack}, read through stack outputs.
 */
export class ShopStack extends Stack {
  readonly website: Website;
  /** The site this stack uploads. */
  readonly siteDir: string;
  readonly api: CheckoutApi;
  readonly data: ShopDataStack;
  readonly monitoring: ShopMonitoring;
  /** The merchant's user pool and the admin routes behind its JWT authorizer. */
  readonly admin: MerchantAdmin;
  /** The API's authorizer: requests must carry CloudFront's origin-verify header. */
  readonly originVerifier: ShopFunction;
  readonly functions: {
    readonly createCheckout: ShopFunction;
    readonly checkoutStatus: ShopFunction;
    readonly stripeWebhook: ShopFunction;
    readonly reconcileOrders: ShopFunction;
    readonly weatherNotice: ShopFunction;
    readonly shopStatus: ShopFunction;
    readonly adminApi: ShopFunction;
    readonly orderPage: ShopFunction;
  };

  constructor(scope: Construct, id: string, props: ShopStackProps) {
    super(scope, id, props);
    const { config, repoRoot, data } = props;
    this.data = data;
    Tags.of(this).add('project', 'live-aquatics');
    Tags.of(this).add('stage', config.stage);
    const { orders, stripeSecrets, email, orderPageSecret, forecastKey, vapidKey } = data;

    this.monitoring = new ShopMonitoring(this, 'Monitoring', {
      topic: data.alarms.topic,
      dashboardName: `live-aquatics-shop-${config.stage}`,
    });

    // Each function gets only the settings its handler parses (lambdas/lib/config.ts); none of
    // them is secret. What a function may touch is decided by its role, below.
    const stripeEnv = (secret: 'checkoutKey' | 'fulfilmentKey') => ({
      STRIPE_SECRET_ID: stripeSecrets.secrets[secret].secretArn,
      STRIPE_LIVEMODE: String(config.stripeLivemode),
      // The marker this deployment puts on its sessions and looks for (money's lambdas/lib/config.ts).
      SHOP_ID: `${this.stackName}-${config.stage}`,
    });
    const dispatchEnv = { DISPATCH_CUTOFF_HOURS: String(config.dispatchCutoffHours) };
    const shopEmailEnv = {
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
    // The weather check's two functions: where forecasts come from, the key's secret, and whether
    // the stage trades (then a missing key is shown and alarmed, ADR 0045).
    const forecastEnv = {
      FORECAST_API_URL: FORECAST_API_URL,
      FORECAST_API_KEY_SECRET_ID: forecastKey.secret.secretArn,
      FORECAST_PLAN: config.forecastPlan,
    };
    // Every function that emails a customer about an order seals the order page's link with it.
    const orderPageEnv = { ORDER_PAGE_SECRET_ID: orderPageSecret.secretArn };
    // The functions that push to the merchant's devices, and the admin API that subscribes them (ADR 0056).
    const pushEnv = { VAPID_SECRET_ID: vapidKey.secret.secretArn };
    const fulfilmentEnv = {
      ...stripeEnv('fulfilmentKey'),
      ...dispatchEnv,
      ...shopEmailEnv,
    };
    // Checkout reads the shop's settings and, in requests mode, records and emails requests, so it
    // needs the table and the email settings the fulfilment functions have.
    const checkoutEnv = {
      ...fulfilmentEnv,
      ...stripeEnv('checkoutKey'),
      ...(config.publicApiKey === undefined ? {} : { PUBLIC_API_KEY: config.publicApiKey }),
      // SITE_URL is added once the distribution exists (below).
    };

    const shopFunction = (
      id: string,
      {
        reservedConcurrency,
        ...options
      }: Omit<ShopFunctionProps, 'repoRoot' | 'reservedConcurrentExecutions'> & {
        reservedConcurrency: number;
      },
    ): ShopFunction =>
      new ShopFunction(this, id, {
        ...options,
        repoRoot,
        reservedConcurrentExecutions: config.reservedConcurrency ? reservedConcurrency : undefined,
      });

    // Timeouts of the API functions: under API Gateway's 30 s, and above one Stripe call with the
    // client's own 8 s timeout and one retry (lambdas/lib/stripe.ts), so a slow Stripe ends as a
    // clean 502 from the handler rather than a killed function.
    this.functions = {
      createCheckout: shopFunction('CreateCheckout', {
        entry: 'lambdas/handlers/create-checkout/handler.ts',
        description: 'Creates a Stripe Checkout Session at the server price',
        timeout: Duration.seconds(20),
        reservedConcurrency: RESERVED_CONCURRENCY.createCheckout,
        environment: { ...checkoutEnv, ...pushEnv },
      }),
      checkoutStatus: shopFunction('CheckoutStatus', {
        entry: 'lambdas/handlers/checkout-status/handler.ts',
        description: 'Read-only status of a Checkout Session for the success page',
        timeout: Duration.seconds(20),
        reservedConcurrency: RESERVED_CONCURRENCY.checkoutStatus,
        // The table and the secret answer a placed order's page link (ADR 0047).
        environment: {
          ...stripeEnv('checkoutKey'),
          ORDERS_TABLE_NAME: orders.table.tableName,
          ...orderPageEnv,
        },
      }),
      stripeWebhook: shopFunction('StripeWebhook', {
        entry: 'lambdas/handlers/stripe-webhook/handler.ts',
        description: 'Verifies Stripe events and fulfils paid sessions exactly once',
        timeout: Duration.seconds(25),
        reservedConcurrency: RESERVED_CONCURRENCY.stripeWebhook,
        environment: {
          ...fulfilmentEnv,
          ...orderPageEnv,
          ...pushEnv,
          STRIPE_WEBHOOK_SECRET_ID: stripeSecrets.secrets.webhookSigningSecret.secretArn,
        },
      }),
      reconcileOrders: shopFunction('ReconcileOrders', {
        entry: 'lambdas/handlers/reconcile-orders/handler.ts',
        description: 'Fulfils paid sessions whose webhook never arrived',
        // Not behind API Gateway: it walks three days of sessions, one Stripe call each. Well
        // inside the 15-minute schedule, so runs cannot pile up.
        timeout: RECONCILER_TIMEOUT,
        reservedConcurrency: RESERVED_CONCURRENCY.reconcileOrders,
        environment: { ...fulfilmentEnv, ...orderPageEnv, ...pushEnv },
        // The schedule's next run does the same work; Lambda's own two async retries would only
        // run the same walk again, overlapping the next run.
        retryAttempts: 0,
      }),
      // The day before each dispatch, the merchant's email of orders at risk from the weather.
      weatherNotice: shopFunction('WeatherNotice', {
        entry: 'lambdas/handlers/weather-notice/handler.ts',
        description: 'Emails the merchant the day before a dispatch when the weather puts an order at risk',
        // One forecast request per place (2 s each at most, in parallel) and one email.
        timeout: Duration.seconds(30),
        reservedConcurrency: RESERVED_CONCURRENCY.weatherNotice,
        environment: {
          ...shopEmailEnv,
          ...forecastEnv,
        },
        // The send-once record makes a retry harmless, but the next day's run is soon enough.
        retryAttempts: 0,
      }),
      shopStatus: shopFunction('ShopStatus', {
        entry: 'lambdas/handlers/shop-status/handler.ts',
        description: 'Whether the shop is open, paused or taking requests, for the page',
        timeout: Duration.seconds(10),
        reservedConcurrency: RESERVED_CONCURRENCY.shopStatus,
        // The cut-off gives the first dispatch day, from which it looks for one with room.
        environment: { ORDERS_TABLE_NAME: orders.table.tableName, ...dispatchEnv },
        readsSecrets: false,
      }),
      // The operator's actions behind sign-in: refunds and payment links call Stripe with the
      // fulfilment key, as the CLI does. SITE_URL and the origin check's secret are added below.
      adminApi: shopFunction('AdminApi', {
        entry: 'lambdas/handlers/admin-api/handler.ts',
        description: "The merchant's admin API (Cognito sign-in, merchants group)",
        timeout: Duration.seconds(25),
        reservedConcurrency: RESERVED_CONCURRENCY.adminApi,
        environment: {
          ...fulfilmentEnv,
          ...orderPageEnv,
          ...forecastEnv,
          ...pushEnv,
        },
      }),
      // The customer's order page and its correction: the table, email and its secret, no Stripe.
      // SITE_URL is added below. A DynamoDB read and one email at most: 10 s is plenty.
      orderPage: shopFunction('OrderPage', {
        entry: 'lambdas/handlers/order-page/handler.ts',
        description:
          "The customer's order page: its status, and the delivery details corrected before packing",
        timeout: Duration.seconds(10),
        reservedConcurrency: RESERVED_CONCURRENCY.orderPage,
        environment: { ...shopEmailEnv, ...dispatchEnv, ...orderPageEnv },
      }),
    };

    // Exactly what each function touches. The two public read/start functions call Stripe with the
    // checkout key (the status lookup also reads a page key, never writes); only the webhook reads
    // the signing secret.
    const { createCheckout, checkoutStatus, stripeWebhook, reconcileOrders, shopStatus, adminApi } =
      this.functions;
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

    const { weatherNotice, orderPage } = this.functions;
    // The page reads and corrects orders (ORDER#* only) and sends the correction's one email; the
    // functions that email customers about an order read the secret to seal its link.
    orders.grantOrderPage(orderPage);
    // A link sent while the money was with the bank opens the pending (or failed) debit's record.
    orders.grantDebitRecordsRead(orderPage);
    email.grantSend(orderPage);
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

    const domain =
      config.domainName !== undefined && config.certificateArn !== undefined
        ? {
            domainName: config.domainName,
            certificate: Certificate.fromCertificateArn(this, 'Certificate', config.certificateArn),
            hostedZone: data.hostedZone,
          }
        : undefined;

    // Only CloudFront knows this value (it sends it as a header on every API request); the
    // authorizer refuses anything without it before any shop function runs, so the execute-api
    // URL cannot be used to go around the WAF.
    const originVerify = new Secret(this, 'OriginVerifySecret', {
      description: `Live Aquatics (${config.stage}): the value CloudFront sends in ${ORIGIN_VERIFY_HEADER} to the API`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    acknowledgeNag(
      originVerify,
      'AwsSolutions-SMG4',
      'Rotation would change the value the authorizer expects before CloudFront sends it. Control: the value never leaves AWS (CloudFront origin config and this secret), only the authorizer may read it, and docs/deploy.md says how to roll it with a deploy.',
    );
    const originVerifier = new ShopFunction(this, 'OriginVerify', {
      repoRoot,
      entry: 'lambdas/handlers/origin-verify/handler.ts',
      description: 'Lets API requests in only when they came through CloudFront',
      timeout: Duration.seconds(5),
      environment: { ORIGIN_VERIFY_SECRET_ID: originVerify.secretArn },
    });
    originVerify.grantRead(originVerifier);
    // API Gateway caches the authorizer's answer by its identity sources, and the answer's context
    // (the viewer's address, for the access log) is reused with it: the cache key must hold what
    // the context carries, or one client's requests would be logged under another's address. The
    // address is `ip:port` and a browser keeps one connection for the page and its checkout, so
    // this costs about one authorizer call per customer visit. API Gateway refuses (401) a request
    // without either header before the authorizer runs: CloudFront sends both on every API path
    // (its origin custom header and the behaviour's origin request policy, website.ts).
    const authorizer = new HttpLambdaAuthorizer('OriginVerify', originVerifier.function, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [`$request.header.${ORIGIN_VERIFY_HEADER}`, `$request.header.${VIEWER_ADDRESS_HEADER}`],
      resultsCacheTtl: Duration.minutes(5),
    });
    this.originVerifier = originVerifier;

    this.api = new CheckoutApi(this, 'Api', {
      apiName: `LiveAquatics-${config.stage}`,
      authorizer,
      handlers: {
        createCheckout: createCheckout.function,
        checkoutStatus: checkoutStatus.function,
        stripeWebhook: stripeWebhook.function,
        shopStatus: shopStatus.function,
        orderPage: this.functions.orderPage.function,
        orderPageAddress: this.functions.orderPage.function,
      },
      // With the cloudfront.net name there is nothing to allow: the name is only known after the
      // distribution exists, and the distribution needs the API first. Same origin needs no CORS.
      corsOrigin: domain === undefined ? undefined : `https://${domain.domainName}`,
    });

    this.siteDir = props.siteDir ?? this.buildSite(repoRoot, config);
    // The account id makes the default unique (a prefix is global to the region); the setting overrides it.
    const adminDomainPrefix = config.cognitoDomainPrefix ?? `live-aquatics-${config.stage}-${Aws.ACCOUNT_ID}`;
    this.website = new Website(this, 'Website', {
      siteDir: this.siteDir,
      apiOriginDomainName: this.api.originDomainName,
      apiOriginHeader: { name: ORIGIN_VERIFY_HEADER, value: originVerify.secretValue.unsafeUnwrap() },
      webAclArn: props.webAclArn,
      domain,
      // The admin page fetches its tokens from managed login, whose name is known before the pool is.
      connectOrigins: [managedLoginUrl(adminDomainPrefix, this.region)],
      deployTimeFiles: [ADMIN_CONFIG_PATH],
      // The admin page opens the day's packing slips from a blob, under the page's own policy.
      openedDocumentStyles: [PACKING_SLIPS_STYLE],
    });
    // success_url and cancel_url are built from this, never from the request.
    createCheckout.function.addEnvironment('SITE_URL', this.website.siteUrl);
    // Where a customer whose Direct Debit failed is sent to order again.
    stripeWebhook.function.addEnvironment('SITE_URL', this.website.siteUrl);
    reconcileOrders.function.addEnvironment('SITE_URL', this.website.siteUrl);
    weatherNotice.function.addEnvironment('SITE_URL', this.website.siteUrl);
    adminApi.function.addEnvironment('SITE_URL', this.website.siteUrl);
    // The links the order emails carry, and the page's own.
    orderPage.function.addEnvironment('SITE_URL', this.website.siteUrl);
    // The admin routes carry the JWT authorizer instead of origin-verify: the Lambda checks the header.
    adminApi.function.addEnvironment('ORIGIN_VERIFY_SECRET_ID', originVerify.secretArn);
    originVerify.grantRead(adminApi);
    this.admin = new MerchantAdmin(this, 'MerchantAdmin', {
      httpApi: this.api.httpApi,
      handler: adminApi.function,
      siteUrl: this.website.siteUrl,
      requireMfa: !PLACEHOLDER_STAGES.includes(config.stage),
      domainPrefix: adminDomainPrefix,
      tableArn: orders.table.tableArn,
      invitationSender:
        config.cognitoSenderIdentity === undefined
          ? undefined
          : {
              fromEmail: config.senderEmail,
              fromName: config.shopName,
              identity: config.cognitoSenderIdentity,
            },
    });
    // The page's sign-in settings, beside the site: known only once the pool and its client exist.
    const adminConfig = {
      signInUrl: this.admin.domain.baseUrl(),
      clientId: this.admin.client.userPoolClientId,
    } satisfies AdminConfig;
    this.website.deployJsonFile('DeployAdminConfig', ADMIN_CONFIG_PATH, adminConfig);

    this.monitoring.monitorFunction('CreateCheckout', createCheckout.function);
    this.monitoring.monitorFunction('CheckoutStatus', checkoutStatus.function);
    this.monitoring.monitorFunction('StripeWebhook', stripeWebhook.function);
    this.monitoring.monitorFunction('ReconcileOrders', reconcileOrders.function);
    this.monitoring.monitorFunction('ShopStatus', shopStatus.function);
    this.monitoring.monitorFunction('AdminApi', adminApi.function);
    this.monitoring.monitorFunction('OrderPage', orderPage.function);
    this.monitoring.monitorWebhookServerErrors(this.api.accessLogs, routeKeyOf('stripeWebhook'));
    this.monitoring.monitorApiServerErrors(this.api.httpApi);
    this.monitoring.monitorMissedOrders();
    this.monitoring.monitorPaidCheckoutsNeedingReview();
    this.monitoring.monitorThrottledRequests(this.api.accessLogs);
    this.monitoring.monitorReconcilerHeartbeat();
    this.monitoring.monitorSesReputation();
    this.monitoring.monitorCustomerEmailRefused();
    this.monitoring.monitorDispatchDaysSoldOut([stripeWebhook.logGroup, reconcileOrders.logGroup]);
    this.monitoring.monitorOrderRequests();
    // Only a stage that declares commercial use needs the key; a free one has nothing to alarm on.
    if (config.forecastPlan === 'commercial') this.monitoring.monitorForecastKey(config.stage);

    const output = (key: string, value: string, description?: string) =>
      new CfnOutput(this, key, { value, description });
    output(APP_OUTPUT_KEYS.siteUrl, this.website.siteUrl, 'The shop');
    output(
      APP_OUTPUT_KEYS.apiUrl,
      `${this.website.siteUrl}${PUBLIC_API_ROOT}`,
      'The API, through CloudFront (the only way in)',
    );
    output(
      APP_OUTPUT_KEYS.apiOriginUrl,
      `https://${this.api.originDomainName}`,
      'The API behind CloudFront: it refuses (401 or 403) anything that did not come through CloudFront',
    );
    output(
      APP_OUTPUT_KEYS.stripeWebhookUrl,
      `${this.website.siteUrl}${PUBLIC_API_ROUTES.stripeWebhook.path}`,
      'npm run setup registers it in Stripe for the events the webhook handles',
    );
    output(APP_OUTPUT_KEYS.ordersTableName, orders.table.tableName, 'The orders table (in the data stack)');
    output(
      APP_OUTPUT_KEYS.alarmTopicArn,
      data.alarms.topic.topicArn,
      'Alarms; confirm the email subscription',
    );
    output(APP_OUTPUT_KEYS.distributionId, this.website.distribution.distributionId);
    output(
      APP_OUTPUT_KEYS.distributionDomainName,
      this.website.distribution.distributionDomainName,
      'Point a custom domain here (CNAME or alias) if the stack does not manage its DNS',
    );
    output(
      APP_OUTPUT_KEYS.apiAccessLogGroupName,
      this.api.accessLogs.logGroupName,
      'API access log (one JSON line per request)',
    );
    output(
      APP_OUTPUT_KEYS.stripeSecretName,
      stripeSecrets.secrets.fulfilmentKey.secretName,
      'The fulfilment key (webhook, reconciler, ops commands); the other secrets are outputs of the data stack',
    );
    output(APP_OUTPUT_KEYS.adminUserPoolId, this.admin.userPool.userPoolId, "The merchants' user pool");
    output(APP_OUTPUT_KEYS.adminClientId, this.admin.client.userPoolClientId, "The admin page's app client");
    output(APP_OUTPUT_KEYS.adminSignInUrl, this.admin.domain.baseUrl(), 'Managed login for the admin page');
    output(
      APP_OUTPUT_KEYS.dashboardUrl,
      this.monitoring.dashboardUrl,
      'Sold-out dispatch days and order requests (no alarms on it)',
    );
    for (const [name, outputName] of Object.entries(FUNCTION_OUTPUT_NAMES) as Array<
      [keyof typeof FUNCTION_OUTPUT_NAMES, string]
    >) {
      output(`${outputName}FunctionName`, this.functions[name].function.functionName);
      output(`${outputName}LogGroupName`, this.functions[name].logGroup.logGroupName);
    }
  }

  /**
   * The site, built from the same settings as the functions' environment, so its pages show the
   * seller, cut-off and key the Lambdas have. Only when this stack is bundled (`cdk synth`,
   * `cdk deploy`): a stack whose assets are skipped (`--exclusively` another stack) is not deployed,
   * and its template gets a placeholder page.
   */
  private buildSite(repoRoot: string, config: ShopConfig): string {
    const outdir = Stage.of(this)?.outdir;
    if (!this.bundlingRequired || outdir === undefined) return join(repoRoot, PLACEHOLDER_SITE_DIR);
    return buildSite({ repoRoot, outDir: join(outdir, `site-${config.stage}`), settings: config });
  }
}
