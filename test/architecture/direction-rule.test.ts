import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/*
 * The direction rule (web → shared ← lambdas; infra knows the lambdas by entry path; local wraps
 * them; ops uses lambdas and shared) is enforced by Biome's noRestrictedImports in biome.json.
 * These tests run the repository's own `npm run lint` on a temporary copy of its configuration
 * holding one probe file, so nothing is written into the working tree.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIOME = join(REPO_ROOT, 'node_modules', '.bin', 'biome');

interface LintRun {
  exitCode: number;
  output: string;
}

function lint(command: string, args: string[], cwd: string): Promise<LintRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ exitCode: code ?? -1, output }));
  });
}

const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the lint setup (package.json, biome.json, node_modules linked) with one source file. */
function copyWithFile(path: string, source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'direction-rule-'));
  copies.push(dir);
  for (const file of ['package.json', 'biome.json', '.gitignore'])
    copyFileSync(join(REPO_ROOT, file), join(dir, file));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  writeFileSync(join(dir, path), source);
  return dir;
}

/** A source file with one import of `specifier`, formatted as Biome wants it. */
const importing = (specifier: string) =>
  `import * as probe from '${specifier}';\n\nexport const used = probe;\n`;

/** `npm run lint` itself, in a copy holding `path`. */
function npmRunLint(path: string, specifier: string): Promise<LintRun> {
  return lint('npm', ['run', '--silent', 'lint'], copyWithFile(path, importing(specifier)));
}

/** What `npm run lint` runs (`biome check .`), called directly: a fifth of the time. */
function biomeCheck(path: string, specifier: string): Promise<LintRun> {
  return lint(BIOME, ['check', '.'], copyWithFile(path, importing(specifier)));
}

describe('the direction rule in npm run lint', () => {
  it('fails on a file in web/ that imports from lambdas/, naming the rule', async () => {
    const result = await npmRunLint('web/src/features/order/probe.ts', '../../../../lambdas/lib/logger');

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain('lint/style/noRestrictedImports');
    expect(result.output).toContain('Direction rule: web/ imports only web/ and shared/');
  });

  it('fails on a file in shared/ that imports from web/, naming the rule', async () => {
    const result = await npmRunLint('shared/probe.ts', '../web/src/config');

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
    ['infra/lib/probe.ts', '../../lambdas/lib/logger', 'Direction rule: infra/ knows lambdas/ by entry path'],
    ['infra/lib/probe.ts', '../../local/orders-table', 'Direction rule: infra/ imports only infra/, shared/'],
    ['local/probe.ts', '../infra/lib/paths', 'Direction rule: local/ wraps lambdas/ and web/'],
    ['ops/probe.ts', '../web/src/config', 'Direction rule: ops/ uses lambdas/ and shared/ only'],
  ])('fails on %s importing %s', async (path, specifier, message) => {
    const result = await biomeCheck(path, specifier);

    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain(message);
  });

  it.each([
    ['web/src/features/order/probe.ts', '../../../../shared/pricing'],
    ['lambdas/lib/probe.ts', '../../shared/pricing'],
    ['infra/lib/probe.ts', '../../lambdas/lib/config'],
    ['infra/lib/probe.ts', '../../lambdas/lib/metrics'],
    ['local/probe.ts', '../lambdas/handlers/create-checkout/handler'],
    ['ops/probe.ts', '../lambdas/lib/aws'],
  ])('passes %s importing %s', async (path, specifier) => {
    const result = await biomeCheck(path, specifier);

    expect(result.output).not.toContain('Direction rule');
    expect(result.exitCode).toBe(0);
  });

  it('passes on the repository as it is', async () => {
    const result = await lint(BIOME, ['lint', '--only=style/noRestrictedImports', '.'], REPO_ROOT);

    expect(result.output).not.toContain('Direction rule');
    expect(result.exitCode).toBe(0);
  });
});
