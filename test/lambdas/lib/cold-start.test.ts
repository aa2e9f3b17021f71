import { describe, expect, it } from 'vitest';
import { initOnce } from '../../../lambdas/lib/cold-start';

/** A loader that answers `results` in turn (the last one for ever), counting its calls. */
function counting<T>(results: Array<T | Error>) {
  let calls = 0;
  const load = async () => {
    const result = results[Math.min(calls, results.length - 1)];
    calls += 1;
    if (result instanceof Error) throw result;
    return result as T;
  };
  return { load, calls: () => calls };
}

describe('initOnce', () => {
  it('loads once, and concurrent and later calls share the result', async () => {
    // Prepare
    const source = counting(['client']);
    const loaded = initOnce(source.load);

    // Act
    const answers = await Promise.all([loaded(), loaded(), loaded()]);
    const later = await loaded();

    // Assess
    expect([...answers, later]).toEqual(['client', 'client', 'client', 'client']);
    expect(source.calls()).toBe(1);
  });

  it('forgets a failed load: the next call loads again, and keeps what it loads', async () => {
    // Prepare
    const source = counting([new Error('secret unavailable'), 'client']);
    const loaded = initOnce(source.load);

    // Act
    const first = loaded();

    // Assess
    await expect(first).rejects.toThrow('secret unavailable');
    expect(await loaded()).toBe('client');
    expect(await loaded()).toBe('client');
    expect(source.calls()).toBe(2);
  });

  it('with maxAgeMs, loads again at the first call once the load is that old', async () => {
    // Prepare
    let clock = 1_000;
    const source = counting(['first', 'second']);
    const loaded = initOnce(source.load, { maxAgeMs: 100, now: () => clock });

    // Act
    const fresh = await loaded();
    clock += 99;
    const stillFresh = await loaded();
    clock += 1;
    const reloaded = await loaded();

    // Assess
    expect([fresh, stillFresh, reloaded]).toEqual(['first', 'first', 'second']);
    expect(source.calls()).toBe(2);
  });

  it('a failing old load does not drop the newer load that replaced it', async () => {
    // Prepare: the first load fails only after the second has replaced it.
    let clock = 0;
    let failFirst: (error: Error) => void = () => undefined;
    const loads = [
      new Promise<string>((_, reject) => {
        failFirst = reject;
      }),
      Promise.resolve('second'),
      Promise.resolve('third'),
    ];
    let calls = 0;
    const loaded = initOnce(
      () => {
        const load = loads[calls] ?? Promise.resolve('more');
        calls += 1;
        return load;
      },
      { maxAgeMs: 10, now: () => clock },
    );
    const first = loaded();
    clock = 10;
    const second = await loaded();

    // Act
    failFirst(new Error('timed out'));
    await expect(first).rejects.toThrow('timed out');
    const afterFailure = await loaded();

    // Assess
    expect([second, afterFailure]).toEqual(['second', 'second']);
    expect(calls).toBe(2);
  });
});
