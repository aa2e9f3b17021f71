import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { ORDERS_TABLE_INDEXES, ordersTableDefinition } from '../lambdas/domain/storage/orders-table';

/**
 * Creates the orders table with its indexes when it does not exist yet: the same design as the CDK
 * table (lambdas/domain/storage/orders-table.ts), for dynalite in `npm start` and the integration
 * tests. Safe to call on every start, and concurrently.
 */
export async function ensureOrdersTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const has = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    const missing = INDEX_NAMES.filter((name) => !has.has(name));
    if (missing.length === 0) return;
    await rebuildWithIndexes(client, tableName, missing);
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await createOrdersTable(client, tableName);
}

/** Every index of the table's design: a local table kept from an older design lacks some. */
const INDEX_NAMES = ORDERS_TABLE_INDEXES.map((index) => index.name);

/**
 * A table kept in `.local-data` from before an index was added: dynalite cannot add an index to a
 * table (UpdateTable changes only throughput there), so the table is made again with the whole
 * design and its items written back, none lost; AWS adds the index in place (one per deploy).
 */
async function rebuildWithIndexes(
  client: DynamoDBClient,
  tableName: string,
  missing: string[],
): Promise<void> {
  const documents = DynamoDBDocumentClient.from(client);
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan(
    { client: documents },
    { TableName: tableName, ConsistentRead: true },
  )) {
    items.push(...(page.Items ?? []));
  }
  console.warn(
    `The local orders table lacked ${missing.join(', ')}: made again with every index, its ${items.length} items kept.`,
  );
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  await waitUntilTableNotExists(
    { client, maxWaitTime: 30, minDelay: 1, maxDelay: 2 },
    { TableName: tableName },
  );
  await createOrdersTable(client, tableName);
  for (const item of items) await documents.send(new PutCommand({ TableName: tableName, Item: item }));
}

async function createOrdersTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new CreateTableCommand(ordersTableDefinition(tableName)));
  } catch (error) {
    // Another process created it between our describe and create: fine.
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 2 }, { TableName: tableName });
}
