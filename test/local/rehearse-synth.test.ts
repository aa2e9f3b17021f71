import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { synthKey } from '../../local/rehearse/synth';
import { tempDir } from '../infra/support';

function write(root: string, path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('the rehearsal’s synth cache key', () => {
  it('changes with infra, lambdas, shared, the site and the lock file, not with docs or tests', () => {
    const root = tempDir('rehearse-key-');
    write(root, 'infra/lib/stack.ts', 'stack');
    write(root, 'lambdas/handlers/a.ts', 'a');
    write(root, 'shared/s.ts', 's');
    write(root, 'web/src/main.tsx', 'main');
    write(root, 'package-lock.json', '{}');
    write(root, 'docs/deploy.md', 'docs');
    const first = synthKey('dev', root);
    expect(synthKey('dev', root)).toBe(first);

    write(root, 'docs/deploy.md', 'docs, edited');
    write(root, 'test/e2e/a.spec.ts', 'a test');
    write(root, 'lambdas/node_modules/x.js', 'installed');
    expect(synthKey('dev', root)).toBe(first);
    expect(synthKey('prod', root)).not.toBe(first);
    expect(synthKey('dev', root, { sellerName: 'Live Aquatics (local test shop)' })).not.toBe(first);

    const seen = new Set([first]);
    for (const path of [
      'infra/lib/stack.ts',
      'lambdas/handlers/a.ts',
      'shared/s.ts',
      'web/src/main.tsx',
      'package-lock.json',
    ]) {
      write(root, path, `${path}, edited`);
      const key = synthKey('dev', root);
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
    write(root, 'lambdas/handlers/b.ts', 'a new file');
    expect(seen.has(synthKey('dev', root))).toBe(false);
  });
});
