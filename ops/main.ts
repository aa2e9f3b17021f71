import { runCli } from './cli';

// `npm run orders -- <command>`: the process's arguments, output and clock.
const code = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  now: () => new Date(),
  cwd: process.cwd(),
});
process.exitCode = code;
