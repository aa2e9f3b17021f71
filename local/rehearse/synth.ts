import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { LOCAL_STAGE_SETTINGS } from '../../shared/stage-config';

const run = promisify(execFile);
const REPO_ROOT = resolve(import.meta.dirname, '../..');

/**
 * Synthesises a stage into `outDir` as `cdk deploy` would (bundles, site and all), so the
 * rehearsal serves what a deploy would upload. Its output is shown only when it fails.
 */
export async function synthesiseStage(
  stage: string,
  outDir: string,
  context: Readonly<Record<string, string>> = {},
): Promise<void> {
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
      ...Object.entries(context).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
      '-o',
      outDir,
    ],
    {
      cwd: REPO_ROOT,
      env: { ...shell, CDK_DISABLE_VERSION_CHECK: '1', CDK_DISABLE_CLI_TELEMETRY: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((error: unknown) => {
    const output = error && typeof error === 'object' && 'stderr' in error ? String(error.stderr) : '';
    throw new Error(`cdk synth of the ${stage} stage failed:\n${output}`, { cause: error });
  });
}

/** What a synthesis reads: the app, its functions, the site's sources and every dependency's version. */
const SYNTH_INPUTS = ['infra', 'lambdas', 'shared', 'web'];
const SYNTH_INPUT_FILES = [
  'package-lock.json',
  'package.json',
  'cdk.json',
  'cdk.context.json',
  'tsconfig.json',
  'vite.config.ts',
];
const NOT_INPUTS = new Set(['node_modules', 'dist', 'cdk.out', '.cache']);

/** A hash of every input file's path and content, the stage, and the environment the app reads. */
export function synthKey(
  stage: string,
  root = REPO_ROOT,
  context: Readonly<Record<string, string>> = {},
): string {
  const hash = createHash('sha256');
  hash.update(`stage=${stage}\0${JSON.stringify(Object.entries(context).sort())}\0`);
  for (const name of ['CDK_DEFAULT_ACCOUNT', 'CDK_DEFAULT_REGION'])
    hash.update(`${process.env[name] ?? ''}\0`);
  const add = (relative: string) => {
    const path = join(root, relative);
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) {
        if (!NOT_INPUTS.has(entry)) add(join(relative, entry));
      }
      return;
    }
    hash.update(`${relative}\0`);
    hash.update(readFileSync(path));
    hash.update('\0');
  };
  for (const input of [...SYNTH_INPUTS, ...SYNTH_INPUT_FILES]) add(input);
  return hash.digest('hex').slice(0, 20);
}

/**
 * The stage synthesised into .cache/rehearse/<key>: reused while infra/, lambdas/, shared/, the
 * site's sources and package-lock.json are unchanged (hashing them takes milliseconds, a synth
 * 15-40 s). Keeps the two newest, so switching back to a branch just left stays quick.
 * @returns the assembly's folder and whether it was synthesised now.
 */
export async function cachedStage(
  stage: string,
  options: {
    log?: (line: string) => void;
    cacheRoot?: string;
    /** `-c key=value` settings over cdk.json's, e.g. the local shop's seller for the browser suite. */
    context?: Readonly<Record<string, string>>;
  } = {},
): Promise<{ dir: string; fresh: boolean }> {
  const { log = () => undefined, cacheRoot = join(REPO_ROOT, '.cache/rehearse'), context = {} } = options;
  const dir = join(cacheRoot, `${stage}-${synthKey(stage, REPO_ROOT, context)}`);
  if (existsSync(join(dir, 'manifest.json'))) {
    log(`The ${stage} stage as synthesised in ${dir} (infra, lambdas, shared, web unchanged since)`);
    return { dir, fresh: false };
  }
  mkdirSync(cacheRoot, { recursive: true });
  if (!(await claim(dir))) return { dir, fresh: false };
  try {
    log(`Synthesising the ${stage} stage into ${dir} ...`);
    // Synthesised beside, then renamed: a run cut short never leaves a half assembly to reuse.
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    await synthesiseStage(stage, partial, context);
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  } finally {
    rmSync(`${dir}.lock`, { recursive: true, force: true });
  }
  const older = readdirSync(cacheRoot)
    .filter((name) => name.startsWith(`${stage}-`) && !name.includes('.partial-') && !name.endsWith('.lock'))
    .map((name) => ({ name, at: statSync(join(cacheRoot, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at)
    .slice(2);
  for (const { name } of older) rmSync(join(cacheRoot, name), { recursive: true, force: true });
  return { dir, fresh: true };
}

/**
 * Claims the synthesis of `dir` for this process (a lock folder naming its pid), or waits while a
 * live process synthesises it (two test files asking at once): false once that one's assembly is
 * there. A lock whose process is gone is taken over.
 */
async function claim(dir: string): Promise<boolean> {
  const lock = `${dir}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return true;
    } catch {
      if (existsSync(join(dir, 'manifest.json'))) return false;
      // A lock without its pid yet is one being made, unless it has been so for seconds.
      const owner = readIfThere(join(lock, 'pid'));
      const stale = owner === '' ? Date.now() - mtimeOf(lock) > 10_000 : !isAlive(Number(owner));
      if (stale) rmSync(lock, { recursive: true, force: true });
      else await sleep(500);
    }
  }
}

function readIfThere(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The dev stage as the test suites rehearse it, with the local shop's seller and addresses (the
 * browser specs state them literally): vitest's rehearsal tests and the browser suite share it.
 */
export function testStage(): Promise<{ dir: string; fresh: boolean }> {
  const settings = LOCAL_STAGE_SETTINGS;
  return cachedStage('dev', {
    context: {
      sellerName: settings.sellerName,
      sellerAddress: settings.sellerAddress,
      sellerEmail: settings.sellerEmail,
      senderEmail: settings.senderEmail,
      merchantEmail: settings.merchantEmail,
      dispatchCutoffHours: String(settings.dispatchCutoffHours),
    },
  });
}
