import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { STAGE_SETTINGS_ENV, type StageSettings, stageSettingsSchema } from '../../shared/stage-config';

export interface SiteBuildOptions {
  /** The repository root: vite.config.ts and node_modules. */
  readonly repoRoot: string;
  /** Where the build goes; emptied first. */
  readonly outDir: string;
  /** The stage's settings, as infra/lib/config.ts checked them. */
  readonly settings: StageSettings;
}

/**
 * Builds the site with the stage's settings (vite, given {@link STAGE_SETTINGS_ENV}), in a process of its
 * own because CDK builds constructs synchronously. @throws Error with the build's output.
 */
export function buildSite({ repoRoot, outDir: given, settings }: SiteBuildOptions): string {
  // Vite resolves a relative --outDir from its root (web/), not from ours: `cdk synth`'s default
  // `cdk.out` would put the site in web/cdk.out while the stack reads ./cdk.out.
  const outDir = resolve(repoRoot, given);
  try {
    execFileSync(
      process.execPath,
      [
        join(repoRoot, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        join(repoRoot, 'vite.config.ts'),
        '--outDir',
        outDir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      {
        cwd: repoRoot,
        // NODE_ENV as `vite build` sets it when unset: a test runner's "test" would build React's development code.
        env: {
          ...process.env,
          NODE_ENV: 'production',
          [STAGE_SETTINGS_ENV]: JSON.stringify(stageSettingsSchema.parse(settings)),
        },
        stdio: 'pipe',
        encoding: 'utf8',
      },
    );
  } catch (error) {
    // execFileSync's error carries what the build printed.
    const printed =
      error instanceof Error && 'stderr' in error && 'stdout' in error
        ? `${String(error.stderr)}${String(error.stdout)}`
        : '';
    throw new Error(`Building the site failed:\n${printed}`, { cause: error });
  }
  return outDir;
}
