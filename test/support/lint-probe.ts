import { spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Probes for the import rules in biome.json: the repository's own lint, run on a temporary copy of
 * its configuration that holds only probe files, so nothing is written into the working tree.
 */

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIOME = join(REPO_ROOT, 'node_modules', '.bin', 'biome');

export interface LintRun {
  exitCode: number;
  output: string;
}

export function lint(command: string, args: string[], cwd: string): Promise<LintRun> {
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
/** Deletes the copies made so far (an afterEach or afterAll). */
export function removeCopies(): void {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A copy of the lint setup (package.json, biome.json, node_modules linked) holding `files` by path. */
export function copyWithFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'lint-probe-'));
  copies.push(dir);
  for (const file of ['package.json', 'biome.json', '.gitignore'])
    copyFileSync(join(REPO_ROOT, file), join(dir, file));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  return dir;
}

/** A source file with one import of `specifier`, formatted as Biome wants it. */
export const importing = (specifier: string) =>
  `import * as probe from '${specifier}';\n\nexport const used = probe;\n`;

/** `npm run lint` itself, in a copy holding `files`. */
export function npmRunLint(files: Record<string, string>): Promise<LintRun> {
  return lint('npm', ['run', '--silent', 'lint'], copyWithFiles(files));
}

/** What `npm run lint` runs (`biome check .`), called directly: a fifth of the time. */
export function biomeCheck(files: Record<string, string>): Promise<LintRun> {
  return lint(BIOME, ['check', '.'], copyWithFiles(files));
}

export interface Diagnostic {
  /** Relative to the copy's root, with forward slashes. */
  file: string;
  /** The rule's category, e.g. `lint/style/noRestrictedImports`. */
  category: string;
  message: string;
}

/**
 * `biome check .` in a copy holding `files`, its diagnostics one by one (Biome's GitHub reporter
 * writes one line per diagnostic), so one run can answer for many probe files.
 */
export async function biomeDiagnostics(files: Record<string, string>): Promise<Diagnostic[]> {
  const dir = realpathSync(copyWithFiles(files));
  const { output } = await lint(BIOME, ['check', '--reporter=github', '.'], dir);
  return [...output.matchAll(/^::\w+ title=([^,]+),file=([^,]+),[^:]*::(.*)$/gm)].map(
    ([, category = '', file = '', message = '']) => ({
      file: (isAbsolute(file) ? relative(dir, file) : file).split('\\').join('/'),
      category,
      message,
    }),
  );
}
