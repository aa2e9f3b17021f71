import { type ChildProcess, spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';

/*
 * `npm test`: vitest, the browser suite and the rehearsal's browser suite at once. The browser
 * suites mostly wait (about 135 CPU-s in 4 minutes each) and start their own stacks on free ports,
 * so they run beside vitest rather than after it. vitest runs at a lower CPU priority: the browser
 * suites take what they need when they need it (their waits are the starvation-sensitive ones) and
 * vitest the rest. Each runner's output is held and printed whole when it ends, so nothing is
 * interleaved; the run fails when any runner fails.
 */

const BIN = join(import.meta.dirname, '..', 'node_modules', '.bin');

interface Step {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Niceness (0 = the shell's own); higher yields the CPU to the others. */
  nice?: number;
}

interface Runner {
  name: string;
  /** Run one after another; the runner stops at the first that fails. */
  steps: Step[];
}

const RUNNERS: Runner[] = [
  { name: 'vitest', steps: [{ command: 'vitest', args: ['run'], nice: 10 }] },
  {
    name: 'browser suite',
    steps: [
      { command: 'vite', args: ['build', '--config', 'vite.config.ts', '--logLevel', 'warn'] },
      { command: 'playwright', args: ['test'] },
    ],
  },
  {
    name: "rehearsal's browser suite",
    steps: [
      {
        command: 'playwright',
        args: ['test', '-c', 'playwright.rehearse.config.ts'],
        env: { REHEARSE: '1' },
      },
    ],
  },
];

const running = new Set<ChildProcess>();

/** Runs one step, its stdout and stderr appended to `output` in arrival order; resolves its exit code. */
function runStep(step: Step, output: Array<string | Buffer>): Promise<number> {
  const child = spawn(join(BIN, step.command), step.args, {
    env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...step.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so an interrupt stops the step and everything it started.
    detached: true,
  });
  running.add(child);
  // Before the runner forks its workers, which inherit the priority.
  if (step.nice !== undefined && child.pid !== undefined) setPriority(child.pid, step.nice);
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => {
      output.push(`${step.command}: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve(code ?? (signal === null ? 1 : 128));
    });
  });
}

async function run(runner: Runner): Promise<number> {
  const started = Date.now();
  const output: Array<string | Buffer> = [];
  let code = 0;
  for (const step of runner.steps) {
    code = await runStep(step, output);
    if (code !== 0) break;
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `\n── ${runner.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s ──\n`,
  );
  for (const chunk of output) process.stdout.write(chunk);
  return code;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of running) {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // That group has already ended.
      }
    }
    process.exit(130);
  });
}

const started = Date.now();
process.stdout.write(
  `Running ${RUNNERS.map((runner) => runner.name).join(', ')} at once; each prints when it ends.\n`,
);
const codes = await Promise.all(RUNNERS.map(run));
const failed = RUNNERS.filter((_, index) => codes[index] !== 0).map((runner) => runner.name);
const seconds = Math.round((Date.now() - started) / 1000);
process.stdout.write(
  `\nnpm test: ${failed.length === 0 ? 'all passed' : `FAILED: ${failed.join(', ')}`} in ${seconds} s\n`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
