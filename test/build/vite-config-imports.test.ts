import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every relative import on the chain from `file`, as `file: specifier`, read from the sources. */
function relativeImports(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*?from '(\.[^']+)'/gm)].flatMap(([, specifier = '']) => {
    const target = relative(ROOT, resolve(ROOT, dirname(file), specifier));
    const next = existsSync(join(ROOT, target)) ? target : `${target}.ts`;
    return [`${file}: ${specifier}`, ...(existsSync(join(ROOT, next)) ? relativeImports(next, seen) : [])];
  });
}

describe("vite.config.ts's own imports", () => {
  // Vite's coming native config loader (Node's own) needs each file's extension: without one,
  // every build warns "(!) Your Vite config uses features that are unsupported".
  it('name their files with the extension, all the way down', () => {
    const chain = relativeImports('vite.config.ts');

    expect(chain).toContain('shared/seller-claims.ts: ./pricing.ts');
    expect(chain.filter((line) => !/\.[cm]?[jt]sx?$/.test(line))).toEqual([]);
  });
});
