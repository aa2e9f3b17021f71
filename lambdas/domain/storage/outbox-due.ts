import { paginateScan } from '@aws-sdk/lib-dynamodb';
import {
  ORDER_KEY_PREFIX,
  OUTBOX_DUE_INDEX,
  PARTITION_KEY,
  type ShopTable,
  STANDING_ORDER_KEY_PREFIX,
} from './orders-table';

// Apart from outbox.ts (the entries' writes) because only the reconciler's sweep reads the index.

/** The ids after `prefix` of the items in the sparse OUTBOX_DUE_INDEX, page by page. */
async function* dueIds(table: ShopTable, prefix: string): AsyncGenerator<string> {
  for await (const page of paginateScan(
    { client: table.client },
    { TableName: table.tableName, IndexName: OUTBOX_DUE_INDEX.name },
  )) {
    for (const item of page.Items ?? []) {
      const pk = String(item[PARTITION_KEY]);
      if (pk.startsWith(prefix)) yield pk.slice(prefix.length);
    }
  }
}

/**
 * The session id of every order with outbox entries unsent: a scan of the sparse OUTBOX_DUE_INDEX,
 * page by page, so a sweep starts draining before the whole index is read.
 */
export function sessionsWithOutboxDue(table: ShopTable): AsyncGenerator<string> {
  return dueIds(table, ORDER_KEY_PREFIX);
}

/**
 * The subscription id of every standing order a change left unsettled (Stripe not yet following
 * it, or an email unsent; ADR 0062): the same index, so a cancelled one is found too.
 */
export function standingOrdersWithOutboxDue(table: ShopTable): AsyncGenerator<string> {
  return dueIds(table, STANDING_ORDER_KEY_PREFIX);
}
