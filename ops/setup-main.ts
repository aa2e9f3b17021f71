import { stdin, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import { spawnCdk } from './cdk-runner';
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
  runCdk: spawnCdk(repoRoot),
});
