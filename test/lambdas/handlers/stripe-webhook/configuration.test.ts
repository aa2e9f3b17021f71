import { describe, expect, it } from 'vitest';
import { loadWebhookDeps } from '../../../../lambdas/handlers/stripe-webhook/handler';
import { ConfigError } from '../../../../lambdas/lib/config';
import { FULFILMENT_ENV } from '../../../support/shop';

// The webhook never runs without its signing secret: verification is never skipped.
describe('stripe-webhook: configuration', () => {
  const env = FULFILMENT_ENV;

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
    expect(deps.fulfilment.siteUrl).toBe('https://shop.test');
    expect(deps.fulfilment.seller.shopName).toBe('Live Aquatics');
  });

  it('refuses to start without SITE_URL, where a failed debit’s email sends the customer, naming it', async () => {
    // Prepare
    const { SITE_URL: _unset, ...withoutSiteUrl } = env;

    // Act
    const loading = loadWebhookDeps({ ...withoutSiteUrl, STRIPE_WEBHOOK_SECRET: 'whsec_configured' });

    // Assess
    await expect(loading).rejects.toBeInstanceOf(ConfigError);
    await expect(loading).rejects.toThrow(/SITE_URL/);
  });

  it('takes the shop name every email is headed with from SHOP_NAME', async () => {
    // Act
    const deps = await loadWebhookDeps({
      ...env,
      SHOP_NAME: 'Daphnia Direct',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    });

    // Assess
    expect(deps.fulfilment.seller).toMatchObject({ shopName: 'Daphnia Direct', name: 'Live Aquatics Ltd' });
  });
});
