import type { RunnerTask } from 'vitest';
import { afterAll, beforeEach } from 'vitest';

/**
 * The Lambdas' logger and metrics (Powertools' own Console) and CDK's bundling write straight to
 * process.stdout and stderr, past vitest's console capture (`silent: 'passed-only'`). What they
 * write is held here and printed only for a test that fails, or for a file with a failure.
 */
interface Held {
  stream: NodeJS.WriteStream;
  chunk: string | Uint8Array;
}

interface Holding {
  /** Where writes go now: the running test's list, or the file's. */
  into: Held[];
  /** Each stream's own write, to print what a failure needs. */
  originals: Map<NodeJS.WriteStream, (chunk: string | Uint8Array) => boolean>;
}

// One holder per worker process: a worker that runs several files loads this file once for each.
const HOLDING = Symbol.for('live-aquatics.quiet-output');
const holder = globalThis as { [HOLDING]?: Holding };
const holding: Holding = holder[HOLDING] ?? patchStreams();
holder[HOLDING] = holding;
const outsideTests: Held[] = [];
holding.into = outsideTests;

function patchStreams(): Holding {
  const state: Holding = { into: [], originals: new Map() };
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    state.originals.set(stream, (chunk) => original(chunk));
    // Node's write(chunk, encoding?, callback?): the callback is the last function given.
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      state.into.push({ stream, chunk });
      const callback = rest.find((argument) => typeof argument === 'function');
      if (typeof callback === 'function') queueMicrotask(() => callback());
      return true;
    }) as typeof stream.write;
  }
  return state;
}

function replay(held: Held[], heading: string): void {
  if (held.length === 0) return;
  holding.originals.get(process.stderr)?.(`\n${heading}\n`);
  for (const { stream, chunk } of held.splice(0)) holding.originals.get(stream)?.(chunk);
}

function failed(task: RunnerTask): boolean {
  if (task.result?.state === 'fail' || (task.result?.errors?.length ?? 0) > 0) return true;
  return 'tasks' in task && task.tasks.some(failed);
}

beforeEach(({ task, onTestFinished }) => {
  const held: Held[] = [];
  holding.into = held;
  onTestFinished(() => {
    holding.into = outsideTests;
    if (failed(task)) replay(held, `output of "${task.fullName}":`);
  });
});

// biome-ignore lint/correctness/noEmptyPattern: vitest reads a hook's first parameter as its fixtures, by pattern.
afterAll(({}, file) => {
  if (failed(file)) replay(outsideTests, `output of ${file.name} outside its tests:`);
  outsideTests.length = 0;
});
