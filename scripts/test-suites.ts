/**
 * `npm test`: vitest, and the browser suite against the local stack (`npm run test:e2e`'s) and
 * against the rehearsal (`npm run test:e2e:rehearse`'s), all three at once; the browser suites once
 * `vite build` has built the site they serve (seconds), vitest at once. Each browser suite starts
 * its own stack on free ports and spends most of its time waiting on a page or a stand-in, so the
 * three overlap rather than queue (on an idle 2-core machine 7.5 to 11.5 min together, README). Each suite's output
 * is held and printed whole when it ends, so their dots never interleave; the exit code is the
 * first failing suite's, and a closing summary repeats each failure's names last. `--browser` runs the browser suites alone (`npm run test:browser`).
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

/** A command run through npx, its output kept. */
export interface Step {
  name: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
}

/** A suite: a step, started once its `after` step (shared by the suites that name it) has passed. */
export interface Suite extends Step {
  after?: Step;
}

const WEB_BUILD: Step = {
  name: 'web build',
  args: ['vite', 'build', '--config', 'vite.config.ts', '--logLevel', 'warn'],
};

export const SUITES: readonly Suite[] = [
  { name: 'vitest', args: ['vitest', 'run'] },
  { name: 'browser suite, local stack', args: ['playwright', 'test'], after: WEB_BUILD },
  {
    name: 'browser suite, rehearsal',
    args: ['playwright', 'test', '-c', 'playwright.rehearse.config.ts'],
    env: { REHEARSE: '1' },
    after: WEB_BUILD,
  },
];

interface Finished {
  code: number;
  output: string;
}

/** Runs one step through npx, its stdout and stderr kept in order in one buffer. */
function run(step: Step): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn('npx', [...step.args], {
      env: { ...process.env, ...step.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const exit = code ?? (signal === null ? 1 : 128);
      resolve({ code: exit, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/** Starts every suite at once (each after its step) and prints each as it ends; resolves to the exit code. */
export async function runSuites(
  suites: readonly Suite[],
  print: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  const steps = new Map<Step, Promise<Finished>>();
  // A step runs once for all its suites and prints only what it had to say, or its failure.
  const stepDone = (step: Step) => {
    let done = steps.get(step);
    if (done === undefined) {
      done = run(step).then((result) => {
        if (result.code !== 0 || result.output !== '') {
          print(`\n[${step.name}] exited ${result.code}\n${result.output}`);
        }
        return result;
      });
      steps.set(step, done);
    }
    return done;
  };
  const names = suites.map((suite) =>
    suite.after ? `${suite.name} (after the ${suite.after.name})` : suite.name,
  );
  print(`Running ${names.join('; ')} at once; each prints when it ends.\n`);
  const finished = await Promise.all(
    suites.map(async (suite) => {
      const before = suite.after && (await stepDone(suite.after));
      if (before && before.code !== 0) {
        print(`\n[${suite.name}] not run: ${suite.after?.name} exited ${before.code}\n`);
        return before;
      }
      const result = await run(suite);
      print(`\n[${suite.name}] exited ${result.code}\n${result.output}`);
      return result;
    }),
  );
  print(closingSummary(suites, finished));
  return finished.find((result) => result.code !== 0)?.code ?? 0;
}

/** How many of a failing suite's last lines the summary repeats: Playwright lists its failures there. */
const FAILURE_TAIL_LINES = 12;
/** vitest names each failing test on a `FAIL` line above its error, far from the end. */
const VITEST_FAIL_LINE = /^\s*FAIL\s/;

/**
 * The last thing printed: which suites failed, each with its output's last lines (where vitest and
 * Playwright list the failing tests), so a log cut to its tail still names the failure.
 */
export function closingSummary(suites: readonly Suite[], finished: readonly Finished[]): string {
  const failed = suites.flatMap((suite, i) => {
    const result = finished[i];
    return result && result.code !== 0 ? [{ suite, result }] : [];
  });
  if (failed.length === 0) return `\nAll ${suites.length} suites passed.\n`;
  const parts = failed.map(({ suite, result }) => {
    const lines = result.output.split('\n').filter((line) => line.trim() !== '');
    const named = lines
      .slice(0, -FAILURE_TAIL_LINES)
      .filter((line) => VITEST_FAIL_LINE.test(stripVTControlCharacters(line)));
    const kept = [...named.slice(0, 10), ...lines.slice(-FAILURE_TAIL_LINES)].join('\n');
    return `[${suite.name}] FAILED (exit ${result.code}):\n${kept}\n`;
  });
  return `\n${failed.length} of ${suites.length} suites failed.\n${parts.join('')}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const browserOnly = process.argv.includes('--browser');
  process.exitCode = await runSuites(browserOnly ? SUITES.filter((suite) => suite.after) : SUITES);
}
