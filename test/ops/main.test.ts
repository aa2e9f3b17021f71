import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** `npm run orders -- <args>` as its own process: exit code, stdout and stderr. */
function orders(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'ops', 'main.ts'), ...args], {
      cwd: root,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run orders: the process prints only its own answer', () => {
  it("builds AWS SDK clients without the SDK's Node version notice on stderr", async () => {
    // Prepare: a command that builds the SDK's DynamoDB and SES clients, then finds nothing listening.
    // ORDERS_STAGE says where, so no target file is written into the repository.
    const { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: _operatorsOwn, ...env } = process.env;
    const environment = {
      ...env,
      ORDERS_STAGE: 'local',
      ORDERS_LOCAL_DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
      ORDERS_LOCAL_SES_ENDPOINT: 'http://127.0.0.1:9',
    };

    // Act
    const { code, stdout, stderr } = await orders(['list'], environment);

    // Assess: exit code 1 with the command's two lines, and nothing from the SDK.
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).not.toContain('NodeVersionSupportWarning');
    expect(stderr).not.toMatch(/upgrade to node/i);
    expect(stderr.split('\n')).toEqual([
      '[local stack (DynamoDB http://127.0.0.1:9, table live-aquatics-orders; SES http://127.0.0.1:9; Stripe http://localhost:12111)] from ORDERS_STAGE',
      'The local stack is not running: start it with `npm start` (or set ORDERS_LOCAL_* to its addresses).',
      '',
    ]);
  }, 30_000);
});
