import { describe, expect, it } from 'vitest';
import {
  emitMetric,
  METRIC_NAMES,
  type MetricName,
  type MetricProperties,
} from '../../../lambdas/lib/metrics';

/** The one line `emitMetric` writes, parsed. */
function emitted(name: MetricName, value: number, properties?: MetricProperties) {
  const lines: string[] = [];
  emitMetric((line) => lines.push(line), name, value, properties);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '{}');
}

describe('emitMetric', () => {
  it('writes one EMF line: the value under its name, with the service dimension', () => {
    const emf = emitted(METRIC_NAMES.orderRequests, 1);

    expect(emf).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: 'LiveAquatics',
            Dimensions: [['service']],
            Metrics: [{ Name: 'OrderRequests', Unit: 'Count' }],
          },
        ],
      },
      service: 'live-aquatics-shop',
      OrderRequests: 1,
    });
  });

  it('carries properties in the line without making them dimensions', () => {
    const emf = emitted(METRIC_NAMES.dispatchDaySoldOut, 1, { dispatchDate: '2026-11-30', sold: 60 });

    expect(emf).toMatchObject({ dispatchDate: '2026-11-30', sold: '60', DispatchDaySoldOut: 1 });
    expect(emf._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
  });

  it('never lets a property replace the dimension or the value', () => {
    const emf = emitted(METRIC_NAMES.dispatchDaySoldOut, 1, { service: 'other', DispatchDaySoldOut: 99 });

    expect(emf).toMatchObject({ service: 'live-aquatics-shop', DispatchDaySoldOut: 1 });
  });
});
