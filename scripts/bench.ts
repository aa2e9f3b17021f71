/**
 * `npm run bench`: prints the figures the performance targets are judged by, and asserts none of
 * them (speed and size are measured, not timed in tests):
 * - the storefront's first-load JS and CSS (gzipped), against the React + react-router floor;
 * - each Lambda's bundle, built as the CDK stack builds it, and its cold module load time in a
 *   fresh Node process (median of several runs).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ESM_REQUIRE_BANNER } from '../infra/lib/constructs/shop-function';

const LAMBDAS = ['create-checkout', 'checkout-status', 'stripe-webhook', 'reconcile-orders'] as const;
const COLD_LOAD_RUNS = 7;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function firstLoadAssets(): Array<{ file: string; raw: number; gzip: number }> {
  const html = readFileSync('dist/web/index.html', 'utf8');
  const referenced = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1] ?? '',
  );
  return referenced.map((file) => {
    const bytes = readFileSync(join('dist/web', file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
}

async function lambdaFigures(name: (typeof LAMBDAS)[number], outdir: string) {
  const outfile = join(outdir, `${name}.mjs`);
  // The options of infra's ShopFunction (NodejsFunction bundling), with a target this Node can load.
  await build({
    entryPoints: [`lambdas/${name}/handler.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    logLevel: 'error',
  });
  const size = statSync(outfile).size;
  const loads = Array.from({ length: COLD_LOAD_RUNS }, () =>
    Number(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const t = performance.now(); await import(${JSON.stringify(outfile)}); console.log(performance.now() - t);`,
        ],
        { encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1' } },
      ).trim(),
    ),
  );
  return {
    name,
    size,
    gzip: gzipSync(readFileSync(outfile), { level: 9 }).length,
    coldLoadMs: median(loads),
  };
}

const assets = firstLoadAssets();
console.log('Storefront first load (dist/web, gzip -9):');
for (const asset of assets)
  console.log(`  ${asset.file.padEnd(34)} ${kb(asset.raw).padStart(10)}  gzip ${kb(asset.gzip)}`);
const js = assets.filter((a) => a.file.endsWith('.js')).reduce((sum, a) => sum + a.gzip, 0);
console.log(`  first-load JS total: ${kb(js)} gzipped (React 19 + react-router 7 alone: about 99 KB)`);

const outdir = mkdtempSync(join(tmpdir(), 'shop-bench-'));
console.log(
  `\nLambda bundles (minified ESM) and cold module load, median of ${COLD_LOAD_RUNS} fresh processes:`,
);
for (const name of LAMBDAS) {
  const figures = await lambdaFigures(name, outdir);
  console.log(
    `  ${figures.name.padEnd(18)} ${kb(figures.size).padStart(10)}  gzip ${kb(figures.gzip).padStart(9)}  cold load ${figures.coldLoadMs.toFixed(1)} ms`,
  );
}
