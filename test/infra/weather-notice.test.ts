import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { logicalIdOf, statementsOfRole, synthShop } from './support';

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
      'FORECAST_API_URL',
      'MERCHANT_EMAIL',
      'ORDERS_TABLE_NAME',
      'SELLER_ADDRESS',
      'SELLER_EMAIL',
      'SELLER_NAME',
      'SES_CONFIGURATION_SET',
      'SES_FROM_ADDRESS',
      'SHOP_NAME',
      'SITE_URL',
    ]);
    expect(env.FORECAST_API_URL).toBe('https://api.open-meteo.com');
    const admin = resources[logicalIdOf(stack.functions.adminApi.function)].Properties.Environment.Variables;
    expect(admin.FORECAST_API_URL).toBe('https://api.open-meteo.com');
  });

  it('may touch only the forecasts and its own records of the table, never an order', () => {
    const statements = statementsOfRole(template, logicalIdOf(stack.functions.weatherNotice.role));
    const text = JSON.stringify(statements);
    expect(text).toContain('FORECAST#*');
    expect(text).toContain('WEATHERNOTICE#*');
    expect(text).not.toContain('ORDER#*');
  });
});
