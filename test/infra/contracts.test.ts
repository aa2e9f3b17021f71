import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { VIEWER_ADDRESS_HEADER as STACK_VIEWER_ADDRESS_HEADER } from '../../infra/lib/constructs/origin-verify-gate';
import type { ShopStack } from '../../infra/lib/shop-stack';
import {
  adminEnvSchema,
  checkoutEnvSchema,
  fulfilmentEnvSchema,
  orderPageEnvSchema,
  shopStatusEnvSchema,
  statusEnvSchema,
} from '../../lambdas/lib/config';
import { VIEWER_ADDRESS_HEADER } from '../../lambdas/lib/http';
import { emitMetric, METRIC_NAMES } from '../../lambdas/lib/metrics';
import { IDEMPOTENCY_HEADER, PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { environmentOf, logicalIdOf, synthShop } from './support';

/*
 * infra knows the lambdas by entry path and imports only the domain's shared names (table keys,
 * metric names), never an entry (docs/architecture.md). These tests hold the two sides to the
 * same contract where no import does: what the stack sets is what the handlers parse, the
 * metrics the alarms watch are the ones the code emits, the routes are the ones the web app calls.
 */

/** Deploy-time values stand in for CloudFormation references in the synthesised environment. */
const DEPLOYED_VALUES: Readonly<Record<string, string>> = {
  STRIPE_SECRET_ID: 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:StripeCheckoutKey-AbCdEf',
  STRIPE_WEBHOOK_SECRET_ID:
    'arn:aws:secretsmanager:eu-west-2:123456789012:secret:StripeWebhookSigningSecret-AbCdEf',
  ORDERS_TABLE_NAME: 'LiveAquatics-dev-OrdersTable-ABC',
  SES_CONFIGURATION_SET: 'EmailConfigurationSet-ABC',
  SITE_URL: 'https://d111111abcdef8.cloudfront.net',
  ORDER_PAGE_SECRET_ID: 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:OrderPageSecret-AbCdEf',
  VAPID_SECRET_ID: 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:VapidKeys-AbCdEf',
  ADMIN_SIGN_IN_URL: 'https://liveaquatics-dev.auth.eu-west-2.amazoncognito.com',
  ADMIN_CLIENT_ID: '4example5client6id7',
  ADMIN_USER_POOL_ID: 'eu-west-2_AbCdEfGhI',
  ORIGIN_VERIFY_SECRET_ID: 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:OriginVerifySecret-AbCdEf',
  FORECAST_API_KEY_SECRET_ID: 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:OpenMeteoKey-AbCdEf',
};

/**
 * Set for the runtime and the secrets extension, not parsed by the handlers (the extension's port,
 * PARAMETERS_SECRETS_EXTENSION_HTTP_PORT, is parsed: the code calls it there).
 */
const RUNTIME_ONLY = new Set([
  'NODE_OPTIONS',
  'PARAMETERS_SECRETS_EXTENSION_CACHE_ENABLED',
  'PARAMETERS_SECRETS_EXTENSION_CACHE_SIZE',
  'PARAMETERS_SECRETS_EXTENSION_LOG_LEVEL',
  'PARAMETERS_SECRETS_EXTENSION_MAX_CONNECTIONS',
  'SECRETS_MANAGER_TIMEOUT_MILLIS',
  'SECRETS_MANAGER_TTL',
  'SSM_PARAMETER_STORE_TIMEOUT_MILLIS',
  'SSM_PARAMETER_STORE_TTL',
]);

describe('contracts between infra and the lambdas', () => {
  let stack: ShopStack;
  let template: Template;

  beforeAll(() => {
    ({ stack, template } = synthShop({ publicApiKey: 'pk_public_example' }));
  });

  function deployedEnvironment(name: keyof ShopStack['functions']): Record<string, string> {
    const variables = environmentOf(template, stack.functions[name]);
    return Object.fromEntries(
      Object.entries(variables).map(([key, value]) => {
        if (typeof value === 'string') return [key, value];
        const deployed = DEPLOYED_VALUES[key];
        if (deployed === undefined) throw new Error(`${name}: ${key} is a reference with no stand-in value`);
        return [key, deployed];
      }),
    );
  }

  it.each([
    ['createCheckout', checkoutEnvSchema],
    ['checkoutStatus', statusEnvSchema],
    ['stripeWebhook', fulfilmentEnvSchema],
    ['reconcileOrders', fulfilmentEnvSchema],
    ['shopStatus', shopStatusEnvSchema],
    ['orderPage', orderPageEnvSchema],
  ] as const)('sets for %s exactly the variables its handler parses', (name, schema: z.ZodMiniObject) => {
    const env = deployedEnvironment(name);

    expect(() => schema.parse(env)).not.toThrow();
    const parsed = Object.keys(schema.shape);
    expect(Object.keys(env).filter((key) => !RUNTIME_ONLY.has(key) && !parsed.includes(key))).toEqual([]);
  });

  it('runs every function with the secrets extension on the port the code calls', () => {
    for (const name of [
      'createCheckout',
      'checkoutStatus',
      'stripeWebhook',
      'reconcileOrders',
      'orderPage',
    ] as const) {
      const env = deployedEnvironment(name);
      const port =
        name === 'orderPage'
          ? orderPageEnvSchema.parse(env).PARAMETERS_SECRETS_EXTENSION_HTTP_PORT
          : statusEnvSchema.parse({ ...env, STRIPE_LIVEMODE: 'false' })
              .PARAMETERS_SECRETS_EXTENSION_HTTP_PORT;
      expect(port).toBe(2773);
      const fn = template.toJSON().Resources[logicalIdOf(stack.functions[name].function)].Properties;
      expect(fn.Layers).toEqual([
        'arn:aws:lambda:eu-west-2:133256977650:layer:AWS-Parameters-and-Secrets-Lambda-Extension-Arm64:4',
      ]);
    }
  });

  it("gives the admin API the order page's secret its handler parses, for the links of its emails", () => {
    const env = deployedEnvironment('adminApi');
    expect(adminEnvSchema.parse(env).ORDER_PAGE_SECRET_ID).toBe(
      'arn:aws:secretsmanager:eu-west-2:123456789012:secret:OrderPageSecret-AbCdEf',
    );
  });

  it('emits the metrics the alarms watch, with the namespace and dimensions they watch', () => {
    const lines: string[] = [];
    emitMetric((line) => lines.push(line), METRIC_NAMES.reconcilerFulfilledMissedOrders, 2);
    const emf = JSON.parse(lines[0] ?? '{}');
    expect(emf._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'LiveAquatics',
      Dimensions: [['service']],
      Metrics: [{ Name: 'ReconcilerFulfilledMissedOrders' }],
    });
    expect(emf.service).toBe('live-aquatics-shop');
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'LiveAquatics',
      MetricName: 'ReconcilerFulfilledMissedOrders',
      Dimensions: [{ Name: 'service', Value: 'live-aquatics-shop' }],
    });
  });

  it('routes every path of the public table, the ones the web app calls, with its method', () => {
    const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route'))
      .map((route) => String(route.Properties.RouteKey))
      .filter((key) => !key.includes('/admin/'));
    expect(routeKeys).toEqual(
      Object.values(PUBLIC_API_ROUTES).map(({ method, path }) => `${method} ${path}`),
    );
  });

  it("forwards what the handlers read: every viewer header but Host (AWS's AllViewerExceptHostHeader), and CloudFront's viewer address", () => {
    const distribution = template.toJSON().Resources[logicalIdOf(stack.website.distribution)];
    const api = distribution.Properties.DistributionConfig.CacheBehaviors[0];

    expect(api.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
    // The page's idempotency key and the public key's Authorization are viewer headers, not Host.
    expect([IDEMPOTENCY_HEADER.toLowerCase(), 'authorization']).not.toContain('host');
    // One of CloudFront's own headers, which the managed policy adds: the viewer's address, which
    // the handlers read and the authorizer's identity sources name.
    expect([VIEWER_ADDRESS_HEADER, STACK_VIEWER_ADDRESS_HEADER]).toEqual([
      'cloudfront-viewer-address',
      'cloudfront-viewer-address',
    ]);
  });
});
