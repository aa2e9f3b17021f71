import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { ORDER_KEY_PREFIX, OUTBOX_DUE_INDEX, PARTITION_KEY, type ShopTable } from './orders-table';

// Apart from outbox.ts (the entries' writes) because only the reconciler's sweep reads the index.

/**
 * The session id of every order with outbox entries unsent: a scan of the sparse OUTBOX_DUE_INDEX,
 * page by page, so a sweep starts draining before the whole index is read.
 */
export async function* sessionsWithOutboxDue(table: ShopTable): AsyncGenerator<string> {
  for await (const page of paginateScan(
    { client: table.client },
    { TableName: table.tableName, IndexName: OUTBOX_DUE_INDEX.name },
  )) {
    for (const item of page.Items ?? []) {
      const pk = String(item[PARTITION_KEY]);
      if (pk.startsWith(ORDER_KEY_PREFIX)) yield pk.slice(ORDER_KEY_PREFIX.length);
    }
  }
}
