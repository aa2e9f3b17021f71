import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShopDataStack } from '../../infra/lib/data-stack';
import { REPO_ROOT } from '../../infra/lib/paths';
import { createShopApp } from '../../infra/lib/shop-app';
import type { ShopStack } from '../../infra/lib/shop-stack';
import {
  cdkJsonContext,
  environmentOf,
  fromDataStack,
  logicalIdOf,
  SKIP_BUNDLING,
  synthShop,
  tempDir,
} from './support';

/** What Stripe secrets look like: none of these may appear anywhere in the template. */
const STRIPE_SECRET_PATTERNS = [/sk_(live|test)_/, /rk_(live|test)_/, /whsec_/];

describe('ShopStack', () => {
  let stack: ShopStack;
  let data: ShopDataStack;
  let template: Template;
  let dataTemplate: Template;

  beforeAll(() => {
    ({ stack, data, template, dataTemplate } = synthShop());
  }, 120_000);

  it('is named after its stage, beside its data stack', () => {
    expect(stack.stackName).toBe('LiveAquatics-dev');
    expect(data.stackName).toBe('LiveAquatics-dev-Data');
  });

  describe('Stripe secrets', () => {
    it('are three Secrets Manager secrets in the data stack, created with a random placeholder and no value', () => {
      // The app stack's one secret is CloudFront's origin-verify value, which holds no Stripe data.
      template.resourceCountIs('AWS::SecretsManager::Secret', 1);
      template.hasResourceProperties('AWS::SecretsManager::Secret', {
        Description: Match.stringLikeRegexp('the value CloudFront sends in x-origin-verify'),
      });
      // The fourth is Open-Meteo's key (test/infra/weather-notice.test.ts).
      dataTemplate.resourceCountIs('AWS::SecretsManager::Secret', 4);
      for (const [key, readers] of [
        ['stripeSecretKey', 'create-checkout, checkout-status'],
        ['stripeSecretKey', 'stripe-webhook, reconcile-orders, admin-api'],
        ['stripeWebhookSecret', 'stripe-webhook;'],
      ]) {
        dataTemplate.hasResourceProperties('AWS::SecretsManager::Secret', {
          SecretString: Match.absent(),
          GenerateSecretString: Match.objectLike({ PasswordLength: 32 }),
          Description: Match.stringLikeRegexp(
            `\\{"${key}": .*read by ${readers}.* set by npm run setup -- --stage dev \\(docs/deploy\\.md\\)$`,
          ),
        });
      }
    });

    it('are kept when the stack is deleted, but not when its first create fails', () => {
      const secrets = Object.values(dataTemplate.findResources('AWS::SecretsManager::Secret'));
      expect(secrets.map((s) => [s.DeletionPolicy, s.UpdateReplacePolicy])).toEqual([
        ['RetainExceptOnCreate', 'Retain'],
        ['RetainExceptOnCreate', 'Retain'],
        ['RetainExceptOnCreate', 'Retain'],
        ['RetainExceptOnCreate', 'Retain'],
      ]);
    });

    it('no Stripe key or webhook secret in plain environment variables: functions know them by ARN only, each the key of its trust level', () => {
      const secretRef = (name: keyof ShopDataStack['stripeSecrets']['secrets']) =>
        fromDataStack(data, { Ref: logicalIdOf(data.stripeSecrets.secrets[name]) });
      const expected = {
        createCheckout: { STRIPE_SECRET_ID: secretRef('checkoutKey') },
        checkoutStatus: { STRIPE_SECRET_ID: secretRef('checkoutKey') },
        stripeWebhook: {
          STRIPE_SECRET_ID: secretRef('fulfilmentKey'),
          STRIPE_WEBHOOK_SECRET_ID: secretRef('webhookSigningSecret'),
        },
        reconcileOrders: { STRIPE_SECRET_ID: secretRef('fulfilmentKey') },
      } as const;
      // shop-status reads the settings item and the capacity days only: no Stripe at all.
      expect(Object.keys(environmentOf(template, stack.functions.shopStatus))).toEqual([
        'ORDERS_TABLE_NAME',
        'DISPATCH_CUTOFF_HOURS',
      ]);
      for (const [name, ids] of Object.entries(expected)) {
        const variables = environmentOf(template, stack.functions[name as keyof typeof expected]);
        expect(variables, name).toMatchObject(ids);
        expect(
          Object.keys(variables)
            .filter((k) => k.startsWith('STRIPE_') && k.endsWith('_ID'))
            .sort(),
        ).toEqual(Object.keys(ids).sort());
        expect(Object.keys(variables)).not.toContain('STRIPE_SECRET_KEY');
        expect(Object.keys(variables)).not.toContain('STRIPE_WEBHOOK_SECRET');
      }
    });

    it('no Stripe key or webhook secret in the template: none appears in either template as a value', () => {
      const text = JSON.stringify([template.toJSON(), dataTemplate.toJSON()]);
      for (const pattern of STRIPE_SECRET_PATTERNS) {
        expect(text).not.toMatch(pattern);
      }
    });
  });

  it('gives every function that calls Stripe the Stripe mode from config, so events of the other mode are rejected', () => {
    const { shopStatus: _noStripe, weatherNotice: _forecastOnly, ...stripeFunctions } = stack.functions;
    for (const shopFunction of Object.values(stripeFunctions)) {
      const variables = environmentOf(template, shopFunction);
      expect(variables.STRIPE_LIVEMODE).toBe('false');
    }
  });

  it('builds success and cancel URLs from the site URL in config, never from the request', () => {
    const variables = environmentOf(template, stack.functions.createCheckout);
    expect(variables.SITE_URL).toEqual({
      'Fn::Join': [
        '',
        ['https://', { 'Fn::GetAtt': [logicalIdOf(stack.website.distribution), 'DomainName'] }],
      ],
    });
  });

  it('outputs under stable keys what the operator and the ops CLI read', () => {
    const outputs = template.toJSON().Outputs;
    expect(Object.keys(outputs).sort()).toEqual(
      [
        'SiteUrl',
        'ApiUrl',
        'ApiOriginUrl',
        'StripeWebhookUrl',
        'OrdersTableName',
        'AlarmTopicArn',
        'DistributionId',
        'DistributionDomainName',
        'ApiAccessLogGroupName',
        'StripeSecretName',
        'CreateCheckoutFunctionName',
        'CreateCheckoutLogGroupName',
        'CheckoutStatusFunctionName',
        'CheckoutStatusLogGroupName',
        'StripeWebhookFunctionName',
        'StripeWebhookLogGroupName',
        'ReconcileOrdersFunctionName',
        'ReconcileOrdersLogGroupName',
        'ShopStatusFunctionName',
        'ShopStatusLogGroupName',
        'AdminApiFunctionName',
        'AdminApiLogGroupName',
        'WeatherNoticeFunctionName',
        'WeatherNoticeLogGroupName',
        'AdminUserPoolId',
        'AdminClientId',
        'AdminSignInUrl',
        'DashboardUrl',
      ].sort(),
    );
    expect(outputs.CreateCheckoutFunctionName.Value).toEqual({
      Ref: logicalIdOf(stack.functions.createCheckout.function),
    });
    expect(outputs.ReconcileOrdersLogGroupName.Value).toEqual({
      Ref: logicalIdOf(stack.functions.reconcileOrders.logGroup),
    });
    expect(outputs.ApiUrl.Value).toEqual({
      'Fn::Join': [
        '',
        [
          'https://',
          { 'Fn::GetAtt': [logicalIdOf(stack.website.distribution), 'DomainName'] },
          '/functions/v1',
        ],
      ],
    });
    expect(outputs.ApiOriginUrl.Value).toEqual({
      'Fn::Join': [
        '',
        [
          'https://',
          { Ref: logicalIdOf(stack.api.httpApi) },
          '.execute-api.eu-west-2.',
          { Ref: 'AWS::URLSuffix' },
        ],
      ],
    });
    expect(Object.keys(dataTemplate.toJSON().Outputs)).toEqual(
      expect.arrayContaining([
        'StripeCheckoutKeySecretName',
        'StripeFulfilmentKeySecretName',
        'StripeWebhookSigningSecretName',
        'OrdersTableName',
        'AlarmTopicArn',
      ]),
    );
    expect(outputs.StripeWebhookUrl.Value).toEqual({
      'Fn::Join': [
        '',
        [
          'https://',
          { 'Fn::GetAtt': [logicalIdOf(stack.website.distribution), 'DomainName'] },
          '/functions/v1/stripe-webhook',
        ],
      ],
    });
    expect(outputs.OrdersTableName.Value).toEqual(
      fromDataStack(data, { Ref: logicalIdOf(data.orders.table) }),
    );
    expect(outputs.AlarmTopicArn.Value).toEqual(fromDataStack(data, { Ref: logicalIdOf(data.alarms.topic) }));
  });

  it('builds no site when the stack is not bundled (so not deployed): its template has a placeholder page', () => {
    const { stack: unbundled } = createShopApp({
      context: { ...cdkJsonContext(), ...SKIP_BUNDLING },
      outdir: tempDir('shop-cdk-out-'),
      processEnv: {},
    });

    expect(unbundled.siteDir).toBe(join(REPO_ROOT, 'infra/placeholder-web'));
    Template.fromStack(unbundled).hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: Match.stringLikeRegexp(
        'var ROOT_FILES = \\{"/admin-config.json":true,"/index.html":true\\};',
      ),
    });
  });
});
