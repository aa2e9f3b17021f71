import { stdin, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import { runCli } from './cli';
import { TARGET_FILE_NAME } from './target-choice';
import { terminalQuestion } from './terminal-prompt';

// The AWS SDK (v3) warns on every run under Node 20, in nine lines before the command's answer,
// that its releases after January 2027 need Node 22. Node 20.19 is the version package.json
// documents, so the operator would read that notice above every answer: switch off only this
// notice, through the SDK's own setting for it (the SDK reads it when a client is first built).
// Any other process warning still prints. An operator who sets the variable keeps their value.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// `npm run orders -- <command>`: the process's arguments, output and clock; the target is
// remembered in the repository root whatever directory the command is run from.
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
