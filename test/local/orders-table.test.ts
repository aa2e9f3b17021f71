import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIns, startStandIns } from '../support/stand-ins';

// The local table is made from the same definition as the deployed one; these are the values
// test/infra/orders-table.test.ts expects of the CDK table, so the two cannot drift apart.
describe('ensureOrdersTable', () => {
  let standIns: StandIns;

  beforeAll(async () => {
    standIns = await startStandIns();
  });
  afterAll(() => standIns.close());

  it('keys the local table by pk alone, with byDispatchDate, byReferenceKey, the retired byReference and the sparse byOutboxDue as deployed', async () => {
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
    ]);
  });
});
