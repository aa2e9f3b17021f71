import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BIOME,
  biomeDiagnostics,
  type Diagnostic,
  importing,
  lint,
  npmRunLint,
  REPO_ROOT,
  removeCopies,
} from '../support/lint-probe';

/*
 * The layer rules (inside lambdas/: entry → domain → lib; what local/ and infra/ may take of
 * an entry; web features through each other's public.ts) and no import cycles, enforced by
 * biome.json (noRestrictedImports overrides, noImportCycles). One `biome check` over a temporary
 * copy of the lint setup holding every probe file answers for all of them; `npm run lint` itself
 * is run once per kind of rule.
 */

const ENTRY = 'Layer rule: an entry (lambdas/handlers/<fn>/) imports its own folder, lambdas/domain/';
const DOMAIN =
  'Layer rule: lambdas/domain/ imports lambdas/domain/, lambdas/lib/ and shared/, never an entry';
const LIB = 'Layer rule: lambdas/lib/ is the bottom layer';
const FEATURE = 'Layer rule: a web feature imports another feature only through its public module';
const WEB_APP =
  'Layer rule: web/src runs one way, app/ → features/ → components/ and lib/: a feature never imports app/';
const WEB_COMPONENTS =
  'Layer rule: web/src runs one way, app/ → features/ → components/ and lib/: components/ imports neither a feature nor app/';
const WEB_LIB =
  'Layer rule: web/src runs one way, app/ → features/ → components/ and lib/: lib/ is the bottom';
const INFRA = 'Layer rule: infra/ knows an entry (lambdas/handlers/<fn>/handler.ts) by its path string';
const LOCAL = 'Layer rule: local/ wraps an entry by its handler module';

const FAILS: [path: string, specifier: string, message: string][] = [
  ['lambdas/handlers/probe-fn/imports-entry.ts', '../create-checkout/handler', ENTRY],
  ['lambdas/handlers/probe-fn/imports-entry-file.ts', '../stripe-webhook/verify', ENTRY],
  ['lambdas/handlers/probe-fn/imports-entry-by-layer.ts', '../../handlers/create-checkout/handler', ENTRY],
  ['lambdas/domain/storage/imports-entry.ts', '../../handlers/create-checkout/handler', DOMAIN],
  ['lambdas/domain/imports-entry.ts', '../handlers/create-checkout/handler', DOMAIN],
  ['lambdas/lib/imports-entry.ts', '../handlers/create-checkout/handler', LIB],
  ['lambdas/lib/imports-domain.ts', '../domain/storage/order', LIB],
  ['web/src/features/order/imports-policies.ts', '../policies/seller', FEATURE],
  ['web/src/features/success/components/imports-order.ts', '../../order/order-memory', FEATURE],
  ['web/src/features/success/imports-app.ts', '../../app/routes', WEB_APP],
  ['web/src/features/order-status/components/imports-app.ts', '../../../app/pages', WEB_APP],
  ['web/src/components/layout/imports-feature.ts', '../../features/policies/policy-page', WEB_COMPONENTS],
  ['web/src/components/layout/imports-public.ts', '../../features/order/public', WEB_COMPONENTS],
  ['web/src/components/ui/imports-app.ts', '../../app/root-layout', WEB_COMPONENTS],
  ['web/src/lib/imports-component.ts', '../components/ui/icons', WEB_LIB],
  ['web/src/lib/imports-feature.ts', '../features/order/public', WEB_LIB],
  ['web/src/lib/imports-app.ts', '../app/paths', WEB_LIB],
  ['infra/lib/imports-entry.ts', '../../lambdas/handlers/create-checkout/handler', INFRA],
  ['local/imports-entry-file.ts', '../lambdas/handlers/create-checkout/session-params', LOCAL],
];

const PASSES: [path: string, specifier: string][] = [
  ['lambdas/handlers/probe-fn/own-folder.ts', './handler'],
  ['lambdas/handlers/probe-fn/domain.ts', '../../domain/checkout/create-checkout-session'],
  ['lambdas/handlers/probe-fn/lib.ts', '../../lib/http'],
  ['lambdas/handlers/probe-fn/shared.ts', '../../../shared/pricing'],
  ['lambdas/domain/storage/domain.ts', '../checkout/order-metadata'],
  ['lambdas/domain/storage/lib.ts', '../../lib/logger'],
  ['lambdas/lib/lib.ts', './logger'],
  ['web/src/features/order/uses-policies.ts', '../policies/public'],
  ['web/src/features/success/components/uses-order.ts', '../../order/public'],
  ['web/src/features/order/components/own-feature.ts', '../order-form'],
  ['web/src/features/policies/web-lib.ts', '../../lib/dispatch-wording'],
  ['web/src/app/uses-feature.ts', '../features/order/order-page'],
  ['web/src/app/uses-component.ts', '../components/layout/not-found'],
  ['web/src/features/success/components/uses-component.ts', '../../../components/ui/icons'],
  ['web/src/features/success/uses-lib.ts', '../../lib/paths'],
  ['web/src/components/layout/uses-lib.ts', '../../lib/seller'],
  ['web/src/components/toast/uses-component.ts', '../ui/more-icons'],
  ['web/src/lib/uses-lib.ts', './app-context'],
  ['infra/lib/domain.ts', '../../lambdas/domain/storage/orders-table'],
  ['local/entry.ts', '../lambdas/handlers/create-checkout/handler'],
];

