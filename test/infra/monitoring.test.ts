import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routeKeyOf } from '../../infra/lib/constructs/checkout-api';
import { WEBHOOK_SERVER_ERRORS_METRIC } from '../../infra/lib/constructs/monitoring';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { fromDataStack, logicalIdOf, synthShop } from './support';

describe('ShopMonitoring', () => {
  let stack: ShopStack;
  let template: Template;
  let dataTemplate: Template;
  /** The topic as the data stack names it. */
  let topicRef: { Ref: string };
  /** The topic as the app stack's alarms name it: an output of the data stack. */
  let alarmTopic: ReturnType<typeof fromDataStack>;

  beforeAll(() => {
    ({ stack, template, dataTemplate } = synthShop());
    topicRef = { Ref: logicalIdOf(stack.data.alarms.topic) };
    alarmTopic = fromDataStack(stack.data, topicRef);
  }, 120_000);

  it('emails the alarms through an SNS topic in the data stack, to the merchant unless alarmEmail is set', () => {
    template.resourceCountIs('AWS::SNS::Topic', 0);
    dataTemplate.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'merchant@example.com',
      TopicArn: topicRef,
    });
  });

  it('refuses publishes that are not over TLS', () => {
    dataTemplate.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [topicRef],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 'sns:Publish',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  describe("the alarm topic policy (which replaces SNS's default policy)", () => {
    const statements = () => {
      const policies = Object.values(dataTemplate.findResources('AWS::SNS::TopicPolicy'));
      expect(policies).toHaveLength(1);
      return z
        .array(z.record(z.string(), z.unknown()))
        .parse(policies[0]?.Properties.PolicyDocument.Statement);
    };

    it('lets CloudWatch publish, only for alarms of this account and region', () => {
      const cloudWatch = statements().filter(
        (s) => JSON.stringify(s.Principal) === JSON.stringify({ Service: 'cloudwatch.amazonaws.com' }),
      );
      expect(cloudWatch).toEqual([
        {
          Sid: 'AllowCloudWatchAlarmsOfThisAccount',
          Effect: 'Allow',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
          Action: 'sns:Publish',
          Resource: topicRef,
          Condition: {
            StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
            ArnLike: {
              'aws:SourceArn': {
                'Fn::Join': ['', ['arn:aws:cloudwatch:eu-west-2:', { Ref: 'AWS::AccountId' }, ':alarm:*']],
              },
            },
          },
        },
      ]);
    });

    it("still lets SES report delivery problems from the shop's configuration set", () => {
      const ses = statements().filter(
        (s) => JSON.stringify(s.Principal) === JSON.stringify({ Service: 'ses.amazonaws.com' }),
      );
      expect(ses).toHaveLength(1);
      expect(ses[0]).toMatchObject({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Condition: { StringEquals: { 'AWS:SourceAccount': { Ref: 'AWS::AccountId' } } },
      });
    });

    it('allows nobody else: every Allow names a service principal and a source condition', () => {
      for (const statement of statements().filter((s) => s.Effect === 'Allow')) {
        expect(statement.Principal).toEqual({ Service: expect.stringMatching(/\.amazonaws\.com$/) });
        expect(JSON.stringify(statement.Condition)).toMatch(/SourceAccount/i);
      }
    });
  });

  it.each([
    'CreateCheckout',
    'CheckoutStatus',
    'StripeWebhook',
    'ReconcileOrders',
    'AdminApi',
    'OrderPage',
  ] as const)('alarms on any error or throttle of %s', (name) => {
    const fn = {
      CreateCheckout: stack.functions.createCheckout,
      CheckoutStatus: stack.functions.checkoutStatus,
      StripeWebhook: stack.functions.stripeWebhook,
      ReconcileOrders: stack.functions.reconcileOrders,
      AdminApi: stack.functions.adminApi,
      OrderPage: stack.functions.orderPage,
    }[name];
    for (const metric of ['Errors', 'Throttles']) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/Lambda',
        MetricName: metric,
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(fn.function) } }],
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        AlarmActions: [alarmTopic],
      });
    }
  });

  it('counts webhook answers with a 5xx from the access log and alarms on the first', () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: logicalIdOf(stack.api.accessLogs) },
      FilterPattern: `{ ($.routeKey = "${routeKeyOf('stripeWebhook')}") && ($.status = "5*") }`,
      MetricTransformations: [
        { MetricNamespace: 'LiveAquatics', MetricName: WEBHOOK_SERVER_ERRORS_METRIC, MetricValue: '1' },
      ],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'LiveAquatics',
      MetricName: WEBHOOK_SERVER_ERRORS_METRIC,
      Threshold: 1,
      AlarmActions: [alarmTopic],
    });
  });

  it('alarms on a burst of API 5xx (customers seeing "Checkout Failed")', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: logicalIdOf(stack.api.httpApi) } }],
      Threshold: 5,
      AlarmActions: [alarmTopic],
    });
  });

  it.each([
    ['ReconcilerFulfilledMissedOrders', 900],
    ['PaidCheckoutNeedsReview', 300],
  ])('alarms when the functions report %s (EMF, service dimension)', (metricName, period) => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'LiveAquatics',
      MetricName: metricName,
      Dimensions: [{ Name: 'service', Value: 'live-aquatics-shop' }],
      Statistic: 'Sum',
      Period: period,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [alarmTopic],
    });
  });

  it('sends every alarm to the topic and treats a quiet shop as healthy, except the heartbeat', () => {
    const alarms = Object.entries(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms).toHaveLength(7 * 2 + 10);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([alarmTopic]);
      expect([id, alarm.Properties.TreatMissingData]).toEqual([
        id,
        id.includes('Heartbeat') ? 'breaching' : 'notBreaching',
      ]);
    }
  });

  it('alarms on more than 50 order requests in an hour (a requests-mode flood)', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'LiveAquatics',
      MetricName: 'OrderRequests',
      Dimensions: [{ Name: 'service', Value: 'live-aquatics-shop' }],
      Statistic: 'Sum',
      Period: 3600,
      Threshold: 50,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      AlarmActions: [alarmTopic],
    });
  });

  it('counts 429 answers from the access log and alarms on 10 in 5 minutes', () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: logicalIdOf(stack.api.accessLogs) },
      FilterPattern: '{ $.status = "429" }',
      MetricTransformations: [
        { MetricNamespace: 'LiveAquatics', MetricName: 'ApiThrottledRequests', MetricValue: '1' },
      ],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'LiveAquatics',
      MetricName: 'ApiThrottledRequests',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 10,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [alarmTopic],
    });
  });

  it('alarms when the reconciler has not reported a run for an hour, missing data counting as down', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'LiveAquatics',
      MetricName: 'ReconcilerFulfilledMissedOrders',
      Dimensions: [{ Name: 'service', Value: 'live-aquatics-shop' }],
      Statistic: 'SampleCount',
      Period: 3600,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
      AlarmActions: [alarmTopic],
    });
  });

  it.each([
    ['Reputation.BounceRate', 0.05],
    ['Reputation.ComplaintRate', 0.001],
  ])("alarms on the SES %s at AWS's review level (%s)", (metricName, threshold) => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SES',
      MetricName: metricName,
      Statistic: 'Maximum',
      Period: 3600,
      Threshold: threshold,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [alarmTopic],
    });
  });

  it('has no forecast key alarm on a stage that does not declare commercial use (dev: free)', () => {
    expect(
      Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
        (alarm) => alarm.Properties.MetricName,
      ),
    ).not.toContain('ForecastKeyUnreadable');
  });

  describe('a stage that declares commercial use (forecastPlan commercial, issue 48)', () => {
    let commercial: Template;
    let commercialTopic: ReturnType<typeof fromDataStack>;

    beforeAll(() => {
      const shop = synthShop({ forecastPlan: 'commercial' });
      commercial = shop.template;
      commercialTopic = fromDataStack(shop.stack.data, { Ref: logicalIdOf(shop.stack.data.alarms.topic) });
    }, 120_000);

    it('alarms on the first weather check of a day without a readable Open-Meteo key', () => {
      commercial.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'LiveAquatics',
        MetricName: 'ForecastKeyUnreadable',
        Dimensions: [{ Name: 'service', Value: 'live-aquatics-shop' }],
        Statistic: 'Sum',
        Period: 86400,
        Threshold: 1,
        EvaluationPeriods: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: [commercialTopic],
        AlarmDescription: Match.stringLikeRegexp(
          '^Stage dev declares commercial use, .*npm run setup -- --stage dev \\(--open-meteo-key\\)',
        ),
      });
      commercial.resourceCountIs('AWS::CloudWatch::Alarm', 7 * 2 + 10 + 1);
    });

    it('tells both weather functions the plan, so they count a missing key', () => {
      const plans = Object.values(commercial.findResources('AWS::Lambda::Function'))
        .map((fn) => fn.Properties.Environment?.Variables ?? {})
        .filter((variables) => 'FORECAST_API_KEY_SECRET_ID' in variables)
        .map((variables) => variables.FORECAST_PLAN);
      expect(plans).toEqual(['commercial', 'commercial']);
    });
  });

  describe('the dashboard (issue 22: sold-out days seen, no alarm)', () => {
    const widgetSchema = z.object({
      type: z.string(),
      properties: z.looseObject({ title: z.string() }),
    });
    /**
     * The dashboard's body as JSON, each CloudFormation reference (`Ref`, inside a JSON string of
     * the body) written as `<Ref:logical id>`.
     */
    const body = () => {
      const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
      expect(dashboards).toHaveLength(1);
      const parts = z
        .object({
          'Fn::Join': z.tuple([z.literal(''), z.array(z.union([z.string(), z.object({ Ref: z.string() })]))]),
        })
        .parse(dashboards[0]?.Properties.DashboardBody)['Fn::Join'][1];
      const text = parts.map((part) => (typeof part === 'string' ? part : `<Ref:${part.Ref}>`)).join('');
      return z.looseObject({ widgets: z.array(widgetSchema) }).parse(JSON.parse(text));
    };
    const widget = (title: string) => {
      const found = body().widgets.filter((w) => w.properties.title === title);
      expect(found, title).toHaveLength(1);
      return found[0]?.properties;
    };

    it("is named after the stage, so each stage's is its own", () => {
      template.hasResourceProperties('AWS::CloudWatch::Dashboard', {
        DashboardName: 'live-aquatics-shop-dev',
      });
    });

    it('draws DispatchDaySoldOut (namespace LiveAquatics, service dimension) as a sum per day', () => {
      expect(widget('Dispatch days sold out')?.metrics).toEqual([
        [
          'LiveAquatics',
          'DispatchDaySoldOut',
          'service',
          'live-aquatics-shop',
          expect.objectContaining({ stat: 'Sum', period: 86400 }),
        ],
      ]);
      // "auto" would change the period with the time range: a point would no longer be one day.
      expect(body().periodOverride).toBe('inherit');
    });

    it('lists which dispatch day sold out, from the logs of the functions that make the sales', () => {
      const query = z.string().parse(widget('Which dispatch days sold out (newest first)')?.query);
      expect(query).toContain(`SOURCE '<Ref:${logicalIdOf(stack.functions.stripeWebhook.logGroup)}>'`);
      expect(query).toContain(`SOURCE '<Ref:${logicalIdOf(stack.functions.reconcileOrders.logGroup)}>'`);
      expect(query).toMatch(/fields dispatchDate, .*\| filter ispresent\(DispatchDaySoldOut\)/s);
    });

    it("draws OrderRequests with the same metric as the flood alarm, and the alarm's threshold as a line", () => {
      const orderRequests = widget('Order requests per hour (requests mode)');
      expect(orderRequests?.metrics).toEqual([
        [
          'LiveAquatics',
          'OrderRequests',
          'service',
          'live-aquatics-shop',
          expect.objectContaining({ stat: 'Sum', period: 3600 }),
        ],
      ]);
      expect(orderRequests?.annotations).toEqual({
        horizontal: [expect.objectContaining({ value: 50 })],
      });
    });

    it('adds no alarm: no alarm widget, and the alarm count is what it was', () => {
      template.resourceCountIs('AWS::CloudWatch::Alarm', 7 * 2 + 10);
      expect(body().widgets.map((w) => w.type)).toEqual(['metric', 'log', 'metric']);
      expect(JSON.stringify(body())).not.toMatch(/"alarms"|:alarm:/);
    });

    it('is an output: its console address in the stack region', () => {
      expect(template.toJSON().Outputs.DashboardUrl.Value).toEqual({
        'Fn::Join': [
          '',
          [
            'https://eu-west-2.console.aws.amazon.com/cloudwatch/home?region=eu-west-2#dashboards/dashboard/',
            { Ref: logicalIdOf(stack.monitoring.dashboard) },
          ],
        ],
      });
    });
  });

  it('alarms on the first customer confirmation SES refused (CustomerEmailRefused)', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'LiveAquatics',
      MetricName: 'CustomerEmailRefused',
      Dimensions: [{ Name: 'service', Value: 'live-aquatics-shop' }],
      Statistic: 'Sum',
      Threshold: 1,
      AlarmActions: [alarmTopic],
    });
  });
});
