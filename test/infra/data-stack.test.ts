import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShopDataStack } from '../../infra/lib/data-stack';
import { logicalIdOf, synthShop } from './support';

/*
 * The stateful stack of a stage: what a first deploy on a fresh account needs, and what must
 * survive the app stack being deleted or failing.
 */
describe('ShopDataStack', () => {
  let data: ShopDataStack;
  let dataTemplate: Template;

  beforeAll(() => {
    ({ data, dataTemplate } = synthShop());
  }, 120_000);

  it('names npm run setup as what fills each Stripe secret, in the outputs an operator reads', () => {
    const outputs = dataTemplate.toJSON().Outputs as Record<string, { Description?: string }>;
    const descriptions = Object.values(outputs)
      .map((output) => output.Description ?? '')
      .filter((text) => text.startsWith('Holds {"stripe'));
    expect(descriptions.sort()).toEqual([
      'Holds {"stripeSecretKey": "<restricted key>"}, stored by npm run setup -- --stage <stage>',
      'Holds {"stripeSecretKey": "<restricted key>"}, stored by npm run setup -- --stage <stage>',
      'Holds {"stripeWebhookSecret": "<endpoint signing secret>"}, stored by npm run setup -- --stage <stage>',
    ]);
  });

  it('names npm run setup as what fills the optional Open-Meteo key, which starts empty: the free endpoint', () => {
    const outputs = dataTemplate.toJSON().Outputs as Record<string, { Description?: string }>;
    expect(outputs.OpenMeteoKeySecretName?.Description).toBe(
      'Holds {"openMeteoApiKey": "<key, or empty for the free endpoint>"}, stored by npm run setup -- --stage <stage>',
    );
    const secret = dataTemplate.toJSON().Resources[logicalIdOf(data.forecastKey.secret)];
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString).toEqual({
      SecretStringTemplate: '{"openMeteoApiKey":""}',
      GenerateStringKey: 'placeholder',
      PasswordLength: 8,
      ExcludePunctuation: true,
    });
  });

  it('has termination protection', () => {
    expect(data.terminationProtection).toBe(true);
  });

  it('holds the table, the secrets, SES and the alarm topic; the app stack holds none of them', () => {
    const types = Object.values(dataTemplate.toJSON().Resources as Record<string, { Type: string }>).map(
      (r) => r.Type,
    );
    for (const type of [
      'AWS::DynamoDB::Table',
      'AWS::SecretsManager::Secret',
      'AWS::SES::ConfigurationSet',
      'AWS::SES::EmailIdentity',
      'AWS::SNS::Topic',
      'AWS::Budgets::Budget',
    ]) {
      expect(types, type).toContain(type);
    }
    expect(types).not.toContain('AWS::Lambda::Function');
  });

  it('creates the table last, so a failed first create never has to delete a protected table', () => {
    const resources = dataTemplate.toJSON().Resources as Record<
      string,
      { Type: string; DependsOn?: string[] }
    >;
    const table = logicalIdOf(data.orders.table);
    const others = Object.keys(resources).filter(
      (id) => id !== table && resources[id]?.Type !== 'AWS::Budgets::Budget',
    );
    expect([...(resources[table]?.DependsOn ?? [])].sort()).toEqual(others.sort());
  });

  it('keeps nothing behind when its first create fails: every retained resource is RetainExceptOnCreate', () => {
    const resources = Object.entries(
      dataTemplate.toJSON().Resources as Record<string, { DeletionPolicy?: string }>,
    ).filter(([, r]) => r.DeletionPolicy !== undefined);
    // The table, the three Stripe secrets, Open-Meteo's key, the order page's secret and the VAPID pair.
    expect(resources.length).toBe(7);
    for (const [id, resource] of resources) {
      expect([id, resource.DeletionPolicy]).toEqual([id, 'RetainExceptOnCreate']);
    }
  });

  it('warns the alarm address at 80 % of the monthly budget spent and 100 % forecast', () => {
    dataTemplate.hasResourceProperties('AWS::Budgets::Budget', {
      Budget: {
        BudgetName: 'LiveAquatics-dev',
        BudgetType: 'COST',
        TimeUnit: 'MONTHLY',
        BudgetLimit: { Amount: 20, Unit: 'USD' },
      },
      NotificationsWithSubscribers: [
        {
          Notification: {
            NotificationType: 'ACTUAL',
            Threshold: 80,
            ThresholdType: 'PERCENTAGE',
            ComparisonOperator: 'GREATER_THAN',
          },
          Subscribers: [{ SubscriptionType: 'SNS', Address: { Ref: logicalIdOf(data.alarms.topic) } }],
        },
        {
          Notification: {
            NotificationType: 'FORECASTED',
            Threshold: 100,
            ThresholdType: 'PERCENTAGE',
            ComparisonOperator: 'GREATER_THAN',
          },
          Subscribers: [{ SubscriptionType: 'SNS', Address: { Ref: logicalIdOf(data.alarms.topic) } }],
        },
      ],
    });
  });

  it("lets AWS Budgets publish to the alarm topic, for this account's budgets only", () => {
    const policy = Object.values(dataTemplate.findResources('AWS::SNS::TopicPolicy'))[0];
    const budgets = policy?.Properties.PolicyDocument.Statement.filter(
      (s: { Principal?: unknown }) => JSON.stringify(s.Principal) === '{"Service":"budgets.amazonaws.com"}',
    );
    expect(budgets).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Condition: {
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
          ArnLike: {
            'aws:SourceArn': {
              'Fn::Join': ['', ['arn:aws:budgets::', { Ref: 'AWS::AccountId' }, ':budget/*']],
            },
          },
        },
      }),
    ]);
  });
});
