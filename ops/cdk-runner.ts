import { spawn } from 'node:child_process';

export function spawnCdk(repoRoot: string): (args: readonly string[]) => Promise<number> {
  return (args) =>
    new Promise((resolve, reject) => {
      const child = spawn('npx', ['cdk', ...args], {
        cwd: repoRoot,
        stdio: 'inherit',
        env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1', CDK_DISABLE_CLI_TELEMETRY: 'true' },
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? 1));
    });
}
