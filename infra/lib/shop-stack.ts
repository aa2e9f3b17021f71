import { join } from 'node:path';
import { Aws, CfnOutput, Stack, type StackProps, Stage, Tags } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { Construct } from 'constructs';
import { PACKING_SLIPS_STYLE } from '../../lambdas/domain/fulfilment/dispatch-files';
import { ADMIN_CONFIG_PATH, type AdminConfig } from '../../shared/admin-config';
import { PUBLIC_API_ROOT, PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { APP_OUTPUT_KEYS } from '../../shared/stack-outputs';
import { PLACEHOLDER_STAGES } from '../../shared/stage-config';
import type { ShopConfig } from './config';
import { CheckoutApi, routeKeyOf } from './constructs/checkout-api';
import { MerchantAdmin, managedLoginUrl } from './constructs/merchant-admin';
import { ShopMonitoring } from './constructs/monitoring';
import { ORIGIN_VERIFY_HEADER, OriginVerifyGate } from './constructs/origin-verify-gate';
import type { ShopFunction } from './constructs/shop-function';
import { type ShopFunctionSet, ShopFunctions } from './constructs/shop-functions';
import { Website } from './constructs/website';
import type { ShopDataStack } from './data-stack';
import { buildSite } from './site-build';

/** The site in a template synthesised without bundling (nothing of that stack is deployed then). */
export const PLACEHOLDER_SITE_DIR = 'infra/placeholder-web';

export interface ShopStackProps extends StackProps {
  /** Validated settings (see config.ts). */
  readonly config: ShopConfig;
  /** Repository root, for the Lambda entries and the web build. */
  readonly repoRoot: string;
  /** A site already built, deployed as it is (tests). @default the site built with `config` when bundled */
  readonly siteDir?: string;
  /** The stage's stateful stack: table, secrets, SES, alarm topic. */
  readonly data: ShopDataStack;
  /** The us-east-1 WAF web ACL for the distribution (a cross-region reference). @default none */
  readonly webAclArn?: string;
}

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
 * The application stack: website and API behind one CloudFront distribution, the functions, the
 * alarms. All of it can be recreated; state lives in {@link ShopDataStack}.
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
  readonly functions: ShopFunctionSet;

  constructor(scope: Construct, id: string, props: ShopStackProps) {
    super(scope, id, props);
    const { config, repoRoot, data } = props;
    this.data = data;
    Tags.of(this).add('project', 'live-aquatics');
    Tags.of(this).add('stage', config.stage);

    this.monitoring = new ShopMonitoring(this, 'Monitoring', {
      topic: data.alarms.topic,
      dashboardName: `live-aquatics-shop-${config.stage}`,
    });
    // 'Default' is left out of logical IDs (CDK), so the functions keep the IDs they had as the
    // stack's children: new ones would replace every function and leave its logs behind.
    const shopFunctions = new ShopFunctions(this, 'Default', { config, repoRoot, ...data });
    this.functions = shopFunctions.functions;
    const gate = new OriginVerifyGate(this, 'OriginVerify', { repoRoot, stage: config.stage });
    this.originVerifier = gate.verifier;

    const domain =
      config.domainName !== undefined && config.certificateArn !== undefined
        ? {
            domainName: config.domainName,
            certificate: Certificate.fromCertificateArn(this, 'Certificate', config.certificateArn),
            hostedZone: data.hostedZone,
          }
        : undefined;
    const { createCheckout, checkoutStatus, stripeWebhook, shopStatus, orderPage, adminApi } = this.functions;
    this.api = new CheckoutApi(this, 'Api', {
      apiName: `LiveAquatics-${config.stage}`,
      authorizer: gate.authorizer,
      handlers: {
        createCheckout: createCheckout.function,
        checkoutStatus: checkoutStatus.function,
        stripeWebhook: stripeWebhook.function,
        shopStatus: shopStatus.function,
        orderPage: orderPage.function,
        orderPageAddress: orderPage.function,
        orderPageStandingOrder: orderPage.function,
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
      apiOriginHeader: { name: ORIGIN_VERIFY_HEADER, value: gate.secret.secretValue.unsafeUnwrap() },
      webAclArn: props.webAclArn,
      domain,
      // The admin page fetches its tokens from managed login, whose name is known before the pool is.
      connectOrigins: [managedLoginUrl(adminDomainPrefix, this.region)],
      deployTimeFiles: [ADMIN_CONFIG_PATH],
      // The admin page opens the day's packing slips from a blob, under the page's own policy.
      openedDocumentStyles: [PACKING_SLIPS_STYLE],
    });
    shopFunctions.addSiteUrl(this.website.siteUrl);
    // The admin routes carry the JWT authorizer instead of origin-verify: the Lambda checks the header.
    adminApi.function.addEnvironment('ORIGIN_VERIFY_SECRET_ID', gate.secret.secretArn);
    gate.secret.grantRead(adminApi);
    this.admin = this.addMerchantAdmin(config, adminDomainPrefix);
    this.monitor(config);
    this.addOutputs();
  }

  /** The merchants' sign-in and the admin routes, and the admin page's settings beside the site. */
  private addMerchantAdmin(config: ShopConfig, domainPrefix: string): MerchantAdmin {
    const admin = new MerchantAdmin(this, 'MerchantAdmin', {
      httpApi: this.api.httpApi,
      handler: this.functions.adminApi.function,
      siteUrl: this.website.siteUrl,
      requireMfa: !PLACEHOLDER_STAGES.includes(config.stage),
      domainPrefix,
      tableArn: this.data.orders.table.tableArn,
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
      signInUrl: admin.domain.baseUrl(),
      clientId: admin.client.userPoolClientId,
    } satisfies AdminConfig;
    this.website.deployJsonFile('DeployAdminConfig', ADMIN_CONFIG_PATH, adminConfig);
    return admin;
  }

  private monitor(config: ShopConfig): void {
    const { stripeWebhook, reconcileOrders } = this.functions;
    // Errors and throttles of every function but the weather notice, as the stack has always had them.
    const { weatherNotice: _, ...monitored } = FUNCTION_OUTPUT_NAMES;
    for (const [name, alarmName] of Object.entries(monitored) as Array<[keyof typeof monitored, string]>) {
      this.monitoring.monitorFunction(alarmName, this.functions[name].function);
    }
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
  }

  /** The outputs named by {@link APP_OUTPUT_KEYS} and {@link FUNCTION_OUTPUT_NAMES}. */
  private addOutputs(): void {
    const output = (key: string, value: string, description?: string) =>
      new CfnOutput(this, key, { value, description });
    const { siteUrl, distribution } = this.website;
    output(APP_OUTPUT_KEYS.siteUrl, siteUrl, 'The shop');
    output(
      APP_OUTPUT_KEYS.apiUrl,
      `${siteUrl}${PUBLIC_API_ROOT}`,
      'The API, through CloudFront (the only way in)',
    );
    output(
      APP_OUTPUT_KEYS.apiOriginUrl,
      `https://${this.api.originDomainName}`,
      'The API behind CloudFront: it refuses (401 or 403) anything that did not come through CloudFront',
    );
    output(
      APP_OUTPUT_KEYS.stripeWebhookUrl,
      `${siteUrl}${PUBLIC_API_ROUTES.stripeWebhook.path}`,
      'npm run setup registers it in Stripe for the events the webhook handles',
    );
    output(
      APP_OUTPUT_KEYS.ordersTableName,
      this.data.orders.table.tableName,
      'The orders table (in the data stack)',
    );
    output(
      APP_OUTPUT_KEYS.alarmTopicArn,
      this.data.alarms.topic.topicArn,
      'Alarms; confirm the email subscription',
    );
    output(APP_OUTPUT_KEYS.distributionId, distribution.distributionId);
    output(
      APP_OUTPUT_KEYS.distributionDomainName,
      distribution.distributionDomainName,
      'Point a custom domain here (CNAME or alias) if the stack does not manage its DNS',
    );
    output(
      APP_OUTPUT_KEYS.apiAccessLogGroupName,
      this.api.accessLogs.logGroupName,
      'API access log (one JSON line per request)',
    );
    output(
      APP_OUTPUT_KEYS.stripeSecretName,
      this.data.stripeSecrets.secrets.fulfilmentKey.secretName,
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
   * The site built from the functions' settings, so pages and Lambdas agree. Only when this stack is
   * bundled: a stack whose assets are skipped is not deployed and gets a placeholder page.
   */
  private buildSite(repoRoot: string, config: ShopConfig): string {
    const outdir = Stage.of(this)?.outdir;
    if (!this.bundlingRequired || outdir === undefined) return join(repoRoot, PLACEHOLDER_SITE_DIR);
    return buildSite({ repoRoot, outDir: join(outdir, `site-${config.stage}`), settings: config });
  }
}
