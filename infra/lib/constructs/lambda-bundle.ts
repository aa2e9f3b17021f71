import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BundlingOptions, ILocalBundling } from 'aws-cdk-lib';
import { DockerImage } from 'aws-cdk-lib';
import { type BuildOptions, buildSync } from 'esbuild';

/**
 * Makes the ESM bundle safe for CommonJS dependencies that call `require` (the AWS SDK and
 * stripe do), which esbuild's ESM output otherwise turns into "Dynamic require of ... is not
 * supported" at load time. Every chunk gets it: each is a module of its own.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __shopCreateRequire } from 'node:module'; const require = __shopCreateRequire(import.meta.url);";

/** Lambda's handler setting for every shop function: `handler`, exported by `index.mjs`. */
export const LAMBDA_HANDLER = 'index.handler';

/**
 * How every shop Lambda is bundled, in one place: infra's ShopFunction, the bench and the tests
 * that load a bundle as deployed all call this.
 *
 * - Minified ESM for Node 24, the AWS SDK inside: one package loads faster than the runtime's
 *   copy, and pins the version we test.
 * - Code splitting: the handler is `index.mjs`; code reached only through `import()` (the
 *   requests-mode writer of create-checkout, which alone needs the DynamoDB and SES clients) is
 *   a chunk beside it, which Node reads and parses only when that `import()` runs. In one file,
 *   the unused SDK still cost its parse on every cold start (ADR 0020).
 * - A linked source map per file, without sources: for `npm run map-stack-trace` offline only;
 *   no NODE_OPTIONS=--enable-source-maps, which would parse it on every cold start.
 */
export function lambdaBuildOptions(entry: string, outdir: string, target = 'node24'): BuildOptions {
  return {
    entryPoints: { index: entry },
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target,
    minify: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    sourcesContent: false,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    logLevel: 'warning',
  };
}

/**
 * CDK bundling through the local esbuild, as NodejsFunction bundles but with code splitting,
 * which NodejsFunction cannot do (it writes one `--outfile`). `image` is only CDK's fallback for
 * a local bundler that declines; this one never declines (it bundles or fails the synth), so no
 * Docker image is ever pulled.
 */
export class EsbuildBundling implements BundlingOptions {
  readonly image = DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs24.x');
  readonly local: ILocalBundling;
  /**
   * Not read by CDK, but part of these options as data: CDK caches staged assets by the options'
   * JSON, in which `local` (a function) is invisible, so without it every function would get the
   * first one's bundle.
   */
  readonly entry: string;

  constructor(entryPath: string) {
    this.entry = entryPath;
    this.local = {
      tryBundle(outputDir: string): boolean {
        const result = buildSync(lambdaBuildOptions(entryPath, outputDir));
        if (result.errors.length > 0 || !existsSync(join(outputDir, 'index.mjs'))) {
          throw new Error(`esbuild could not bundle ${entryPath}`);
        }
        return true;
      },
    };
  }
}
