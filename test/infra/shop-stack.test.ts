import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { STRIPE_SECRET_JSON_KEYS } from '../../infra/lib/constructs/secrets';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { environmentOf, fakeWebBuild, logicalIdOf, synthShop } from './support';

/** What Stripe secrets look like: none of these may appear anywhere in the template. */
const STRIPE_SECRET_PATTERNS = [/sk_(live|test)_/, /rk_(live|test)_/, /whsec_/];

describe('ShopStack', () => {
  let stack: ShopStack;
  let template: Template;

  beforeAll(() => {
    ({ stack, template } = synthShop({ webBuildDir: fakeWebBuild() }));
  });

  it('is named after its stage', () => {
    expect(stack.stackName).toBe('LiveAquatics-dev');
  });

  describe('Stripe secret', () => {
    it('is one Secrets Manager secret, created with a random placeholder and no value in the template', () => {
      template.resourceCountIs('AWS::SecretsManager::Secret', 1);
      template.hasResourceProperties('AWS::SecretsManager::Secret', {
        SecretString: Match.absent(),
        GenerateSecretString: Match.objectLike({ PasswordLength: 32 }),
        Description: Match.stringLikeRegexp(STRIPE_SECRET_JSON_KEYS.join('", "')),
      });
      template.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
    });

    it('is known to the functions by id only: no key or webhook secret in any environment', () => {
      const secretRef = { Ref: logicalIdOf(stack.stripeSecret.secret) };
      for (const shopFunction of Object.values(stack.functions)) {
        const variables = environmentOf(template, shopFunction);
        expect(variables.STRIPE_SECRET_ID).toEqual(secretRef);
        expect(Object.keys(variables)).not.toContain('STRIPE_SECRET_KEY');
        expect(Object.keys(variables)).not.toContain('STRIPE_WEBHOOK_SECRET');
      }
    });

    it('appears nowhere in the template as a value', () => {
      const text = JSON.stringify(template.toJSON());
      for (const pattern of STRIPE_SECRET_PATTERNS) {
        expect(text).not.toMatch(pattern);
      }
    });
  });

  it('gives every function the Stripe mode from config, so events of the other mode are rejected', () => {
    for (const shopFunction of Object.values(stack.functions)) {
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

  it('outputs what the operator needs: site URL, webhook URL, secret name, table, alarm topic', () => {
    const outputs = template.toJSON().Outputs;
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining([
        'SiteUrl',
        'StripeWebhookUrl',
        'StripeSecretName',
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
    expect(outputs.OrdersTableName.Value).toEqual({ Ref: logicalIdOf(stack.orders.table) });
    expect(outputs.AlarmTopicArn.Value).toEqual({ Ref: logicalIdOf(stack.monitoring.topic) });
  });

  it('synthesises without a web build, deploying a placeholder page and saying so', () => {
    const placeholder = synthShop({ webBuildDir: 'does/not/exist' });

    Annotations.fromStack(placeholder.stack).hasWarning('*', Match.stringLikeRegexp('Run npm run build:web'));
    placeholder.template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: Match.stringLikeRegexp('var ROOT_FILES = \\{"/index.html":true\\};'),
    });
  });
});
