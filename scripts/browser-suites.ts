/**
 * `npm test`'s browser half: the browser suite against the local stack (`npm run test:e2e`'s) and
 * against the rehearsal (`npm run test:e2e:rehearse`'s), side by side. Each starts its own stack
 * on free ports, and each spends most of its time waiting on a page or a stand-in (about half a
 * core on this 2-core machine), so together they take little longer than the slower one alone.
 * Each suite's output is held and printed whole when it ends, so their dots never interleave;
 * the exit code is the first failing suite's. Run after `vite build` (the package script does).
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export interface Suite {
  name: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
}

export const SUITES: readonly Suite[] = [
  { name: 'browser suite, local stack', args: ['playwright', 'test'] },
  {
    name: 'browser suite, rehearsal',
    args: ['playwright', 'test', '-c', 'playwright.rehearse.config.ts'],
    env: { REHEARSE: '1' },
  },
];

interface Finished {
  suite: Suite;
  code: number;
  output: string;
}

/** Runs one suite through npx, its stdout and stderr kept in order in one buffer. */
function run(suite: Suite): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn('npx', [...suite.args], {
      env: { ...process.env, ...suite.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const exit = code ?? (signal === null ? 1 : 128);
      resolve({ suite, code: exit, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/** Starts every suite at once and prints each as it ends; resolves to the process's exit code. */
export async function runSuites(
  suites: readonly Suite[],
  print: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  print(
    `Running ${suites.map((suite) => suite.name).join(' and ')} side by side; each prints when it ends.\n`,
  );
  const finished = await Promise.all(
    suites.map(async (suite) => {
      const result = await run(suite);
      print(`\n[${suite.name}] exited ${result.code}\n${result.output}`);
      return result;
    }),
  );
  return finished.find((result) => result.code !== 0)?.code ?? 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await runSuites(SUITES);
}
