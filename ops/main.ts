import { stdin, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import { runCli } from './cli';
import { TARGET_FILE_NAME } from './target-choice';
import { terminalQuestion } from './terminal-prompt';

// The AWS SDK's nine-line Node-version notice would print above every answer on Node 20.19 (package.json's
// engines): only that notice is switched off, by the SDK's own setting, read when a client is first built.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// The target is remembered in the repository root whatever directory the command is run from.
const code = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  now: () => new Date(),
  cwd: process.cwd(),
  targetFile: fileURLToPath(new URL(`../${TARGET_FILE_NAME}`, import.meta.url)),
  // The confirm rule asks only where someone can answer: both ends a terminal, not a pipe or a script.
  isTerminal: stdin.isTTY === true && stdout.isTTY === true,
  ask: terminalQuestion(stdin, stdout),
});
process.exitCode = code;
