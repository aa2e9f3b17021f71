import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { itemKey, type ShopTable } from './orders-table';

/**
 * One item read strongly consistent and checked against its schema (the table is outside this
 * process: what comes back is parsed, not cast); undefined when there is none.
 */
export async function readItem<T extends z.ZodMiniType>(
  table: ShopTable,
  pk: string,
  schema: T,
): Promise<z.output<T> | undefined> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: itemKey(pk), ConsistentRead: true }),
  );
  if (Item === undefined) return undefined;
  const parsed = schema.safeParse(Item, ENGLISH_MESSAGES);
  if (!parsed.success) throw new Error(`${pk} in the table is not a valid record: ${parsed.error.message}`);
  return parsed.data;
}
