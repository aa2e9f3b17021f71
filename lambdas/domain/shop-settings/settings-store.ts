import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CapacitySettings } from '../capacity/capacity-settings';
import { conditionalWrite, type ItemUpdate } from '../orders/conditional-writes';
import { itemKey, SETTINGS_KEY, type ShopTable } from '../orders/orders-table';
import { RefusedError } from '../refusal';
import { checkShopMessage, type ShopSettings, settingsFromItem } from './shop-settings';

// The settings item through the SDK's document client: the operator commands write it and read it
// back consistently; the Lambdas read it through createSettingsReader (shop-settings.ts).

/** Reads the settings; `consistent` for the operator, who must see the write they just made. */
export async function readShopSettings(table: ShopTable, consistent = false): Promise<ShopSettings> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: itemKey(SETTINGS_KEY), ConsistentRead: consistent }),
  );
  return settingsFromItem(Item);
}

/**
 * Sets the shop's mode and message (one item, last write wins: there is one merchant). An update,
 * not a put: the same item holds the capacity settings, which a pause must leave as they are.
 *
 * `modeSince` moves only when the mode changes: a new message in the same mode, or a resume of an
 * open shop, keeps it, so `status` says since when the shop has been paused, not when its message
 * was last edited. Two conditional updates, as no one update can set an attribute only when
 * another changes: first "the mode changes" (or the item is new), else "the mode stays".
 */
export async function writeShopSettings(
  table: ShopTable,
  settings: { mode: ShopSettings['mode']; message?: string | undefined },
  now: Date,
): Promise<ShopSettings> {
  const message = settings.message === undefined ? undefined : checkShopMessage(settings.message);
  if (settings.mode === 'paused' && message === undefined) {
    throw new RefusedError('Pausing needs a --message for the page, for example "Back on 5 January".');
  }
  const updatedAt = now.toISOString();
  const setMessage = message === undefined ? ' REMOVE #message' : ', #message = :message';
  const names = { '#mode': 'mode', '#updatedAt': 'updatedAt', '#message': 'message' };
  const values = {
    ':mode': settings.mode,
    ':now': updatedAt,
    ...(message !== undefined && { ':message': message }),
  };
  const update = (input: ItemUpdate) =>
    table.client.send(
      new UpdateCommand({ TableName: table.tableName, Key: itemKey(SETTINGS_KEY), ...input }),
    );
  // A pause racing a resume can make each condition fail once in turn: try again, a few times.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const changed = await conditionalWrite(() =>
      update({
        UpdateExpression: `SET #mode = :mode, #updatedAt = :now, #modeSince = :now${setMessage}`,
        ConditionExpression: 'attribute_not_exists(#mode) OR #mode <> :mode',
        ExpressionAttributeNames: { ...names, '#modeSince': 'modeSince' },
        ExpressionAttributeValues: values,
      }),
    );
    if (changed) return { mode: settings.mode, message, updatedAt, modeSince: updatedAt };
    let stored: Record<string, unknown> | undefined;
    const kept = await conditionalWrite(async () => {
      const answer = await update({
        UpdateExpression: `SET #mode = :mode, #updatedAt = :now${setMessage}`,
        ConditionExpression: '#mode = :mode',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      });
      stored = answer.Attributes;
    });
    if (kept) {
      const { modeSince } = settingsFromItem(stored);
      return { mode: settings.mode, message, updatedAt, ...(modeSince !== undefined && { modeSince }) };
    }
  }
  throw new Error('The shop mode changed under each of three writes: try again');
}

/**
 * Replaces the capacity settings (the weekly default and every day's own limit), leaving the mode
 * as it is. A shop with no settings item yet gets one that reads as open, as no item did, with no
 * `modeSince` (open since ever, not since this write); an existing item's `updatedAt` and
 * `modeSince` stay as they are.
 */
export async function writeCapacitySettings(
  table: ShopTable,
  capacity: CapacitySettings,
  now: Date,
): Promise<void> {
  const sets = ['#mode = if_not_exists(#mode, :open)', '#updatedAt = if_not_exists(#updatedAt, :now)'];
  const removes: string[] = [];
  if (capacity.weekly === undefined) removes.push('capacityWeekly');
  else sets.push('capacityWeekly = :weekly');
  const days = capacity.days ?? {};
  if (Object.keys(days).length === 0) removes.push('capacityDays');
  else sets.push('capacityDays = :days');
  await table.client.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: itemKey(SETTINGS_KEY),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ExpressionAttributeNames: { '#mode': 'mode', '#updatedAt': 'updatedAt' },
      ExpressionAttributeValues: {
        ':open': 'open',
        ':now': now.toISOString(),
        ...(capacity.weekly !== undefined && { ':weekly': capacity.weekly }),
        ...(Object.keys(days).length > 0 && { ':days': { ...days } }),
      },
    }),
  );
}
