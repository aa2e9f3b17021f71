import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningFunction, startFunction } from '../../local/rehearse/function-host';
import { tempDir } from '../infra/support';

/**
 * A bundle that counts its invocations (module state: what a new environment starts again), and
 * sleeps or exits its process when asked.
 */
function sleepyBundle(): string {
  const dir = tempDir('rehearse-function-');
  writeFileSync(
    join(dir, 'index.mjs'),
    `let invocations = 0;
export const handler = async (event) => {
  invocations += 1;
  if (event.exitCode !== undefined) process.exit(event.exitCode);
  if (event.sleepMs) await new Promise((done) => setTimeout(done, event.sleepMs));
  return { invocations };
};
`,
  );
  return dir;
}

describe('the rehearsal’s function host', () => {
  let running: RunningFunction | undefined;
  afterEach(async () => {
    await running?.close();
  });

  it('stops an invocation at the template’s Timeout as Lambda does, and starts the next one cold', async () => {
    const lines: string[] = [];
    running = await startFunction(
      {
        name: 'SleepyFunction',
        bundleDir: sleepyBundle(),
        handler: 'index.handler',
        env: {},
        timeoutSeconds: 1,
      },
      (line) => lines.push(line),
    );
    const started = Date.now();
    await expect(running.invoke({ sleepMs: 10_000 })).rejects.toThrow(
      'SleepyFunction: Task timed out after 1.00 seconds',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[SleepyFunction\] \d{4}-\d\d-\d\dT[\d:.]+Z rehearsal-1 Task timed out after 1\.00 seconds$/,
      ),
    );
    // The timed-out environment is discarded: the next invocation is the first of a new one.
    await expect(running.invoke({})).resolves.toEqual({ invocations: 1 });
  }, 30_000);

  it('keeps the environment of invocations that end in time', async () => {
    running = await startFunction(
      {
        name: 'SleepyFunction',
        bundleDir: sleepyBundle(),
        handler: 'index.handler',
        env: {},
        timeoutSeconds: 3,
      },
      () => undefined,
    );
    await expect(running.invoke({ sleepMs: 100 })).resolves.toEqual({ invocations: 1 });
    await expect(running.invoke({})).resolves.toEqual({ invocations: 2 });
  }, 30_000);

  it('fails the invocation whose process exits, and answers the next from a new environment, as Lambda does', async () => {
    const lines: string[] = [];
    running = await startFunction(
      {
        name: 'SleepyFunction',
        bundleDir: sleepyBundle(),
        handler: 'index.handler',
        env: {},
        timeoutSeconds: 3,
      },
      (line) => lines.push(line),
    );

    await expect(running.invoke({ exitCode: 1 })).rejects.toThrow(
      'SleepyFunction: Runtime exited with error: exit status 1',
    );

    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[SleepyFunction\] \d{4}-\d\d-\d\dT[\d:.]+Z Runtime exited with error: exit status 1$/,
      ),
    );
    await expect(running.invoke({})).resolves.toEqual({ invocations: 1 });
    await expect(running.invoke({})).resolves.toEqual({ invocations: 2 });
  }, 30_000);
});
