import { afterAll, describe, expect, it, vi } from 'vitest';
import { emitMetric, METRIC_NAMES } from '../../../lambdas/lib/metrics';

describe('emitMetric under POWERTOOLS_METRICS_DISABLED', () => {
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('writes no line: the browser tests’ stack stays quiet', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
    const lines: string[] = [];

    emitMetric((line) => lines.push(line), METRIC_NAMES.orderRequests, 1);

    expect(lines).toEqual([]);
  });

  it('writes its line when the switch says false', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];

    emitMetric((line) => lines.push(line), METRIC_NAMES.orderRequests, 1);

    expect(lines).toHaveLength(1);
  });
});
