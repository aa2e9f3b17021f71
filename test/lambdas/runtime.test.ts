import { describe, expect, it } from 'vitest';
import { ConfigError, fulfilmentEnvSchema, fulfilmentRuntimeEnvSchema } from '../../lambdas/lib/config';
import { loadFulfilmentRuntime } from '../../lambdas/runtime';
import { FULFILMENT_ENV } from '../support/shop';

// The stack's settings (fulfilmentEnvSchema, held to the template by test/infra) plus the region
// the Lambda runtime sets: one place in lambdas/lib/config.ts, as docs/architecture.md says.
describe('loadFulfilmentRuntime', () => {
  // The stack's settings without the region, which only the runtime sets.
  const { AWS_REGION: _runtimeRegion, ...stackEnv } = FULFILMENT_ENV;

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
