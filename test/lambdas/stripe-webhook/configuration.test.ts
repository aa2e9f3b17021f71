import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../lambdas/lib/config';
import { loadWebhookDeps } from '../../../lambdas/stripe-webhook/handler';

// The webhook never runs without its signing secret: verification is never skipped.
describe('stripe-webhook: configuration', () => {
  const env = {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_config',
    ORDERS_TABLE_NAME: 'orders',
    SES_FROM_ADDRESS: 'orders@live-aquatics.test',
    MERCHANT_EMAIL: 'merchant@live-aquatics.test',
    SELLER_NAME: 'Live Aquatics Ltd',
    SELLER_ADDRESS: '1 Pond Lane, Bristol BS1 4DJ',
    SELLER_EMAIL: 'hello@live-aquatics.test',
    SHOP_ID: 'LiveAquatics-test',
    AWS_REGION: 'eu-west-2',
  };

  it.each([
    ['absent', {}],
    ['empty', { STRIPE_WEBHOOK_SECRET: '' }],
  ])('refuses to start when the signing secret is %s, naming it', async (_case, secret) => {
    // Act
    const loading = loadWebhookDeps({ ...env, ...secret });

    // Assess
    await expect(loading).rejects.toBeInstanceOf(ConfigError);
    await expect(loading).rejects.toThrow(
      'STRIPE_WEBHOOK_SECRET_ID (deployed) or STRIPE_WEBHOOK_SECRET (local): required by the webhook',
    );
  });

  it('starts with the secret, the mode and the deployment marker it was given', async () => {
    // Act
    const deps = await loadWebhookDeps({ ...env, STRIPE_WEBHOOK_SECRET: 'whsec_configured' });

    // Assess
    expect(deps.webhookSecret).toBe('whsec_configured');
    expect(deps.livemode).toBe(false);
    expect(deps.fulfilment.shopId).toBe('LiveAquatics-test');
  });
});
