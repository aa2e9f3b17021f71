/**
 * `npx tsx scripts/backfill-reference-keys.ts <orders table name> [region]`: rewrites the
 * reference-index key of orders and requests written before references were folded (ADR 0042), so
 * a reference read with O for 0 or I for 1 finds them too. With your own AWS credentials; safe to
 * run again, and beside a running shop.
 */
import { backfillReferenceKeys } from '../lambdas/domain/storage/reference-keys';
import { shopTable } from '../lambdas/runtime';

const [tableName, region = process.env.AWS_REGION ?? 'eu-west-2'] = process.argv.slice(2);
if (!tableName) {
  console.error('usage: npx tsx scripts/backfill-reference-keys.ts <orders table name> [region]');
  process.exit(2);
}
// The table as the Lambdas open it (runtime.ts): the same client, timeouts and marshalling.
const table = shopTable({ AWS_REGION: region, ORDERS_TABLE_NAME: tableName });
try {
  const rewritten = await backfillReferenceKeys(table);
  console.log(`${rewritten} ${rewritten === 1 ? 'item' : 'items'} of ${tableName} rekeyed.`);
} finally {
  table.client.destroy();
}
