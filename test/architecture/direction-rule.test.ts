import { afterEach, describe, expect, it } from 'vitest';
import {
  BIOME,
  biomeCheck,
  importing,
  lint,
  npmRunLint,
  REPO_ROOT,
  removeCopies,
} from '../support/lint-probe';

/*
 * The direction rule (web → shared ← lambdas; infra knows the lambdas by entry path; local wraps
 * them; ops uses shared only, the admin API for the rest) is enforced by Biome's noRestrictedImports in biome.json.
 * These tests run the repository's own `npm run lint` on a temporary copy of its configuration
 * holding one probe file, so nothing is written into the working tree.
 */

afterEach(removeCopies);

describe('the direction rule in npm run lint', () => {
  it('fails on a file in web/ that imports from lambdas/, naming the rule', async () => {
    const result = await npmRunLint({
      'web/src/features/order/probe.ts': importing('../../../../lambdas/lib/logger'),
    });

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain('lint/style/noRestrictedImports');
    expect(result.output).toContain('Direction rule: web/ imports only web/ and shared/');
  });

  it('fails on a file in shared/ that imports from web/, naming the rule', async () => {
    const result = await npmRunLint({ 'shared/probe.ts': importing('../web/src/config') });

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain('lint/style/noRestrictedImports');
    expect(result.output).toContain('Direction rule: shared/ imports none of our other folders');
  });

  it.each([
    ['shared/probe.ts', 'node:fs', 'Direction rule: shared/ runs in the browser and in the lambdas'],
    [
      'lambdas/lib/probe.ts',
      '../../web/src/config',
      'Direction rule: lambdas/ import only lambdas/ and shared/',
    ],
    [
      'lambdas/lib/probe.ts',
      '../../local/orders-table',
      'Direction rule: lambdas/ import only lambdas/ and shared/',
    ],
    [
      'infra/lib/probe.ts',
      '../../lambdas/lib/logger',
      'Direction rule: infra/ imports of lambdas/ only the domain',
    ],
    ['infra/lib/probe.ts', '../../local/orders-table', 'Direction rule: infra/ imports only infra/, shared/'],
    // biome.json's layer overrides replace the folder's options, so each repeats the direction rule.
    ['web/src/lib/probe.ts', '../../../ops/cli', 'Direction rule: web/ imports only web/ and shared/'],
    [
      'lambdas/handlers/create-checkout/probe.ts',
      '../../../web/src/config',
      'Direction rule: lambdas/ import only lambdas/ and shared/',
    ],
    [
      'lambdas/domain/storage/probe.ts',
      '../../../local/orders-table',
      'Direction rule: lambdas/ import only lambdas/ and shared/',
    ],
    ['local/probe.ts', '../infra/lib/paths', 'Direction rule: local/ wraps lambdas/ and web/'],
    ['ops/probe.ts', '../web/src/config', 'Direction rule: ops/ imports only ops/ and shared/'],
    // The merchant's commands go through the admin API: ops/ reaches nothing inside lambdas/ but
    // setup's bootstrap of the shop's mode (settings-store on lib/aws's client, ADR 0051).
    ['ops/probe.ts', '../lambdas/lib/stripe', 'Direction rule: ops/ imports only ops/ and shared/'],
    [
      'ops/probe.ts',
      '../lambdas/domain/operations/order-actions',
      'Direction rule: ops/ imports only ops/ and shared/',
    ],
  ])('fails on %s importing %s', async (path, specifier, message) => {
    const result = await biomeCheck({ [path]: importing(specifier) });

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain(message);
  });

  it.each([
    ['web/src/features/order/probe.ts', '../../../../shared/pricing'],
    ['lambdas/lib/probe.ts', '../../shared/pricing'],
    ['infra/lib/probe.ts', '../../lambdas/lib/config'],
    ['infra/lib/probe.ts', '../../lambdas/lib/metrics'],
    ['infra/lib/probe.ts', '../../lambdas/domain/storage/orders-table'],
    ['local/probe.ts', '../lambdas/handlers/create-checkout/handler'],
    ['ops/probe.ts', '../shared/admin-responses'],
  ])('passes %s importing %s', async (path, specifier) => {
    const result = await biomeCheck({ [path]: importing(specifier) });

    expect(result.output).not.toContain('Direction rule');
    expect(result.exitCode).toBe(0);
  });

  it('passes on the repository as it is', async () => {
    const result = await lint(BIOME, ['lint', '--only=style/noRestrictedImports', '.'], REPO_ROOT);

    expect(result.output).not.toContain('Direction rule');
    expect(result.exitCode).toBe(0);
  });
});
