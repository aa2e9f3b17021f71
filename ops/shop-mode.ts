import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The shop's mode as `npm run setup` keeps a new stage shut until its emails can go out. Setup
 * runs before any merchant can sign in, so it writes the settings item itself, with the operator's
 * credentials, rather than through the admin API. The item's key and attributes are the settings
 * store's (lambdas/domain/shop-settings); test/ops/setup.test.ts reads them back through it.
 */

/** The settings item's key in the orders table. */
const SETTINGS_ITEM = { pk: 'SETTINGS#shop' } as const;

export interface ShopTableRef {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** The mode and message (a shop with no settings item is open). */
export async function readShopMode(
  table: ShopTableRef,
): Promise<{ mode: 'open' | 'paused' | 'requests'; message: string | undefined }> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: SETTINGS_ITEM, ConsistentRead: true }),
  );
  const mode = Item?.mode === 'paused' || Item?.mode === 'requests' ? Item.mode : 'open';
  return { mode, message: typeof Item?.message === 'string' ? Item.message : undefined };
}

/**
 * Opens the shop, or pauses it with a message. Setup changes the mode only when it differs (it
 * read it first), so since when the shop is in this mode moves with it; the capacity settings on
 * the same item stay.
 */
export async function writeShopMode(
  table: ShopTableRef,
  settings: { mode: 'open' } | { mode: 'paused'; message: string },
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  await table.client.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: SETTINGS_ITEM,
      UpdateExpression:
        settings.mode === 'open'
          ? 'SET #mode = :mode, #updatedAt = :now, #modeSince = :now REMOVE #message'
          : 'SET #mode = :mode, #updatedAt = :now, #modeSince = :now, #message = :message',
      ExpressionAttributeNames: {
        '#mode': 'mode',
        '#updatedAt': 'updatedAt',
        '#modeSince': 'modeSince',
        '#message': 'message',
      },
      ExpressionAttributeValues: {
        ':mode': settings.mode,
        ':now': at,
        ...(settings.mode === 'paused' && { ':message': settings.message }),
      },
    }),
  );
}
