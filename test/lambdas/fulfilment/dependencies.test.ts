import { describe, expect, it } from 'vitest';
import { loadFulfilmentRuntime } from '../../../lambdas/fulfilment/dependencies';
import { ConfigError, fulfilmentEnvSchema, fulfilmentRuntimeEnvSchema } from '../../../lambdas/lib/config';

// The stack's settings (fulfilmentEnvSchema, held to the template by test/infra) plus the region
// the Lambda runtime sets: one place in lambdas/lib/config.ts, as docs/architecture.md says.
describe('loadFulfilmentRuntime', () => {
  const stackEnv = {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_config',
    ORDERS_TABLE_NAME: 'orders',
    SES_FROM_ADDRESS: 'orders@live-aquatics.test',
    MERCHANT_EMAIL: 'merchant@live-aquatics.test',
    SELLER_NAME: 'Live Aquatics Ltd',
    SELLER_ADDRESS: '1 Pond Lane, Bristol BS1 4DJ',
    SELLER_EMAIL: 'hello@live-aquatics.test',
    SHOP_ID: 'LiveAquatics-test',
  };

  it('fails at cold start naming AWS_REGION when the runtime did not set it', async () => {
    // Act
    const loading = loadFulfilmentRuntime(stackEnv);

    // Assess
    await expect(loading).rejects.toBeInstanceOf(ConfigError);
    await expect(loading).rejects.toThrow(/AWS_REGION/);
  });

  it('parses exactly the stack settings plus AWS_REGION', () => {
    expect(Object.keys(fulfilmentRuntimeEnvSchema.shape).sort()).toEqual(
      [...Object.keys(fulfilmentEnvSchema.shape), 'AWS_REGION'].sort(),
    );
  });

  it('reads the reconciler’s window in days, absent by default (10 then applies)', () => {
    const base = { ...stackEnv, AWS_REGION: 'eu-west-2' };
    expect(
      fulfilmentRuntimeEnvSchema.parse({ ...base, RECONCILE_LOOKBACK_DAYS: '14' }).RECONCILE_LOOKBACK_DAYS,
    ).toBe(14);
    expect(fulfilmentRuntimeEnvSchema.parse(base).RECONCILE_LOOKBACK_DAYS).toBeUndefined();
    expect(fulfilmentRuntimeEnvSchema.safeParse({ ...base, RECONCILE_LOOKBACK_DAYS: '2' }).success).toBe(
      false,
    );
  });
});
