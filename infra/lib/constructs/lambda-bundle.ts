import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BundlingOptions, ILocalBundling } from 'aws-cdk-lib';
import { DockerImage } from 'aws-cdk-lib';
import { type BuildOptions, buildSync } from 'esbuild';

/** CommonJS dependencies (the AWS SDK, stripe) call `require`, which esbuild's ESM output breaks at load. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __shopCreateRequire } from 'node:module'; const require = __shopCreateRequire(import.meta.url);";

/** Lambda's handler setting for every shop function: `handler`, exported by `index.mjs`. */
export const LAMBDA_HANDLER = 'index.handler';

/**
 * How every shop Lambda is bundled (infra, the bench, the tests): minified ESM with the SDK inside,
 * split so code reached only by `import()` is parsed only when it runs (ADR 0020), and source maps
 * without sources for `npm run map-stack-trace`.
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
 * CDK bundling through the local esbuild, with the code splitting NodejsFunction cannot do (one
 * `--outfile`). It never declines, so `image`, CDK's fallback, is never pulled.
 */
export class EsbuildBundling implements BundlingOptions {
  readonly image = DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs24.x');
  readonly local: ILocalBundling;
  /** Unread by CDK, which caches assets by the options' JSON (`local` invisible): keeps bundles apart. */
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
