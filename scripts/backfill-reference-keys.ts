/**
 * `npx tsx scripts/backfill-reference-keys.ts <orders table name> [region]`: rewrites the
 * reference-index key of orders and requests written before references were folded (ADR 0042), so
 * a reference read with O for 0 or I for 1 finds them too. With your own AWS credentials; safe to
 * run again, and beside a running shop.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backfillReferenceKeys } from '../lambdas/domain/storage/reference-keys';

const [tableName, region = process.env.AWS_REGION ?? 'eu-west-2'] = process.argv.slice(2);
if (!tableName) {
  console.error('usage: npx tsx scripts/backfill-reference-keys.ts <orders table name> [region]');
  process.exit(2);
}
const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region }));
try {
  const rewritten = await backfillReferenceKeys({ client, tableName });
  console.log(`${rewritten} ${rewritten === 1 ? 'item' : 'items'} of ${tableName} rekeyed.`);
} finally {
  client.destroy();
}
