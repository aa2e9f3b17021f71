import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ORDER_PAGE_PREFIX } from '../../../shared/site-routes';
import { type OrderPageKeys, orderPageToken } from '../order-page-token';
import { itemKey, orderKey, pendingDebitKey, type ShopTable } from '../storage/orders-table';

/**
 * The state of the `pageLink` email a revoke makes due (storage/send-once.ts emailAttributes),
 * named here so the read-only lookup bundles none of the writers: present, the link was revoked.
 */
const REVOKED = 'pageLinkEmailState';

/** What the status lookup needs to answer an order page's link: the table (read only) and the keys. */
export interface OrderPageLookup {
  table: ShopTable;
  keys: OrderPageKeys;
}

/**
 * The path of the order page (`/order/<token>`) of a session whose order is recorded, or whose
 * delayed payment waits for the bank (the pending record's key, the one the order will take), for
 * the success page of whoever holds the session id (ADR 0047). Undefined when neither exists yet
 * (the webhook has not run), and once the merchant has revoked the order's link: a revoke means a
 * link may have leaked, and the session id may be how, so the new link goes by email only.
 * Two reads at most, by key; nothing written.
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
