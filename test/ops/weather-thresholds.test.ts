import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpsHarness, startOpsHarness } from './harness';

// `npm run orders -- weather-thresholds` against the real admin API over dynalite. The tests run in
// order, each on the thresholds the one before left.
let h: OpsHarness;

beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(() => h.close());

const thresholds = (args: string[] = []) => h.orders(['weather-thresholds', ...args, '--local']);

describe('npm run orders -- weather-thresholds', () => {
  it('prints the defaults in words', async () => {
    const run = await thresholds();

    expect(run.code).toBe(0);
    expect(run.out.trim()).toBe('At risk below 0 °C or above 28 °C; watch below 4 °C or above 24 °C.');
  });

  it('sets the ones given, a negative one too, and keeps the others', async () => {
    const run = await thresholds(['--at-risk-below', '-2', '--watch-above', '22.5']);

    expect(run.code).toBe(0);
    expect(run.out.trim().split('\n')).toEqual([
      'At risk below -2 °C or above 28 °C; watch below 4 °C or above 22.5 °C.',
      'Saved. No emails sent.',
    ]);
    expect(JSON.parse((await thresholds(['--json'])).out)).toEqual({
      atRiskBelow: -2,
      watchBelow: 4,
      watchAbove: 22.5,
      atRiskAbove: 28,
    });
  });

  it('refuses a value that is not a temperature, and one out of order, each in words, saving nothing', async () => {
    const cold = await thresholds(['--watch-below', 'cold']);
    const crossed = await thresholds(['--watch-below', '30']);

    expect(cold.code).not.toBe(0);
    expect(cold.err).toContain('Watch below is a temperature from −30 to 50 °C.');
    expect(crossed.code).not.toBe(0);
    expect(crossed.err).toContain(
      'Weather thresholds must read: at risk below ≤ watch below < watch above ≤ at risk above, each between −30 and 50 °C.',
    );
    expect((await thresholds()).out.trim()).toBe(
      'At risk below -2 °C or above 28 °C; watch below 4 °C or above 22.5 °C.',
    );
  });
});
