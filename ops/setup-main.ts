import { spawn } from 'node:child_process';
import { stdin, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import { operatorDeps } from './operator-deps';
import { runSetup } from './setup';
import { terminalPrompt } from './terminal-prompt';

// As in main.ts: the SDK's Node-version notice would print above every answer on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// `npm run setup -- --stage NAME [--yes] [flags]`: docs/deploy.md.
process.exitCode = await runSetup(process.argv.slice(2), {
  ...operatorDeps(repoRoot),
  nodeVersion: process.versions.node,
  prompt: stdin.isTTY ? terminalPrompt(stdin, stdout) : undefined,
  runCdk: (args) =>
    new Promise((resolve, reject) => {
      const child = spawn('npx', ['cdk', ...args], {
        cwd: repoRoot,
        stdio: 'inherit',
        env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1', CDK_DISABLE_CLI_TELEMETRY: 'true' },
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? 1));
    }),
});
