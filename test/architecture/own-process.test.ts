import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OWN_PROCESS_FILES } from '../support/own-process-files';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// This file names the leaks it looks for.
const SELF = 'test/architecture/own-process.test.ts';

// What outlives a file in a shared process: the environment, the SDK's mocked client classes,
// fake timers, the module cache, the global fetch, zod's global settings, the local shop (it sets
// process.env for its handlers).
const LEAKS =
  /vi\.stubEnv|vi\.stubGlobal|mockClient\(|useFakeTimers|setSystemTime|resetModules|spyOn\(globalThis|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|process\.env\s*=[^=]|Object\.assign\(process\.env|z\.config\(|startLocalShop\(/;

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The first leak in a file or in the test helpers it imports (relative imports under test/). */
function leakIn(file: string, seen = new Set<string>()): string | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  // Comments aside: a file may name what it guards against.
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const found = text.match(LEAKS);
  if (found) return `${file}: ${found[0]}`;
  for (const [, specifier] of text.matchAll(/from '(\.[^']+)'/g)) {
    const helper = relative(ROOT, resolve(ROOT, dirname(file), `${specifier}.ts`));
    if (!helper.startsWith('test/') || !existsSync(join(ROOT, helper))) continue;
    const leak = leakIn(helper, seen);
    if (leak) return leak;
  }
  return undefined;
}

describe('the node test files that share a process (vitest.config.ts, isolate: false)', () => {
  const nodeFiles = testFiles('test').filter((file) => !/^test\/(web|e2e|infra)\//.test(file));

  it('leave nothing behind for the next file: the ones that would run in their own process', () => {
    const listed = new Set<string>(OWN_PROCESS_FILES);
    const leaking = nodeFiles
      .filter((file) => !listed.has(file) && file !== SELF)
      .map((file) => leakIn(file))
      .filter((leak) => leak !== undefined);
    expect(leaking).toEqual([]);
  });

  it('lists only files that exist', () => {
    expect(OWN_PROCESS_FILES.filter((file) => !nodeFiles.includes(file))).toEqual([]);
  });
});

// The web files share one jsdom per worker too (vitest.config.ts): test/web/setup.ts puts back
// after each test the globals, mocks, timers, storage and DOM a test changed, but not these.
const WEB_LEAKS =
  /vi\.mock\(|vi\.doMock\(|resetModules|vi\.stubEnv|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|z\.config\(/;

describe('the web test files that share a jsdom (vitest.config.ts, isolate: false)', () => {
  it('change nothing test/web/setup.ts does not put back', () => {
    const webFiles = [...testFiles('test/web'), ...webTsxFiles('test/web')];
    expect(webFiles.length).toBeGreaterThan(20);
    const leaking = webFiles
      .map((file) => {
        const text = readFileSync(join(ROOT, file), 'utf8').replace(/^\s*\/\/.*$/gm, '');
        const found = text.match(WEB_LEAKS);
        return found ? `${file}: ${found[0]}` : undefined;
      })
      .filter((leak) => leak !== undefined);
    expect(leaking).toEqual([]);
  });
});

function webTsxFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return webTsxFiles(path);
    return /\.(test\.tsx|ts)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
