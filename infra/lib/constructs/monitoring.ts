import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

/** CloudWatch namespace of the shop's own metrics. */
export const METRICS_NAMESPACE = 'LiveAquatics';

/**
 * Dimensions the functions put on their Embedded Metric Format lines (lambdas/lib/metrics.ts). An
 * alarm only sees a metric whose dimensions match exactly.
 */
export const SHOP_METRIC_DIMENSIONS: Readonly<Record<string, string>> = { service: 'live-aquatics-shop' };

/**
 * Emitted by the reconciler every run, with the number of paid sessions it had to fulfil because
 * their webhook never arrived. Above zero means the webhook path is losing events.
 */
export const MISSED_ORDERS_METRIC = 'ReconcilerFulfilledMissedOrders';

/** Emitted by fulfilment for a paid session whose amount, currency or quantity is not what we priced. */
export const NEEDS_REVIEW_METRIC = 'PaidCheckoutNeedsReview';

/** Derived from the API access log: webhook requests that got a 5xx, whoever produced it. */
export const WEBHOOK_SERVER_ERRORS_METRIC = 'WebhookServerErrors';

const FIVE_MINUTES = Duration.minutes(5);

/** Props of {@link AlarmTopic}. */
export interface AlarmTopicProps {
  /** Receives every alarm (the SNS subscription must be confirmed from this inbox once). */
  readonly alarmEmail: string;
}

/**
 * The SNS topic every alarm, SES delivery problem and budget warning goes to, mailed to the alarm
 * address. It lives in the stateful stack: recreating it would need the subscription confirmed again.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);

    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: 'Live Aquatics shop alarms',
      // Denies any publish that is not over TLS (cdk-nag SNS3).
      enforceSSL: true,
    });
    this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    // Any statement on the topic makes CDK write a topic policy, which replaces SNS's default one
    // (that default is what lets CloudWatch publish). Without this statement every alarm is
    // silent. Limited to alarms of this account and region, so no other account's alarm (or
    // other service) can use the topic to mail the merchant.
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudWatchAlarmsOfThisAccount',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    // AWS Budgets publishes its warnings the same way; budgets are global (no region in the ARN).
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowBudgetsOfThisAccount',
        principals: [new ServicePrincipal('budgets.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'budgets',
              region: '',
              resource: 'budget',
              resourceName: '*',
            }),
          },
        },
      }),
    );
  }
}

/** Props of {@link ShopMonitoring}. */
export interface ShopMonitoringProps {
  /** Where every alarm goes (see {@link AlarmTopic}). */
  readonly topic: ITopic;
}

/**
 * Alarms that tell the merchant, by email through SNS, that money may be going unprocessed:
 * Lambda errors and throttles, webhook 5xx answers, API 5xx and 429 answers, orders that only the
 * reconciler caught, a reconciler that stopped running, SES reputation, refused customer emails.
 * Most treat missing data as fine (a quiet shop is not a broken one); the heartbeat does not.
 */
export class ShopMonitoring extends Construct {
  readonly topic: ITopic;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: ShopMonitoringProps) {
    super(scope, id);
    this.topic = props.topic;
    this.action = new SnsAction(this.topic);
  }

  /** Errors (uncaught exceptions, timeouts, crashes) and throttles of one function. */
  monitorFunction(id: string, fn: IFunction): void {
    this.alarm(`${id}Errors`, {
      metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
      description: `${id}: the function failed (exception, timeout or crash). Check its log group.`,
    });
    this.alarm(`${id}Throttles`, {
      metric: fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
      description: `${id}: requests were refused for lack of concurrency (reserved concurrency or account quota).`,
    });
  }

  /**
   * Webhook requests answered with a 5xx, counted from the API access log so that handled failures
   * (the handler answering 500 so Stripe retries) count as much as crashes and timeouts.
   */
  monitorWebhookServerErrors(accessLogs: ILogGroup, webhookRouteKey: string): void {
    new MetricFilter(this, 'WebhookServerErrorsFilter', {
      logGroup: accessLogs,
      filterPattern: FilterPattern.all(
        FilterPattern.stringValue('$.routeKey', '=', webhookRouteKey),
        FilterPattern.stringValue('$.status', '=', '5*'),
      ),
      metricNamespace: METRICS_NAMESPACE,
      metricName: WEBHOOK_SERVER_ERRORS_METRIC,
      metricValue: '1',
    });
    this.alarm('WebhookServerErrors', {
      metric: new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: WEBHOOK_SERVER_ERRORS_METRIC,
        statistic: 'Sum',
        period: FIVE_MINUTES,
      }),
      description:
        'The Stripe webhook answered 5xx: orders are not being recorded. Stripe retries for 3 days and the reconciler catches up, but find the cause.',
    });
  }

  /** Any route answering 5xx (a sustained burst, not one blip): customers are seeing "Checkout Failed". */
  monitorApiServerErrors(api: IHttpApi): void {
    this.alarm('ApiServerErrors', {
      metric: api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
      threshold: 5,
      description: 'The shop API answered 5 or more 5xx in 5 minutes.',
    });
  }

  /** The reconciler fulfilled orders whose webhook never arrived. */
  monitorMissedOrders(): void {
    this.alarm('ReconcilerFulfilledMissedOrders', {
      metric: shopMetric(MISSED_ORDERS_METRIC, Duration.minutes(15)),
      description:
        'The reconciler found paid Checkout Sessions with no order and fulfilled them: the webhook is missing events (endpoint, secret or Stripe registration).',
    });
  }

  /** A customer paid an amount, currency or quantity we did not price: not fulfilled automatically. */
  monitorPaidCheckoutsNeedingReview(): void {
    this.alarm('PaidCheckoutNeedsReview', {
      metric: shopMetric(NEEDS_REVIEW_METRIC, FIVE_MINUTES),
      description:
        'A paid Checkout Session does not match the price table and was NOT fulfilled. Check the function log for the session id, then refund or fulfil by hand.',
    });
  }

  private alarm(id: string, options: { metric: Metric; description: string; threshold?: number }): Alarm {
    const alarm = new Alarm(this, id, {
      metric: options.metric,
      threshold: options.threshold ?? 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: options.description,
    });
    alarm.addAlarmAction(this.action);
    return alarm;
  }
}

function shopMetric(metricName: string, period: Duration): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { ...SHOP_METRIC_DIMENSIONS },
    statistic: 'Sum',
    period,
  });
}
