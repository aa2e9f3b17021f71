import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  LogQueryWidget,
  Metric,
  PeriodOverride,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { METRIC_DIMENSIONS, METRIC_NAMES, METRICS_NAMESPACE } from '../../../lambdas/lib/metrics';

// The functions' own metrics (Embedded Metric Format) are named in lambdas/lib/metrics.ts; the
// two below are infra's, derived from the API's access log.

/** Derived from the API access log: requests refused with 429 (API Gateway throttles). */
export const API_THROTTLED_METRIC = 'ApiThrottledRequests';

/** SES account reputation: AWS reviews an account at 5 % bounces or 0.1 % complaints. */
export const SES_REPUTATION_THRESHOLDS = { bounceRate: 0.05, complaintRate: 0.001 } as const;

/** Derived from the API access log: webhook requests that got a 5xx, whoever produced it. */
export const WEBHOOK_SERVER_ERRORS_METRIC = 'WebhookServerErrors';

const FIVE_MINUTES = Duration.minutes(5);

/** More order requests than this in an hour raise `OrderRequestsFlood`; the dashboard draws the line. */
export const ORDER_REQUESTS_FLOOD_PER_HOUR = 50;

export interface AlarmTopicProps {
  /** Receives every alarm (the SNS subscription must be confirmed from this inbox once). */
  readonly alarmEmail: string;
}

/** The SNS topic of every alarm, in the stateful stack: a new one needs its subscription confirmed again. */
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
    // Any statement makes CDK write a topic policy replacing SNS's default, which is what lets
    // CloudWatch publish: without this every alarm is silent. Limited to this account and region.
    const stack = Stack.of(this);
    const allowPublishFrom = (sid: string, service: string, sourceArn: string) =>
      this.topic.addToResourcePolicy(
        new PolicyStatement({
          sid,
          principals: [new ServicePrincipal(`${service}.amazonaws.com`)],
          actions: ['sns:Publish'],
          resources: [this.topic.topicArn],
          conditions: {
            StringEquals: { 'aws:SourceAccount': stack.account },
            ArnLike: { 'aws:SourceArn': sourceArn },
          },
        }),
      );
    allowPublishFrom(
      'AllowCloudWatchAlarmsOfThisAccount',
      'cloudwatch',
      stack.formatArn({
        service: 'cloudwatch',
        resource: 'alarm',
        resourceName: '*',
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    );
    // AWS Budgets publishes its warnings the same way; budgets are global (no region in the ARN).
    allowPublishFrom(
      'AllowBudgetsOfThisAccount',
      'budgets',
      stack.formatArn({ service: 'budgets', region: '', resource: 'budget', resourceName: '*' }),
    );
  }
}

export interface ShopMonitoringProps {
  /** Where every alarm goes (see {@link AlarmTopic}). */
  readonly topic: ITopic;
  /** The CloudWatch dashboard's name: one per stage, so two stages in one account and region never clash. */
  readonly dashboardName: string;
}

/**
 * Alarms that mail the merchant when money may be going unprocessed. Most treat missing data as fine
 * (a quiet shop is not a broken one); the heartbeat does not. Beside them, a dashboard of what need
 * not wake anyone (sold-out days, order requests).
 */
export class ShopMonitoring extends Construct {
  readonly topic: ITopic;
  readonly dashboard: Dashboard;
  private readonly action: SnsAction;
  /** Each metric defined once, for its alarm and its widget alike. */
  private readonly metrics = {
    orderRequestsPerHour: shopMetric(METRIC_NAMES.orderRequests, Duration.hours(1)),
    dispatchDaysSoldOutPerDay: shopMetric(METRIC_NAMES.dispatchDaySoldOut, Duration.days(1)),
  };

