import { describe, expect, it } from 'vitest';
import { dynamoChecks, type TableKeys } from '../../local/rehearse/dynamo-calls';

const tables = new Map<string, TableKeys>([
  ['Orders', { partitionKey: 'pk', indexes: new Map([['byDispatchDate', 'dispatchDay']]) }],
]);

describe('what IAM authorises for a DynamoDB request, as the rehearsal’s gate asks it', () => {
  it('checks each item of a transaction under its own action, table and partition key', () => {
    const checks = dynamoChecks(
      'TransactWriteItems',
      {
        TransactItems: [
          { Put: { TableName: 'Orders', Item: { pk: { S: 'ORDER#cs_1' }, total: { N: '1470' } } } },
          { Update: { TableName: 'Orders', Key: { pk: { S: 'CAPACITY#2026-12-01' } } } },
          { ConditionCheck: { TableName: 'Orders', Key: { pk: { S: 'SETTINGS#shop' } } } },
          { Delete: { TableName: 'Orders', Key: { pk: { S: 'CLIENT_HOLDS#abc' } } } },
        ],
      },
      tables,
    );
    expect(checks).toEqual([
      { action: 'dynamodb:PutItem', table: 'Orders', index: undefined, leadingKeys: ['ORDER#cs_1'] },
      {
        action: 'dynamodb:UpdateItem',
        table: 'Orders',
        index: undefined,
        leadingKeys: ['CAPACITY#2026-12-01'],
      },
      {
        action: 'dynamodb:ConditionCheckItem',
        table: 'Orders',
        index: undefined,
        leadingKeys: ['SETTINGS#shop'],
      },
      { action: 'dynamodb:DeleteItem', table: 'Orders', index: undefined, leadingKeys: ['CLIENT_HOLDS#abc'] },
    ]);
  });

  it('takes a Query’s leading key from its key condition on the queried index’s partition key', () => {
    expect(
      dynamoChecks(
        'Query',
        {
          TableName: 'Orders',
          IndexName: 'byDispatchDate',
          KeyConditionExpression: '#day = :day AND begins_with(#sort, :status)',
          ExpressionAttributeNames: { '#day': 'dispatchDay', '#sort': 'sortKey' },
          ExpressionAttributeValues: { ':day': { S: 'DISPATCH#2026-12-01' }, ':status': { S: 'paid#' } },
        },
        tables,
      ),
    ).toEqual([
      {
        action: 'dynamodb:Query',
        table: 'Orders',
        index: 'byDispatchDate',
        leadingKeys: ['DISPATCH#2026-12-01'],
      },
    ]);
    expect(
      dynamoChecks(
        'Query',
        {
          TableName: 'Orders',
          KeyConditions: { pk: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'ORDER#cs_2' }] } },
        },
        tables,
      )[0]?.leadingKeys,
    ).toEqual(['ORDER#cs_2']);
  });

  it('gives a batch every partition key it reads, and a GetItem its key', () => {
    expect(
      dynamoChecks(
        'BatchGetItem',
        { RequestItems: { Orders: { Keys: [{ pk: { S: 'ORDER#a' } }, { pk: { S: 'REQUEST#b' } }] } } },
        tables,
      ),
    ).toEqual([
      {
        action: 'dynamodb:BatchGetItem',
        table: 'Orders',
        index: undefined,
        leadingKeys: ['ORDER#a', 'REQUEST#b'],
      },
    ]);
    expect(
      dynamoChecks('GetItem', { TableName: 'Orders', Key: { pk: { S: 'SETTINGS#shop' } } }, tables),
    ).toEqual([
      { action: 'dynamodb:GetItem', table: 'Orders', index: undefined, leadingKeys: ['SETTINGS#shop'] },
    ]);
  });
});
