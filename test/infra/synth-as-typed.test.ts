import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './support';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');

/** The files git tracks, as a clean clone has them; node_modules linked as `npm install` left it. */
async function cleanCopy(): Promise<string> {
  const dir = tempDir('shop-clone-');
  const { stdout } = await run('git', ['ls-files', '-z'], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
  for (const file of stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(repoRoot, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(join(dir, file, '..'), { recursive: true });
    cpSync(join(repoRoot, file), join(dir, file));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * `npm run synth -- --stage dev [-- CDK_ARGS]` as an operator types it: from the root, CDK's
 * default output folder.
 */
async function synthAsTyped(cwd: string, args: readonly string[] = []) {
  // The operator's shell: none of the test runner's variables (NODE_ENV=test would build React's development code).
  const { VITEST: _vitest, NODE_ENV: _nodeEnv, ...shell } = process.env;
  const env = { ...shell, CDK_DISABLE_VERSION_CHECK: '1', CDK_DISABLE_CLI_TELEMETRY: 'true' };
  return run('npm', ['run', 'synth', '--', '--stage', 'dev', ...(args.length > 0 ? ['--', ...args] : [])], {
    cwd,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** The site asset the stack uploads: the staged folder holding the built index.html. */
function uploadedSite(outdir: string): string[] {
  return readdirSync(outdir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('asset.'))
    .map((entry) => join(outdir, entry.name))
    .filter((dir) => readdirSync(dir).includes('contact.html'));
}

// Every other infra test synthesises into an absolute temporary folder; this one runs the command
// itself, because `cdk synth`'s relative `cdk.out` once put the site where the stack never read it.
// One synth, with the WAF on, answers both tests: it builds every stack the plain one does and the
// us-east-1 Edge stack besides, and each synth costs about 27 s of CPU (Vite, esbuild, CDK's checks).
describe('npm run synth -- --stage dev -- -c waf=true from a clean copy of the repository root', () => {
  let outdir: string;
  let copy: string;
  beforeAll(async () => {
    copy = await cleanCopy();
    await synthAsTyped(copy, ['-c', 'waf=true']);
    outdir = join(copy, 'cdk.out');
  }, 240_000);

  it('synthesises the dev stage into ./cdk.out with the built site in it', () => {
    expect(readdirSync(outdir)).toContain('LiveAquatics-dev.template.json');
    const sites = uploadedSite(outdir);
    expect(sites).toHaveLength(1);
    expect(readFileSync(join(sites[0] ?? '', 'index.html'), 'utf8')).toContain('Daphnia Magna');
    // Nothing lands beside the web sources, where Vite would put a relative out dir.
    expect(existsSync(join(copy, 'web', 'cdk.out'))).toBe(false);
  });

  it('synthesises with the WAF on', () => {
    const templates = readdirSync(outdir).filter((name) => name.endsWith('.template.json'));
    const all = templates.map((name) => readFileSync(join(outdir, name), 'utf8')).join('\n');
    expect(all).toContain('AWS::WAFv2::WebACL');
  });
});
