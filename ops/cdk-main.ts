import { stdin, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import { CDK_COMMANDS, type CdkCommand, runCdkCommand, stsCallerIdentity } from './cdk-command';
import { spawnCdk } from './cdk-runner';
import { terminalQuestion } from './terminal-prompt';

// As in main.ts: the SDK's Node-version notice would print above every answer on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// `npm run deploy|synth|diff|destroy -- --stage NAME [--yes] [-- CDK flags]`: docs/deploy.md.
const [command = '', ...args] = process.argv.slice(2);
const isCdkCommand = (name: string): name is CdkCommand => (CDK_COMMANDS as readonly string[]).includes(name);
if (!isCdkCommand(command)) {
  process.stderr.write(`Usage: tsx ops/cdk-main.ts ${CDK_COMMANDS.join('|')} --stage NAME\n`);
  process.exitCode = 2;
} else {
  process.exitCode = await runCdkCommand(command, args, {
    out: (line) => stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    cdkJsonPath: `${repoRoot}cdk.json`,
    ask: stdin.isTTY && stdout.isTTY ? terminalQuestion(stdin, stdout) : undefined,
    callerIdentity: stsCallerIdentity,
    runCdk: spawnCdk(repoRoot),
  });
}