  constructor(scope: Construct, id: string, props: ShopMonitoringProps) {
    super(scope, id);
    this.topic = props.topic;
    this.action = new SnsAction(this.topic);
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.days(28),
      // Fixed periods: "auto" would change them with the time range, and a day's count would not read as one.
      periodOverride: PeriodOverride.INHERIT,
    });
  }

  /** The dashboard in the CloudWatch console of the stack's region. */
  get dashboardUrl(): string {
    const { region } = Stack.of(this);
    return `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards/dashboard/${this.dashboard.dashboardName}`;
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

  /** Webhook 5xx from the access log, so handled 500s (for Stripe to retry) count as much as crashes. */
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
      metric: shopMetric(METRIC_NAMES.reconcilerFulfilledMissedOrders, Duration.minutes(15)),
      description:
        'The reconciler found paid Checkout Sessions with no order and fulfilled them: the webhook is missing events (endpoint, secret or Stripe registration).',
    });
  }

  /** Requests refused with 429: the route throttle is being hit (a flood, or traffic outgrowing it). */
  monitorThrottledRequests(accessLogs: ILogGroup): void {
    new MetricFilter(this, 'ApiThrottledFilter', {
      logGroup: accessLogs,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: METRICS_NAMESPACE,
      metricName: API_THROTTLED_METRIC,
      metricValue: '1',
    });
    this.alarm('ApiThrottledRequests', {
      metric: new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: API_THROTTLED_METRIC,
        statistic: 'Sum',
        period: FIVE_MINUTES,
      }),
      threshold: 10,
      description:
        'The API answered 10 or more 429s in 5 minutes: customers may be seeing "Too many requests" at checkout. Check the access log (viewerAddress, routeKey) and the WAF sampled requests.',
    });
  }

  /** The reconciler's heartbeat: no report for an hour means it stopped. Missing data is the alarm here. */
  monitorReconcilerHeartbeat(): void {
    this.alarm('ReconcilerHeartbeat', {
      metric: shopMetric(METRIC_NAMES.reconcilerFulfilledMissedOrders, Duration.hours(1), 'SampleCount'),
      threshold: 1,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.BREACHING,
      description:
        'The reconciler has not completed a run for an hour (it runs every 15 minutes): paid orders whose webhook was lost are not being caught. Check its log group and the ReconcileSchedule rule.',
    });
  }

  /** SES account reputation (account-wide, per region): above these AWS reviews or pauses sending. */
  monitorSesReputation(): void {
    const reputation = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: Duration.hours(1) });
    this.alarm('SesBounceRate', {
      metric: reputation('Reputation.BounceRate'),
      threshold: SES_REPUTATION_THRESHOLDS.bounceRate,
      description:
        'SES bounce rate is 5 % or more: AWS reviews the account at 5 % and may pause sending at 10 %. Check the bounces (mailed to this address) and the suppression list.',
    });
    this.alarm('SesComplaintRate', {
      metric: reputation('Reputation.ComplaintRate'),
      threshold: SES_REPUTATION_THRESHOLDS.complaintRate,
      description:
        'SES complaint rate is 0.1 % or more: AWS reviews the account at 0.1 % and may pause sending at 0.5 %.',
    });
  }

  /** SES refused a customer's confirmation: the order stands, but the customer has no email. */
  monitorCustomerEmailRefused(): void {
    this.alarm('CustomerEmailRefused', {
      metric: shopMetric(METRIC_NAMES.customerEmailRefused, FIVE_MINUTES),
      description:
        'SES refused an order confirmation to a customer (e.g. a mistyped address): the order is recorded but the customer was not told. Find it in the webhook log and contact the customer.',
    });
  }

  /** A customer paid an amount, currency or quantity we did not price: not fulfilled automatically. */
  monitorPaidCheckoutsNeedingReview(): void {
    this.alarm('PaidCheckoutNeedsReview', {
      metric: shopMetric(METRIC_NAMES.paidCheckoutNeedsReview, FIVE_MINUTES),
      description:
        'A paid Checkout Session does not match the price table and was NOT fulfilled. Check the function log for the session id, then refund or fulfil by hand.',
    });
  }

  /**
   * More order requests in an hour than a small shop gets in a good week: a flood. Check
   * `orders list --status requested` and the access log for the sender's address.
   */
  monitorOrderRequests(): void {
    this.alarm('OrderRequestsFlood', {
      metric: this.metrics.orderRequestsPerHour,
      threshold: ORDER_REQUESTS_FLOOD_PER_HOUR,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      description: `More than ${ORDER_REQUESTS_FLOOD_PER_HOUR} order requests in an hour (requests mode): most likely a flood. Each is recorded; the merchant is notified of a few per hour. Check npm run orders -- list --status requested, and consider pausing.`,
    });
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Order requests per hour (requests mode)',
        left: [this.metrics.orderRequestsPerHour.with({ label: 'Order requests' })],
        leftYAxis: { min: 0, showUnits: false },
        leftAnnotations: [{ value: ORDER_REQUESTS_FLOOD_PER_HOUR, label: 'Flood alarm above this' }],
        width: 12,
      }),
    );
  }

  /**
   * A trading stage checked the weather without a readable Open-Meteo key (the free endpoint), summed
   * over a day so the alarm holds while the key is missing.
   */
  monitorForecastKey(stage: string): void {
    this.alarm('ForecastKeyUnreadable', {
      metric: shopMetric(METRIC_NAMES.forecastKeyUnreadable, Duration.days(1)),
      description: `Stage ${stage} declares commercial use, but the weather check could not read Open-Meteo's key and asks the free endpoint, which is for non-commercial use only. Store the key with npm run setup -- --stage ${stage} (--open-meteo-key), then npm run doctor -- --stage ${stage}; the admin's weather card says the same.`,
    });
  }

  /**
   * Sold-out days, on the dashboard only: a full day is the limit working, not a fault. The table
   * reads each sale's `dispatchDate` from the webhook's and reconciler's metric lines.
   */
  monitorDispatchDaysSoldOut(logGroups: readonly ILogGroup[]): void {
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Dispatch days sold out',
        left: [
          this.metrics.dispatchDaysSoldOutPerDay.with({
            label: 'Dispatch days filled, by the day of the filling sale',
          }),
        ],
        leftYAxis: { min: 0, showUnits: false },
        width: 12,
      }),
      new LogQueryWidget({
        title: 'Which dispatch days sold out (newest first)',
        logGroupNames: logGroups.map((group) => group.logGroupName),
        queryLines: [
          'fields dispatchDate, sold, capacity, @timestamp as filledAt',
          `filter ispresent(${METRIC_NAMES.dispatchDaySoldOut})`,
          'sort @timestamp desc',
          'limit 50',
        ],
        width: 12,
      }),
    );
  }

  private alarm(
    id: string,
    options: {
      metric: Metric;
      description: string;
      threshold?: number;
      comparisonOperator?: ComparisonOperator;
      treatMissingData?: TreatMissingData;
    },
  ): Alarm {
    const alarm = new Alarm(this, id, {
      metric: options.metric,
      threshold: options.threshold ?? 1,
      evaluationPeriods: 1,
      comparisonOperator: options.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: options.treatMissingData ?? TreatMissingData.NOT_BREACHING,
      alarmDescription: options.description,
    });
    alarm.addAlarmAction(this.action);
    return alarm;
  }
}

function shopMetric(metricName: string, period: Duration, statistic = 'Sum'): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { ...METRIC_DIMENSIONS },
    statistic,
    period,
  });
}
