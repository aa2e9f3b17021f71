import { CfnOutput, RemovalPolicy, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import { type IPublicHostedZone, PublicHostedZone } from 'aws-cdk-lib/aws-route53';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { SECRET_OUTPUT_KEYS } from '../../shared/stack-outputs';
import type { ShopConfig } from './config';
import { ShopEmail } from './constructs/email';
import { AlarmTopic } from './constructs/monitoring';
import { OrdersTable } from './constructs/orders-table';
import {
  ForecastKeySecret,
  STRIPE_SECRETS,
  type StripeSecretName,
  StripeSecrets,
  VapidKeySecret,
} from './constructs/secrets';
import { acknowledgeNag } from './nag';

export interface ShopDataStackProps extends StackProps {
  readonly config: ShopConfig;
}

/** What holds state or must not be recreated; termination protection on, read through stack outputs. */
export class ShopDataStack extends Stack {
  readonly orders: OrdersTable;
  readonly stripeSecrets: StripeSecrets;
  /** The order page's sealing key (ADR 0037): stateful like the orders its links open. */
  readonly orderPageSecret: Secret;
  readonly forecastKey: ForecastKeySecret;
  /** The VAPID pair that signs the merchant's pushes: stateful like the subscriptions made with it. */
  readonly vapidKey: VapidKeySecret;
  readonly email: ShopEmail;
  readonly alarms: AlarmTopic;
  readonly hostedZone: IPublicHostedZone | undefined;

  constructor(scope: Construct, id: string, props: ShopDataStackProps) {
    super(scope, id, { terminationProtection: true, ...props });
    const { config } = props;
    Tags.of(this).add('project', 'live-aquatics');
    Tags.of(this).add('stage', config.stage);

    this.hostedZone =
      config.hostedZoneId !== undefined && config.hostedZoneName !== undefined
        ? PublicHostedZone.fromPublicHostedZoneAttributes(this, 'HostedZone', {
            hostedZoneId: config.hostedZoneId,
            zoneName: config.hostedZoneName,
          })
        : undefined;

    this.alarms = new AlarmTopic(this, 'Monitoring', {
      alarmEmail: config.alarmEmail ?? config.merchantEmail,
    });
    this.stripeSecrets = new StripeSecrets(this, 'StripeSecrets', { stage: config.stage });
    this.orderPageSecret = new Secret(this, 'OrderPageSecret', {
      description: `Live Aquatics (${config.stage}): seals the order page links in customers' emails; replacing it breaks every link sent (docs/deploy.md)`,
      // Generated once by CloudFormation (the template's settings never change, so updates keep it);
      // the token code wants at least 32 characters.
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    acknowledgeNag(
      this.orderPageSecret,
      'AwsSolutions-SMG4',
      'Rotating it would make every order page link already emailed a 404. Control: only the functions that make or open links may read it; a single link is revoked per order from the admin page (docs/deploy.md).',
    );
    this.forecastKey = new ForecastKeySecret(this, 'ForecastKey', { stage: config.stage });
    this.vapidKey = new VapidKeySecret(this, 'VapidKey', { stage: config.stage });
    this.email = new ShopEmail(this, 'Email', {
      identityMode: config.sesIdentity,
      senderEmail: config.senderEmail,
      merchantEmail: config.merchantEmail,
      hostedZone: this.hostedZone,
      deliveryProblemsTopic: this.alarms.topic,
    });
    this.orders = new OrdersTable(this, 'Orders');
    // Created last: if a first deploy fails elsewhere, the rollback never meets its deletion protection.
    this.orders.node.addDependency(
      this.email,
      this.stripeSecrets,
      this.orderPageSecret,
      this.forecastKey,
      this.vapidKey,
      this.alarms,
    );

    this.addCostBudget(config);
    this.addOutputs();
  }

  /** The month's cost budget: the alarm topic hears at 80 % actual and 100 % forecast spend. */
  private addCostBudget(config: ShopConfig): void {
    new CfnBudget(this, 'CostBudget', {
      budget: {
        budgetName: `LiveAquatics-${config.stage}`,
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: config.monthlyBudgetUsd, unit: 'USD' },
      },
      notificationsWithSubscribers: [
        { type: 'ACTUAL', threshold: 80 },
        { type: 'FORECASTED', threshold: 100 },
      ].map(({ type, threshold }) => ({
        notification: {
          notificationType: type,
          comparisonOperator: 'GREATER_THAN',
          threshold,
          thresholdType: 'PERCENTAGE',
        },
        subscribers: [{ subscriptionType: 'SNS', address: this.alarms.topic.topicArn }],
      })),
    });
  }

  /** The secrets' names and the topic, read by `npm run setup` and the operator. */
  private addOutputs(): void {
    for (const name of Object.keys(STRIPE_SECRETS) as StripeSecretName[]) {
      new CfnOutput(this, SECRET_OUTPUT_KEYS[name], {
        value: this.stripeSecrets.secrets[name].secretName,
        description: `Holds {"${STRIPE_SECRETS[name].jsonKey}": "${STRIPE_SECRETS[name].example}"}, stored by npm run setup -- --stage <stage>`,
      });
    }
    new CfnOutput(this, SECRET_OUTPUT_KEYS.forecastKey, {
      value: this.forecastKey.secret.secretName,
      description:
        'Holds {"openMeteoApiKey": "<key, or empty for the free endpoint>"}, stored by npm run setup -- --stage <stage>',
    });
    new CfnOutput(this, SECRET_OUTPUT_KEYS.vapidKey, {
      value: this.vapidKey.secret.secretName,
      description:
        'Holds {"vapidPublicKey": "...", "vapidPrivateKey": "..."}, the pair npm run setup -- --stage <stage> makes',
    });
    new CfnOutput(this, 'OrdersTableName', { value: this.orders.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarms.topic.topicArn,
      description: 'Alarms; confirm the email subscription',
    });
  }
}
