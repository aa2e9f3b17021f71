import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import {
  DISPATCH_DATE_INDEX,
  OUTBOX_DUE_INDEX,
  PARTITION_KEY,
  REFERENCE_INDEX,
  RETIRED_REFERENCE_INDEX,
} from '../lambdas/domain/storage/orders-table';

/**
 * Creates the orders table with its indexes when it does not exist yet: the same design as the CDK
 * table (lambdas/domain/storage/orders-table.ts), for dynalite in `npm start` and the integration
 * tests. Safe to call on every start, and concurrently.
 */
export async function ensureOrdersTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          PARTITION_KEY,
          DISPATCH_DATE_INDEX.partitionKey,
          DISPATCH_DATE_INDEX.sortKey,
          REFERENCE_INDEX.partitionKey,
          RETIRED_REFERENCE_INDEX.partitionKey,
          OUTBOX_DUE_INDEX.partitionKey,
        ].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
        KeySchema: [{ AttributeName: PARTITION_KEY, KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [
          {
            IndexName: DISPATCH_DATE_INDEX.name,
            KeySchema: [
              { AttributeName: DISPATCH_DATE_INDEX.partitionKey, KeyType: 'HASH' },
              { AttributeName: DISPATCH_DATE_INDEX.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: DISPATCH_DATE_INDEX.projection },
          },
          {
            IndexName: REFERENCE_INDEX.name,
            KeySchema: [{ AttributeName: REFERENCE_INDEX.partitionKey, KeyType: 'HASH' }],
            Projection: { ProjectionType: REFERENCE_INDEX.projection },
          },
          {
            IndexName: RETIRED_REFERENCE_INDEX.name,
            KeySchema: [{ AttributeName: RETIRED_REFERENCE_INDEX.partitionKey, KeyType: 'HASH' }],
            Projection: { ProjectionType: RETIRED_REFERENCE_INDEX.projection },
          },
          {
            IndexName: OUTBOX_DUE_INDEX.name,
            KeySchema: [{ AttributeName: OUTBOX_DUE_INDEX.partitionKey, KeyType: 'HASH' }],
            Projection: { ProjectionType: OUTBOX_DUE_INDEX.projection },
          },
        ],
      }),
    );
  } catch (error) {
    // Another process created it between our describe and create: fine.
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 2 }, { TableName: tableName });
}
