import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Stripe keys and webhook signing secrets live in Secrets Manager (deployed) or in the developer's
// environment (local): never in a file of the repository, where every clone and build would carry
// them. The template and the bundles are checked in test/infra; this looks at the source itself.

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Generated, installed or ignored by .gitignore: not part of the source. */
const SKIPPED = new Set([
  '.git',
  'node_modules',
  'dist',
  'cdk.out',
  '.local-data',
  'coverage',
  'test-results',
  'playwright-report',
  'reports',
  '.stryker-tmp',
  // The rehearsal's synth cache: another worker's synth writes and removes files in it meanwhile.
  '.cache',
  'dispatch',
]);
const BINARY = /\.(png|jpe?g|gif|ico|webp|woff2?)$/i;

/**
 * Real secret keys are `sk_live_`/`sk_test_` (restricted: `rk_`) and webhook secrets `whsec_`,
 * followed by a long random run. The placeholders the local stack uses (`sk_test_local_simulator`)
 * break the run with underscores, so they are not mistaken for keys.
 */
const STRIPE_SECRET = /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}|\bwhsec_[A-Za-z0-9+/=]{20,}/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.isFile() && !BINARY.test(entry.name) ? [path] : [];
  });
}

describe('no Stripe secret in the source', () => {
  it('recognises the shapes of real keys and secrets, and not the local placeholders', () => {
    const random = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4';
    for (const secret of [`sk_live_${random}`, `sk_test_${random}`, `rk_live_${random}`, `whsec_${random}`]) {
      expect(STRIPE_SECRET.test(`const key = '${secret}';`)).toBe(true);
    }
    for (const placeholder of [
      'sk_test_local_simulator',
      'whsec_local_simulator',
      'sk_live_...',
      'whsec_...',
    ]) {
      expect(STRIPE_SECRET.test(placeholder)).toBe(false);
    }
  });

  it('no Stripe key or webhook secret in code: no file of the repository holds one', () => {
    const files = sourceFiles(REPO_ROOT);
    expect(files.length).toBeGreaterThan(100);

    const holding = files.filter((path) => STRIPE_SECRET.test(readFileSync(path, 'utf8')));

    expect(holding.map((path) => relative(REPO_ROOT, path))).toEqual([]);
  });
});
