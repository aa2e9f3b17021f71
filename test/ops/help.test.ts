import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');

/** `npm run NAME -- --help` as the operator types it: its exit code is 0 or this throws. */
async function help(script: string): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', script, '--', '--help'], { cwd: repoRoot });
  return stdout;
}

describe('--help on the operator commands', () => {
  it('setup prints its usage with every flag and exits 0', async () => {
    const text = await help('setup');
    expect(text).toContain('Usage: npm run setup -- --stage NAME');
    expect(text).toContain('--fulfilment-key');
    expect(text).toContain('--sender-email');
    expect(text).toContain(
      '  --open-anyway           open the shop though SES cannot yet email customers (kept paused otherwise)',
    );
    expect(text).not.toContain('Unknown option');
  }, 30_000);

  it('doctor prints its usage and exits 0', async () => {
    const text = await help('doctor');
    expect(text).toContain('Usage: npm run doctor -- --stage NAME [--region R]');
    expect(text).not.toContain('Unknown option');
  }, 30_000);

  it('orders prints its usage and exits 0', async () => {
    const text = await help('orders');
    expect(text).toContain('Run `npm run orders -- <command> --help`');
  }, 30_000);
});