/** The repository's features: the rule names each, so a new one must be added there. */
const FEATURES = readdirSync(join(REPO_ROOT, 'web/src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const VALUE_CYCLE: Record<string, string> = {
  'lambdas/lib/cycle-a.ts': "import { b } from './cycle-b';\n\nexport const a = () => b;\n",
  'lambdas/lib/cycle-b.ts': "import { a } from './cycle-a';\n\nexport const b = () => a;\n",
};

const CYCLES: Record<string, string> = {
  ...VALUE_CYCLE,
  // The shape web/src/lib had: a module loaded with import() that imports its loader back.
  'web/src/lib/loader.ts': "export const load = () => import('./loaded');\n\nexport const shared = 1;\n",
  'web/src/lib/loaded.ts': "import { shared } from './loader';\n\nexport const value = shared;\n",
  // Types only: erased at run time, but still two modules that cannot be read one without the other.
  'shared/type-cycle-a.ts': "import type { B } from './type-cycle-b';\n\nexport interface A {\n  b?: B;\n}\n",
  'shared/type-cycle-b.ts': "import type { A } from './type-cycle-a';\n\nexport interface B {\n  a?: A;\n}\n",
};

function probeFiles(): Record<string, string> {
  const files: Record<string, string> = { ...CYCLES };
  for (const [path, specifier] of [...FAILS, ...PASSES]) files[path] = importing(specifier);
  for (const feature of FEATURES) {
    files[`web/src/features/probe-feature/imports-${feature}.ts`] = importing(`../${feature}/internal`);
    files[`web/src/features/probe-feature/uses-${feature}.ts`] = importing(`../${feature}/public`);
  }
  return files;
}

describe('the layer rules in npm run lint', () => {
  let diagnostics: Diagnostic[] = [];
  beforeAll(async () => {
    diagnostics = await biomeDiagnostics(probeFiles());
  });
  afterAll(removeCopies);
  const of = (path: string) => diagnostics.filter((diagnostic) => diagnostic.file === path);

  it.each(FAILS)('fails on %s importing %s', (path, _specifier, message) => {
    expect(of(path)).toEqual([
      expect.objectContaining({
        category: 'lint/style/noRestrictedImports',
        message: expect.stringContaining(message),
      }),
    ]);
  });

  it.each(PASSES)('passes %s importing %s', (path) => {
    expect(of(path)).toEqual([]);
  });

  it.each(FEATURES)(
    "fails on a feature importing %s's files, and passes it through its public.ts",
    (feature) => {
      expect(of(`web/src/features/probe-feature/imports-${feature}.ts`)).toEqual([
        expect.objectContaining({ message: expect.stringContaining(FEATURE) }),
      ]);
      expect(of(`web/src/features/probe-feature/uses-${feature}.ts`)).toEqual([]);
    },
  );

  it.each([
    ['lambdas/lib/cycle-a.ts', 'lambdas/lib/cycle-b.ts'],
    ['web/src/lib/loader.ts', 'web/src/lib/loaded.ts'],
    ['shared/type-cycle-a.ts', 'shared/type-cycle-b.ts'],
  ])('fails on an import cycle between %s and %s', (first, second) => {
    for (const path of [first, second]) {
      expect(of(path)).toEqual([
        expect.objectContaining({
          category: 'lint/suspicious/noImportCycles',
          message: 'This import is part of a cycle.',
        }),
      ]);
    }
  });
});

describe('npm run lint', () => {
  afterEach(removeCopies);

  it('fails on an entry importing another entry, naming the rule', async () => {
    const result = await npmRunLint({
      'lambdas/handlers/probe-fn/handler.ts': importing('../create-checkout/handler'),
    });

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain(ENTRY);
  });

  it('fails on an import cycle', async () => {
    const result = await npmRunLint(VALUE_CYCLE);

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain('lint/suspicious/noImportCycles');
  });

  it('passes the layer rules and has no import cycle on the repository as it is', async () => {
    const result = await lint(
      BIOME,
      ['lint', '--only=style/noRestrictedImports', '--only=suspicious/noImportCycles', '.'],
      REPO_ROOT,
    );

    expect(result.output).not.toContain('Layer rule');
    expect(result.output).not.toContain('noImportCycles');
    expect(result.exitCode).toBe(0);
  });
});
