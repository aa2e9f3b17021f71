import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { environmentOf, logicalIdOf, statementsOfRole, synthShop } from './support';

// The daily weather notice in the stack: its own function (not the reconciler's) on a daily cron
// rule, with only the table keys, email and settings it needs.
describe('the weather notice', () => {
  let stack: ShopStack;
  let template: Template;

  beforeAll(() => {
    ({ stack, template } = synthShop());
  }, 120_000);

  it('runs its own function daily at 18:30 UTC (18:30 GMT, 19:30 BST), no retries', () => {
    const id = logicalIdOf(stack.functions.weatherNotice.function);
    expect(id).not.toBe(logicalIdOf(stack.functions.reconcileOrders.function));
    const rules = Object.values(template.findResources('AWS::Events::Rule')).filter((rule) =>
      JSON.stringify(rule.Properties.Targets).includes(id),
    );
    expect(rules.map((rule) => rule.Properties.ScheduleExpression)).toEqual(['cron(30 18 * * ? *)']);
    expect(rules[0]?.Properties.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
  });

  it('is told the table, the merchant, the forecast and the site; the admin gets the forecast too', () => {
    const resources = template.toJSON().Resources;
    const env =
      resources[logicalIdOf(stack.functions.weatherNotice.function)].Properties.Environment.Variables;
    expect(Object.keys(env).sort()).toEqual([
      'FORECAST_API_KEY_SECRET_ID',
      'FORECAST_API_URL',
      // Whether the stage trades: then a missing key is shown and alarmed (ADR 0045).
      'FORECAST_PLAN',
      'MERCHANT_EMAIL',
      'ORDERS_TABLE_NAME',
      // The secrets extension's own settings, since it reads Open-Meteo's key.
      'PARAMETERS_SECRETS_EXTENSION_CACHE_ENABLED',
      'PARAMETERS_SECRETS_EXTENSION_CACHE_SIZE',
      'PARAMETERS_SECRETS_EXTENSION_HTTP_PORT',
      'PARAMETERS_SECRETS_EXTENSION_LOG_LEVEL',
      'PARAMETERS_SECRETS_EXTENSION_MAX_CONNECTIONS',
      'SECRETS_MANAGER_TIMEOUT_MILLIS',
      'SECRETS_MANAGER_TTL',
      'SELLER_ADDRESS',
      'SELLER_EMAIL',
      'SELLER_NAME',
      'SES_CONFIGURATION_SET',
      'SES_FROM_ADDRESS',
      'SHOP_NAME',
      'SITE_URL',
      'SSM_PARAMETER_STORE_TIMEOUT_MILLIS',
      'SSM_PARAMETER_STORE_TTL',
    ]);
    expect(env.FORECAST_API_URL).toBe('https://api.open-meteo.com');
    const admin = resources[logicalIdOf(stack.functions.adminApi.function)].Properties.Environment.Variables;
    expect(admin.FORECAST_API_URL).toBe('https://api.open-meteo.com');
    // dev declares no commercial use.
    expect([env.FORECAST_PLAN, admin.FORECAST_PLAN]).toEqual(['free', 'free']);
  });

  it('both weather functions are given the Open-Meteo key’s secret and may read it, through the extension', () => {
    const resources = template.toJSON().Resources;
    // The data stack's secret, by its ARN from that stack's output.
    const keyArn = environmentOf(template, stack.functions.weatherNotice).FORECAST_API_KEY_SECRET_ID;
    expect(JSON.stringify(keyArn)).toMatch(
      /^\{"Fn::GetStackOutput":.*"OutputName":"PublishOutputRefForecastKeyOpenMeteoKey/,
    );
    for (const fn of [stack.functions.weatherNotice, stack.functions.adminApi]) {
      const props = resources[logicalIdOf(fn.function)].Properties;
      expect(props.Environment.Variables.FORECAST_API_KEY_SECRET_ID).toEqual(keyArn);
      // The key is read over the Parameters and Secrets extension's localhost port, as Stripe's are.
      expect(JSON.stringify(props.Layers)).toContain('AWS-Parameters-and-Secrets-Lambda-Extension');
      // (CDK may merge it into the statement of another secret the function reads: same actions.)
      const reads = statementsOfRole(template, logicalIdOf(fn.role)).filter((statement) =>
        JSON.stringify(statement.Resource).includes(JSON.stringify(keyArn)),
      );
      expect(reads.map((statement) => statement.Action)).toEqual([
        ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
      ]);
    }
    // No other function reads it: two roles' policies name it, those two.
    const naming = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes(JSON.stringify(keyArn)),
    );
    const roles = naming.flatMap((policy) =>
      policy.Properties.Roles.map((role: { Ref: string }) => role.Ref),
    );
    expect(roles.sort()).toEqual(
      [logicalIdOf(stack.functions.weatherNotice.role), logicalIdOf(stack.functions.adminApi.role)].sort(),
    );
  });

  it('may touch only the forecasts and its own records of the table, never an order', () => {
    const statements = statementsOfRole(template, logicalIdOf(stack.functions.weatherNotice.role));
    const text = JSON.stringify(statements);
    expect(text).toContain('FORECAST#*');
    expect(text).toContain('WEATHERNOTICE#*');
    expect(text).not.toContain('ORDER#*');
  });
});
