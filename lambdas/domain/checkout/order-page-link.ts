import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ORDER_PAGE_PREFIX } from '../../../shared/site-routes';
import { type OrderPageKeys, orderPageToken } from '../order-page-token';
import { itemKey, orderKey, pendingDebitKey, type ShopTable } from '../storage/orders-table';

/** The state a revoke makes due, named here so the read-only lookup bundles none of the writers. */
const REVOKED = 'pageLinkEmailState';

/** What the status lookup needs to answer an order page's link: the table (read only) and the keys. */
export interface OrderPageLookup {
  table: ShopTable;
  keys: OrderPageKeys;
}

/**
 * The success page's order path (ADR 0047), for a recorded order or a debit with the bank (the key the order
 * will take). Undefined before the webhook, and once revoked: a link may have leaked via the session id, so
 * the new one goes by email only. At most two reads by key.
 */
export async function orderPagePathFor(
  sessionId: string,
  lookup: OrderPageLookup,
): Promise<string | undefined> {
  const order = await readKeys(lookup.table, orderKey(sessionId), ['pageKey', REVOKED]);
  if (order !== undefined) {
    const pageKey = order.pageKey;
    if (order[REVOKED] !== undefined || typeof pageKey !== 'string') return undefined;
    return pathOf(sessionId, pageKey, lookup.keys);
  }
  const pending = await readKeys(lookup.table, pendingDebitKey(sessionId), ['pageKey']);
  const pageKey = pending?.pageKey;
  return typeof pageKey === 'string' ? pathOf(sessionId, pageKey, lookup.keys) : undefined;
}

function pathOf(sessionId: string, pageKey: string, keys: OrderPageKeys): string {
  return `${ORDER_PAGE_PREFIX}${orderPageToken(sessionId, pageKey, keys)}`;
}

/** Only the named attributes of one item (strongly consistent: the webhook may have just written it). */
async function readKeys(
  table: ShopTable,
  pk: string,
  attributes: readonly string[],
): Promise<Record<string, unknown> | undefined> {
  const names = Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name]));
  const { Item } = await table.client.send(
    new GetCommand({
      TableName: table.tableName,
      Key: itemKey(pk),
      ConsistentRead: true,
      ProjectionExpression: Object.keys(names).join(', '),
      ExpressionAttributeNames: names,
    }),
  );
  return Item;
}
