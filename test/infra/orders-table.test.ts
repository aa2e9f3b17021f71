import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { OrdersTable } from '../../infra/lib/constructs/orders-table';
import { constructStack } from './support';

describe('OrdersTable', () => {
  let template: Template;
  let tableLogicalId: string;

  beforeAll(() => {
    const stack = constructStack();
    const orders = new OrdersTable(stack, 'Orders');
    const fulfiller = new Role(stack, 'Fulfiller', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    });
    orders.grantFulfilment(fulfiller);
    template = Template.fromStack(stack);
    tableLogicalId = Object.keys(template.findResources('AWS::DynamoDB::Table'))[0] ?? '';
  });

  it('keys orders by pk alone, lists a dispatch day through byDispatchDate, finds a reference in any case through byReferenceKey', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byDispatchDate',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'byReferenceKey',
          KeySchema: [{ AttributeName: 'referenceKey', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
        // Retired, kept one release: a deploy may add or delete one GSI, not both.
        {
          IndexName: 'byReference',
          KeySchema: [{ AttributeName: 'reference', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
        // Sparse: orders with outbox entries unsent, for the reconciler's sweep (ADR 0044).
        {
          IndexName: 'byOutboxDue',
          KeySchema: [{ AttributeName: 'outboxDueAt', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
        // Sparse: active standing orders, whose holds the reconciler sets (ADR 0060).
        {
          IndexName: 'byActiveStandingOrder',
          KeySchema: [{ AttributeName: 'activeStandingOrder', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('deletes only what carries deleteAfter (the notice counters) by TTL', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'deleteAfter', Enabled: true },
    });
  });

  it('orders table: point-in-time recovery and deletion protection', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('orders table: retained on delete or replacement, not when its first create fails', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('grants fulfilment get, conditional put and update of orders (ORDER#) and failed and pending debits’ records (FAILED_DEBIT#, PENDING_DEBIT#) and a read of the settings item, on the table only: no scan, delete, batch or index', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: 'dynamodb:GetItem',
            Resource: { 'Fn::GetAtt': [tableLogicalId, 'Arn'] },
            Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['SETTINGS#shop'] } },
          },
          {
            Effect: 'Allow',
            Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
            Resource: { 'Fn::GetAtt': [tableLogicalId, 'Arn'] },
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
        ],
      },
    });
    expect(tableLogicalId).not.toBe('');
  });
});
