import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { itemKey, PARTITION_KEY, type ShopTable } from './orders-table';

/** One item read strongly consistent and checked against its schema (parseItem); undefined when there is none. */
export async function readItem<T extends z.ZodMiniType>(
  table: ShopTable,
  pk: string,
  schema: T,
): Promise<z.output<T> | undefined> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: itemKey(pk), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : parseItem(schema, Item);
}

/** The table is outside this process: what comes back is parsed, not cast. */
export function parseItem<T extends z.ZodMiniType>(schema: T, item: Record<string, unknown>): z.output<T> {
  const parsed = schema.safeParse(item, ENGLISH_MESSAGES);
  if (!parsed.success) {
    throw new Error(
      `${String(item[PARTITION_KEY])} in the table is not a valid record: ${parsed.error.message}`,
    );
  }
  return parsed.data;
}
