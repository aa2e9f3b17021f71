import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('zod configuration', () => {
  // z.config() changes every schema's messages in the process, including the shared request
  // schema's: a message would then depend on which module loaded first. Ask per parse instead
  // (lambdas/lib/zod-messages.ts).
  it('is never changed process-wide by our code', () => {
    const hits = execFileSync(
      'git',
      ['grep', '-n', '-E', 'z\\.config\\(|zod/locales', '--', 'shared', 'lambdas', 'web/src', 'ops', 'local'],
      { cwd: ROOT, encoding: 'utf8' },
    )
      .trim()
      .split('\n')
      .filter((line) => line !== '');

    expect(hits).toEqual([
      expect.stringMatching(/^lambdas\/lib\/zod-messages\.ts:\d+:import \{ en \} from 'zod\/locales';$/),
    ]);
  });
});
