import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ShopFunction } from '../../infra/lib/constructs/shop-function';
import { RESERVED_CONCURRENCY } from '../../infra/lib/constructs/shop-functions';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { actionsOf, fromDataStack, logicalIdOf, statementsOfRole, synthShop } from './support';

type FunctionName = keyof ShopStack['functions'];
const ALL: readonly FunctionName[] = [
  'createCheckout',
  'checkoutStatus',
  'stripeWebhook',
  'reconcileOrders',
  'shopStatus',
  'orderPage',
];
const API_FUNCTIONS: readonly FunctionName[] = ['createCheckout', 'checkoutStatus', 'stripeWebhook'];

describe('shop functions', () => {
  let stack: ShopStack;
  let template: Template;
  const fn = (name: FunctionName): ShopFunction => stack.functions[name];
  const functionProps = (name: FunctionName): Record<string, unknown> => {
    const resource = template.toJSON().Resources[logicalIdOf(fn(name).function)];
    return resource.Properties;
  };
  const statements = (name: FunctionName) => statementsOfRole(template, logicalIdOf(fn(name).role));

  beforeAll(() => {
    ({ stack, template } = synthShop());
  });

  describe('defaults of the helper', () => {
    it.each(ALL)('%s runs Node.js 24 on arm64, ESM handler index.handler, 256 MB', (name) => {
      expect(functionProps(name)).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 256,
      });
    });

    it.each(ALL)(
      '%s logs to its own log group, kept one month, without parsing source maps at start-up',
      (name) => {
        expect(functionProps(name)).toMatchObject({
          LoggingConfig: { LogGroup: { Ref: logicalIdOf(fn(name).logGroup) } },
        });
        // --enable-source-maps costs 13–23 % of every cold load; traces are mapped offline instead.
        expect(JSON.stringify(functionProps(name).Environment)).not.toContain('NODE_OPTIONS');
        expect(template.toJSON().Resources[logicalIdOf(fn(name).logGroup)].Properties.RetentionInDays).toBe(
          30,
        );
      },
    );

    it.each(API_FUNCTIONS)('%s stops before API Gateway does (30 s)', (name) => {
      const timeout = functionProps(name).Timeout;
      expect(timeout).toBeGreaterThanOrEqual(20);
      expect(timeout).toBeLessThan(30);
    });

    it('gives the reconciler, which no request waits on, minutes, still well inside its 15-minute schedule', () => {
      expect(functionProps('reconcileOrders').Timeout).toBe(300);
    });
  });

  describe('reserved concurrency', () => {
    it('is off by default, so a new account with a quota of 10 or 50 can deploy', () => {
      for (const name of ALL) {
        expect(functionProps(name).ReservedConcurrentExecutions, name).toBeUndefined();
      }
    });

    it('caps every function when turned on, and a checkout flood cannot take the webhook capacity', () => {
      const reserved = synthShop({ reservedConcurrency: 'true' });
      const functionProps = (name: FunctionName): Record<string, unknown> =>
        reserved.template.toJSON().Resources[logicalIdOf(reserved.stack.functions[name].function)].Properties;
      expect(functionProps('createCheckout').ReservedConcurrentExecutions).toBe(
        RESERVED_CONCURRENCY.createCheckout,
      );
      expect(functionProps('checkoutStatus').ReservedConcurrentExecutions).toBe(
        RESERVED_CONCURRENCY.checkoutStatus,
      );
      expect(functionProps('stripeWebhook').ReservedConcurrentExecutions).toBe(
        RESERVED_CONCURRENCY.stripeWebhook,
      );
      expect(functionProps('reconcileOrders').ReservedConcurrentExecutions).toBe(1);
      expect(RESERVED_CONCURRENCY.createCheckout).toBeLessThan(RESERVED_CONCURRENCY.stripeWebhook);
    });

    it('stays small in total, so an account with the standard quota keeps its unreserved minimum', () => {
      const total = Object.values(RESERVED_CONCURRENCY).reduce((a, b) => a + b, 0);
      expect(total).toBeLessThanOrEqual(29);
    });
  });

  describe('one role per function, with exactly what it touches', () => {
    it('each Lambda its own role, assumable only by Lambda, with no managed policy', () => {
      const roleIds = ALL.map((name) => functionProps(name).Role);
      expect(new Set(roleIds.map((r) => JSON.stringify(r))).size).toBe(ALL.length);
      for (const name of ALL) {
        const role = template.toJSON().Resources[logicalIdOf(fn(name).role)];
        expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
          { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
        ]);
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
        expect(role.Properties.Policies).toBeUndefined();
      }
    });

    const logs = (name: FunctionName) => ({
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: { 'Fn::GetAtt': [logicalIdOf(fn(name).logGroup), 'Arn'] },
    });
    const secret = (name: 'checkoutKey' | 'fulfilmentKey' | 'webhookSigningSecret') =>
      fromDataStack(stack.data, { Ref: logicalIdOf(stack.data.stripeSecrets.secrets[name]) });
    const orderPageSecret = () => fromDataStack(stack.data, { Ref: logicalIdOf(stack.data.orderPageSecret) });
    const vapidSecret = () => fromDataStack(stack.data, { Ref: logicalIdOf(stack.data.vapidKey.secret) });
    /** The merchants' push subscriptions (ADR 0056): that one item, read and updated. */
    const pushSubscriptions = () => ({
      Effect: 'Allow',
      Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      Resource: tableArn(),
      Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['PUSH_SUBSCRIPTIONS#shop'] } },
    });
    const secretRead = (resource: unknown) => ({
      Effect: 'Allow',
      Action: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
      Resource: resource,
    });

    const tableArn = () =>
      fromDataStack(stack.data, { 'Fn::GetAtt': [logicalIdOf(stack.data.orders.table), 'Arn'] });

    it("checkoutStatus may write its logs, read the checkout key and the order page's secret, and get an order's or a pending debit's item (its page key), nothing else: no write, no email", () => {
      expect(statements('checkoutStatus')).toEqual([
        logs('checkoutStatus'),
        // CDK merges the two secret reads into one statement.
        secretRead([orderPageSecret(), secret('checkoutKey')]),
        {
          Effect: 'Allow',
          Action: 'dynamodb:GetItem',
          Resource: tableArn(),
          Condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ORDER#*', 'PENDING_DEBIT#*'] },
          },
        },
      ]);
    });
    const settingsRead = () => ({
      Effect: 'Allow',
      Action: 'dynamodb:GetItem',
      Resource: tableArn(),
      Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['SETTINGS#shop'] } },
    });

    const capacity = (actions: string | string[]) => ({
      Effect: 'Allow',
      Action: actions,
      Resource: tableArn(),
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CAPACITY#*'] } },
    });

    it('shopStatus may write its logs and read the settings item and the capacity days, nothing else: no Stripe, no email', () => {
      expect(statements('shopStatus')).toEqual([
        logs('shopStatus'),
        settingsRead(),
        capacity('dynamodb:GetItem'),
      ]);
    });

    it('createCheckout may read the settings item, write order requests and notice counters, hold bottles and record its sessions only (LeadingKeys), and send email', () => {
      const all = statements('createCheckout');
      expect(all.slice(0, 4)).toEqual([
        logs('createCheckout'),
        // The VAPID pair: a new order request is pushed to the merchant's devices.
        secretRead([secret('checkoutKey'), vapidSecret()]),
        // Read, and checked inside its transactions (ADR 0052): never written.
        { ...settingsRead(), Action: ['dynamodb:ConditionCheckItem', 'dynamodb:GetItem'] },
        {
          Effect: 'Allow',
          Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
          Resource: tableArn(),
          Condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['REQUEST#*', 'NOTICE_LIMIT#*'] },
          },
        },
      ]);
      expect(all).toHaveLength(9);
      expect(all[4]?.Action).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
      // Reserving and releasing bottles on the dispatch days, and nothing else of the table.
      expect(all[5]).toEqual(capacity(['dynamodb:GetItem', 'dynamodb:UpdateItem']));
      // Counting the client's open checkouts (at most 3).
      expect(all[6]).toEqual({
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: tableArn(),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CLIENT_HOLDS#*'] } },
      });
      // Its transactions (ADR 0052) record each session it made, and nothing else.
      expect(all[7]).toEqual({
        Effect: 'Allow',
        Action: 'dynamodb:PutItem',
        Resource: tableArn(),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CHECKOUT_SESSION#*'] } },
      });
      expect(all[8]).toEqual(pushSubscriptions());
    });

    it('only the webhook may read the webhook signing secret', () => {
      const readers = ALL.filter((name) =>
        JSON.stringify(statements(name)).includes(JSON.stringify(secret('webhookSigningSecret'))),
      );
      expect(readers).toEqual(['stripeWebhook']);
    });

    it('orderPage may read and update orders and standing orders only (LeadingKeys ORDER#, STANDING_ORDER#, never a put), read pending and failed debits, send as the shop, move bottles on the capacity days and read its secret and the fulfilment key', () => {
      const all = statements('orderPage');
      expect(all).toHaveLength(7);
      expect(all.slice(0, 3)).toEqual([
        logs('orderPage'),
        {
          Effect: 'Allow',
          Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
          Resource: tableArn(),
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ORDER#*'] } },
        },
        {
          Effect: 'Allow',
          Action: 'dynamodb:GetItem',
          Resource: tableArn(),
          Condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PENDING_DEBIT#*', 'FAILED_DEBIT#*'] },
          },
        },
      ]);
      expect(all[3]?.Action).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
      // A standing order's page changes its record and its coming days' holds (ADRs 0059, 0060).
      expect(all[4]).toEqual({
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: tableArn(),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['STANDING_ORDER#*'] } },
      });
      expect(all[5]).toEqual(secretRead([orderPageSecret(), secret('fulfilmentKey')]));
      expect(all[6]).toEqual(capacity(['dynamodb:GetItem', 'dynamodb:UpdateItem']));
    });

    it("the functions that email customers about an order, the page and the success lookup may read the order page's secret; no other", () => {
      const readers = (Object.keys(stack.functions) as FunctionName[]).filter((name) =>
        JSON.stringify(statements(name)).includes(JSON.stringify(orderPageSecret())),
      );
      expect(readers.sort()).toEqual([
        'adminApi',
        'checkoutStatus',
        'orderPage',
        'reconcileOrders',
        'stripeWebhook',
      ]);
    });

    it.each([
      [
        'stripeWebhook',
        () => [orderPageSecret(), secret('fulfilmentKey'), secret('webhookSigningSecret'), vapidSecret()],
      ],
      ['reconcileOrders', () => [orderPageSecret(), secret('fulfilmentKey'), vapidSecret()]],
    ] as const)(
      '%s may read its secrets and the settings item, get/put/update orders, failed and pending debits’ records, standing orders and failed renewals only (LeadingKeys ORDER#, FAILED_DEBIT#, PENDING_DEBIT#, STANDING_ORDER#, FAILED_RENEWAL#), send as the shop through its configuration set, and move bottles on the capacity days',
      (name, secrets) => {
        const all = statements(name);
        expect(all.slice(0, 4)).toEqual([
          logs(name),
          secretRead(secrets()),
          settingsRead(),
          {
            Effect: 'Allow',
            Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
            Resource: tableArn(),
            Condition: {
              'ForAllValues:StringLike': {
                'dynamodb:LeadingKeys': [
                  'ORDER#*',
                  'FAILED_DEBIT#*',
                  'PENDING_DEBIT#*',
                  'STANDING_ORDER#*',
                  'FAILED_RENEWAL#*',
                ],
              },
            },
          },
        ]);
        expect(all[4]?.Action).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
        expect(all[5]).toEqual(capacity(['dynamodb:GetItem', 'dynamodb:UpdateItem']));
        // The reconciler alone sweeps the outbox's entries left unsent: a Scan of that one
        // KEYS_ONLY index, which holds only the keys of orders with an email due (ADR 0044); and
        // lists the active standing orders, a Scan of their own sparse KEYS_ONLY index (ADR 0060).
        if (name === 'reconcileOrders') {
          // One statement: IAM merges the two index Scans.
          expect(all).toHaveLength(8);
          expect(all[6]?.Action).toBe('dynamodb:Scan');
          expect(
            scannedResources(all[6] ?? {})
              .map((r) => r.match(/\/index\/(\w+)/)?.[1])
              .sort(),
          ).toEqual(['byActiveStandingOrder', 'byOutboxDue']);
        } else expect(all).toHaveLength(7);
        // The merchants' push subscriptions, read to push a new order or failed debit (ADR 0056).
        expect(all.at(-1)).toEqual(pushSubscriptions());
        const sesText = JSON.stringify(all[4]?.Resource);
        expect(all[4]?.Resource).toHaveLength(3);
        // The sender identity, the merchant's address (in the SES sandbox the recipient's identity
        // is authorised too) and the configuration set.
        expect(sesText).toContain(
          JSON.stringify(fromDataStack(stack.data, { Ref: logicalIdOf(stack.data.email.configurationSet) })),
        );
        expect(sesText).toContain(':identity/merchant@example.com');
        const sender = stack.data.email.senderIdentity;
        if (sender === undefined) throw new Error('the default mode creates the sender identity');
        expect(sesText).toContain(JSON.stringify(fromDataStack(stack.data, { Ref: logicalIdOf(sender) })));
      },
    );

    const tableStatements = (name: FunctionName) =>
      statements(name).filter((statement) => actionsOf([statement]).some((a) => a.startsWith('dynamodb:')));
    const conditionSchema = z.record(
      z.string(),
      z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    );
    /** The statement's dynamodb:LeadingKeys patterns, whatever the condition operator. */
    const leadingKeys = (statement: { Condition?: unknown }): string[] =>
      Object.values(conditionSchema.parse(statement.Condition ?? {})).flatMap((keys) => {
        const patterns = keys['dynamodb:LeadingKeys'] ?? [];
        return Array.isArray(patterns) ? patterns : [patterns];
      });
    /** Whether an IAM StringLike pattern (`*` for any run of characters) matches a key. */
    const likeMatches = (pattern: string, key: string) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((part) => part.replace(/\W/g, (c) => `\\${c}`))
          .join('.*')}$`,
      ).test(key);

    /** The Scans of statement's resources, each as JSON: a Scan has no leading key to limit. */
    const scannedResources = (statement: { Action?: unknown; Resource?: unknown }) =>
      statement.Action === 'dynamodb:Scan'
        ? (Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource]).map((r) =>
            JSON.stringify(r),
          )
        : [];
    /** The reconciler's Scans of a sparse KEYS_ONLY index (the outbox's, the active standing orders'). */
    const isOutboxSweep = (statement: { Action?: unknown; Resource?: unknown }) =>
      scannedResources(statement).some((resource) =>
        /"\/index\/(byOutboxDue|byActiveStandingOrder)"\]\]\}$/.test(resource),
      );

    /** The standing orders' list (ADR 0061): a Scan of the table itself, filtered on STANDING_ORDER# by the code. */
    const isStandingOrdersScan = (statement: { Action?: unknown; Resource?: unknown }) =>
      scannedResources(statement).some((resource) => !resource.includes('/index/'));

    it.each(ALL)('%s: every table grant but the two scans is limited by dynamodb:LeadingKeys', (name) => {
      const scan = (statement: { Action?: unknown; Resource?: unknown }) =>
        isOutboxSweep(statement) || isStandingOrdersScan(statement);
      for (const statement of tableStatements(name).filter((statement) => !scan(statement))) {
        expect(leadingKeys(statement), JSON.stringify(statement)).not.toEqual([]);
      }
    });

    it('none of these scans the table itself (the admin API lists every standing order so: merchant-admin.test.ts)', () => {
      const scanners = ALL.filter((name) => statements(name).some(isStandingOrdersScan));
      expect(scanners).toEqual([]);
    });

    it('only the reconciler sweeps the outbox', () => {
      const sweepers = ALL.filter((name) => statements(name).some(isOutboxSweep));
      expect(sweepers).toEqual(['reconcileOrders']);
    });

    it('no function may write the settings item: only the operator pauses or reopens the shop', () => {
      const writes = [
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:BatchWriteItem',
      ];
      expect(likeMatches('ORDER#*', 'SETTINGS#shop')).toBe(false);
      expect(likeMatches('SETTINGS#*', 'SETTINGS#shop')).toBe(true);
      for (const name of ALL) {
        for (const statement of tableStatements(name)) {
          if (!actionsOf([statement]).some((action) => writes.includes(action))) continue;
          const settings = leadingKeys(statement).filter((pattern) => likeMatches(pattern, 'SETTINGS#shop'));
          expect(settings, `${name}: ${JSON.stringify(statement)}`).toEqual([]);
        }
      }
    });

    it('each role scoped to exact resources: no wildcard action or resource on any shop function', () => {
      for (const name of ALL) {
        for (const statement of statements(name)) {
          expect(actionsOf([statement]).every((action) => !action.includes('*'))).toBe(true);
          expect(JSON.stringify(statement.Resource)).not.toMatch(/"\*"|\/\*"/);
        }
      }
    });

    it('the success lookup cannot write orders or send email: GetItem its only DynamoDB action, no SES action in its role', () => {
      const actions = actionsOf(statements('checkoutStatus'));
      expect(actions.filter((a) => a.startsWith('dynamodb:') || a.startsWith('ses:'))).toEqual([
        'dynamodb:GetItem',
      ]);
    });
  });

  it('runs the reconciler every 15 minutes', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(15 minutes)',
      State: 'ENABLED',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalIdOf(fn('reconcileOrders').function), 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0 },
        }),
      ],
    });
  });
});
