import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Synthesises a stage into `outDir` as `cdk deploy` would (bundles, site and all), so the
 * rehearsal serves what a deploy would upload. Its output is shown only when it fails.
 */
export async function synthesiseStage(stage: string, outDir: string): Promise<void> {
  // Vitest's and Playwright's markers would change how the app synthesises; a deploy has neither.
  const { VITEST: _vitest, NODE_ENV: _nodeEnv, ...shell } = process.env;
  await run(
    'npx',
    [
      'cdk',
      'synth',
      '--quiet',
      '--no-notices',
      '--no-version-reporting',
      '-c',
      `stage=${stage}`,
      '-o',
      outDir,
    ],
    {
      env: { ...shell, CDK_DISABLE_VERSION_CHECK: '1', CDK_DISABLE_CLI_TELEMETRY: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((error: unknown) => {
    const output = error && typeof error === 'object' && 'stderr' in error ? String(error.stderr) : '';
    throw new Error(`cdk synth of the ${stage} stage failed:\n${output}`, { cause: error });
  });
}
