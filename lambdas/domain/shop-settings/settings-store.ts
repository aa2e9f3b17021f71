import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { itemKey, SETTINGS_KEY, type ShopTable } from '../orders/orders-table';
import { RefusedError } from '../refusal';
import { checkShopMessage, type ShopSettings, settingsFromItem } from './shop-settings';

// The settings item through the SDK's document client: the operator commands' side (they write
// it, and read it back consistently). The Lambdas on a customer's path read it without the SDK
// (settingsOverHttp in shop-settings.ts).

/** Reads the settings; `consistent` for the operator, who must see the write they just made. */
export async function readShopSettings(table: ShopTable, consistent = false): Promise<ShopSettings> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: itemKey(SETTINGS_KEY), ConsistentRead: consistent }),
  );
  return settingsFromItem(Item);
}

/** Replaces the settings (one item, last write wins: there is one merchant). */
export async function writeShopSettings(
  table: ShopTable,
  settings: { mode: ShopSettings['mode']; message?: string | undefined },
  now: Date,
): Promise<ShopSettings> {
  const message = settings.message === undefined ? undefined : checkShopMessage(settings.message);
  if (settings.mode === 'paused' && message === undefined) {
    throw new RefusedError('Pausing needs a --message for the page, for example "Back on 5 January".');
  }
  const item = {
    ...itemKey(SETTINGS_KEY),
    mode: settings.mode,
    ...(message !== undefined && { message }),
    updatedAt: now.toISOString(),
  };
  await table.client.send(new PutCommand({ TableName: table.tableName, Item: item }));
  return { mode: item.mode, message, updatedAt: item.updatedAt };
}
