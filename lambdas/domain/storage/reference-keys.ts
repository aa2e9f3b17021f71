import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { updateIf } from './conditional-writes';
import {
  ORDER_KEY_PREFIX,
  PARTITION_KEY,
  REFERENCE_INDEX,
  REQUEST_KEY_PREFIX,
  referenceKeyOf,
  type ShopTable,
} from './orders-table';

/**
 * Rewrites the index key of items from before references were folded (lower-cased), so O for 0 or I for 1
 * finds them too; until then they are found as written. One scan, one conditional update per stale item:
 * rerunnable.
 * @returns how many items were rewritten.
 */
export async function backfillReferenceKeys(table: ShopTable): Promise<number> {
  let rewritten = 0;
  const pages = paginateScan(
    { client: table.client },
    {
      TableName: table.tableName,
      ProjectionExpression: '#pk, #reference, #key',
      FilterExpression:
        '(begins_with(#pk, :order) OR begins_with(#pk, :request)) AND attribute_exists(#reference)',
      ExpressionAttributeNames: {
        '#pk': PARTITION_KEY,
        '#reference': 'reference',
        '#key': REFERENCE_INDEX.partitionKey,
      },
      ExpressionAttributeValues: { ':order': ORDER_KEY_PREFIX, ':request': REQUEST_KEY_PREFIX },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      // Strings: the table's key, and a reference the filter found (every writer stores a string).
      const pk = String(item[PARTITION_KEY]);
      const reference = String(item.reference);
      const key = item[REFERENCE_INDEX.partitionKey];
      const folded = referenceKeyOf(reference);
      if (key === folded) continue;
      // The reference never changes; the condition only keeps a deleted item from coming back.
      const done = await updateIf(table, pk, {
        UpdateExpression: 'SET #key = :folded',
        ConditionExpression: '#reference = :reference',
        ExpressionAttributeNames: { '#key': REFERENCE_INDEX.partitionKey, '#reference': 'reference' },
        ExpressionAttributeValues: { ':folded': folded, ':reference': reference },
      });
      if (done) rewritten += 1;
    }
  }
  return rewritten;
}
