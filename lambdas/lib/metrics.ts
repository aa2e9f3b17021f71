import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/** The CloudWatch namespace of the shop's own metrics; alarms in infra watch these names. */
export const METRICS_NAMESPACE = 'LiveAquatics';

/** Every metric's dimensions: an alarm sees only an exact match, so infra's alarms use these. */
export const METRIC_DIMENSIONS = { service: 'live-aquatics-shop' } as const;

/** Metric names, in one place so the alarms in infra and the code cannot drift apart. */
export const METRIC_NAMES = {
  /** Paid sessions the reconciler found without an order; above zero, the webhook path is losing events. */
  reconcilerFulfilledMissedOrders: 'ReconcilerFulfilledMissedOrders',
  /** Paid sessions whose amount, currency or quantity is not what we priced: the merchant must act. */
  paidCheckoutNeedsReview: 'PaidCheckoutNeedsReview',
  /** Customer confirmations SES refused for good (an address it cannot take): the merchant must reach them another way. */
  customerEmailRefused: 'CustomerEmailRefused',
  /** Order requests recorded in requests mode (each new one, not a retry): a flood shows here first. */
  orderRequests: 'OrderRequests',
  /** Order requests whose merchant notice a limit kept back (counted in the next notice instead). */
  orderRequestNoticesSuppressed: 'OrderRequestNoticesSuppressed',
  /** A sale that left its dispatch day no room for the smallest order: demand beyond what the cultures give. */
  dispatchDaySoldOut: 'DispatchDaySoldOut',
  /** A commercial stage's weather check ran without a readable key, so on the free endpoint (ADR 0045). */
  forecastKeyUnreadable: 'ForecastKeyUnreadable',
} as const;

export type MetricName = (typeof METRIC_NAMES)[keyof typeof METRIC_NAMES];

/** Where EMF lines go: stdout in Lambda; tests collect them. */
export type MetricsWriter = (line: string) => void;

/** Powertools' Console writes to stdout as well: a pure-JSON log event, which is what CloudWatch extracts metrics from. */
export const stdoutMetricsWriter: MetricsWriter = (line) => {
  process.stdout.write(`${line}\n`);
};

/**
 * Searchable beside a metric, never a dimension: each dimension value is a metric billed monthly, and the
 * alarms watch only {@link METRIC_DIMENSIONS}, so a changing value (a date, an id) is a property.
 */
export type MetricProperties = Readonly<Record<string, string | number>>;

// Made on the first metric, not at load: most invocations emit none.
let shopMetrics: Metrics | undefined;

/**
 * One metric as an EMF line (Powertools Metrics): no API call or permission, and alarmable. A property named
 * like the dimension or the metric is dropped, never replacing either. `write`: stdout, or a test's.
 */
export function emitMetric(
  write: MetricsWriter,
  name: MetricName,
  value: number,
  properties: MetricProperties = {},
): void {
  shopMetrics ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRIC_DIMENSIONS.service });
  const metrics = shopMetrics;
  // Powertools' own switch, read as it reads it (its isDisabled is not public): the browser
  // tests' stack sets it, as it sets the log level.
  if (process.env.POWERTOOLS_METRICS_DISABLED?.toLowerCase() === 'true') return;
  try {
    for (const [key, property] of Object.entries(properties)) {
      if (key !== name && !(key in METRIC_DIMENSIONS)) metrics.addMetadata(key, String(property));
    }
    metrics.addMetric(name, MetricUnit.Count, value);
    write(JSON.stringify(metrics.serializeMetrics()));
  } finally {
    metrics.clearMetrics();
    metrics.clearMetadata();
  }
}
