import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOrdersTable } from '../../local/orders-table';
import { type StandIns, startStandIns } from '../support/stand-ins';

// The local table is made from the same definition as the deployed one; these are the values
// test/infra/orders-table.test.ts expects of the CDK table, so the two cannot drift apart.
describe('ensureOrdersTable', () => {
  let standIns: StandIns;

  beforeAll(async () => {
    standIns = await startStandIns();
  });
  afterAll(() => standIns.close());

  it('keys the local table by pk alone, with byDispatchDate, byReferenceKey, the retired byReference and the sparse byOutboxDue and byActiveStandingOrder as deployed', async () => {
    // Act
    const { Table } = await standIns.inspector.send(
      new DescribeTableCommand({ TableName: standIns.tableName }),
    );

    // Assess
    expect(Table?.KeySchema).toEqual([{ AttributeName: 'pk', KeyType: 'HASH' }]);
    expect(
      Table?.GlobalSecondaryIndexes?.map(({ IndexName, KeySchema, Projection }) => ({
        IndexName,
        KeySchema,
        Projection,
      })),
    ).toEqual([
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
      {
        IndexName: 'byReference',
        KeySchema: [{ AttributeName: 'reference', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
      {
        IndexName: 'byOutboxDue',
        KeySchema: [{ AttributeName: 'outboxDueAt', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
      {
        IndexName: 'byActiveStandingOrder',
        KeySchema: [{ AttributeName: 'activeStandingOrder', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ]);
  });

  it('makes a table kept from before an index existed again with every index, keeping its items', async () => {
    // Arrange: a kept table of the older design (no byOutboxDue), holding one order.
    const client = new DynamoDBClient({
      region: 'eu-west-2',
      endpoint: standIns.dynamoEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await client.send(
      new CreateTableCommand({
        TableName: 'kept-before-outbox',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'referenceKey', AttributeType: 'S' },
        ],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byReferenceKey',
            KeySchema: [{ AttributeName: 'referenceKey', KeyType: 'HASH' }],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
        ],
      }),
    );
    const order = { pk: 'ORDER#cs_test_kept', referenceKey: 'abc123', totalPence: 1470 };
    await standIns.inspector.send(new PutCommand({ TableName: 'kept-before-outbox', Item: order }));

    // Act
    await ensureOrdersTable(client, 'kept-before-outbox');

    // Assess
    const { Table } = await client.send(new DescribeTableCommand({ TableName: 'kept-before-outbox' }));
    expect(Table?.GlobalSecondaryIndexes?.map(({ IndexName }) => IndexName)).toEqual([
      'byDispatchDate',
      'byReferenceKey',
      'byReference',
      'byOutboxDue',
      'byActiveStandingOrder',
    ]);
    const { Item } = await standIns.inspector.send(
      new GetCommand({ TableName: 'kept-before-outbox', Key: { pk: 'ORDER#cs_test_kept' } }),
    );
    expect(Item).toEqual(order);
  });
});
