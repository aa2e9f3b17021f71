import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IsoDate } from '../../../shared/dispatch';
import { RefusedError } from '../refusal';
import type { CapacitySettings } from './capacity-settings';
import { conditionalWrite, type ItemUpdate, updateIf } from './conditional-writes';
import { itemKey, SETTINGS_KEY, type ShopTable } from './orders-table';
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
 * Sets the shop's mode and message by an update, not a put, leaving the capacity settings on the same item.
 * Last write wins (one merchant). `modeSince` moves only when the mode changes, so `status` says since when
 * the shop is paused: two conditional updates, as one cannot set an attribute only when another changes.
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
    const changed = await updateIf(table, SETTINGS_KEY, {
      UpdateExpression: `SET #mode = :mode, #updatedAt = :now, #modeSince = :now${setMessage}`,
      ConditionExpression: 'attribute_not_exists(#mode) OR #mode <> :mode',
      ExpressionAttributeNames: { ...names, '#modeSince': 'modeSince' },
      ExpressionAttributeValues: values,
    });
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
 * Replaces the capacity settings whole, to seed a shop (tests, a fresh stack); a merchant's change goes
 * through writeWeeklyCapacity or writeDayCapacity so concurrent changes of other days stay. A new item reads
 * as open, with no `modeSince`; an existing item's `updatedAt` and `modeSince` stay.
 */
export async function writeCapacitySettings(
  table: ShopTable,
  capacity: CapacitySettings,
  now: Date,
): Promise<void> {
  const sets = [...KEEP_OR_OPEN];
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
      ExpressionAttributeNames: KEEP_OR_OPEN_NAMES,
      ExpressionAttributeValues: {
        ...keepOrOpenValues(now),
        ...(capacity.weekly !== undefined && { ':weekly': capacity.weekly }),
        ...(Object.keys(days).length > 0 && { ':days': { ...days } }),
      },
    }),
  );
}

// A capacity write on a shop with no settings item makes one that reads as open (as no item did);
// on an existing item it leaves the mode and `updatedAt` as they are.
const KEEP_OR_OPEN = ['#mode = if_not_exists(#mode, :open)', '#updatedAt = if_not_exists(#updatedAt, :now)'];
const KEEP_OR_OPEN_NAMES = { '#mode': 'mode', '#updatedAt': 'updatedAt' };
const keepOrOpenValues = (now: Date) => ({ ':open': 'open', ':now': now.toISOString() });

/** Sets the weekly default (undefined: no limit), one attribute, leaving every day's own limit as it is. */
export async function writeWeeklyCapacity(
  table: ShopTable,
  weekly: number | undefined,
  now: Date,
): Promise<void> {
  await table.client.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: itemKey(SETTINGS_KEY),
      UpdateExpression: `SET ${[...KEEP_OR_OPEN, ...(weekly === undefined ? [] : ['capacityWeekly = :weekly'])].join(', ')}${weekly === undefined ? ' REMOVE capacityWeekly' : ''}`,
      ExpressionAttributeNames: KEEP_OR_OPEN_NAMES,
      ExpressionAttributeValues: {
        ...keepOrOpenValues(now),
        ...(weekly !== undefined && { ':weekly': weekly }),
      },
    }),
  );
}

/**
 * Sets one day's limit (`null`: none that day; `undefined`: back to the weekly default) and drops `stale`
 * days, by one update of those entries alone, so concurrent changes of other days stay. The map is created by
 * a write conditional on its absence, so two first changes cannot overwrite each other either.
 */
export async function writeDayCapacity(
  table: ShopTable,
  change: { date: IsoDate; limit: number | null | undefined; stale?: readonly IsoDate[] | undefined },
  now: Date,
): Promise<void> {
  const { date, limit } = change;
  const stale = (change.stale ?? []).filter((day) => day !== date);
  const staleNames = Object.fromEntries(stale.map((day, index) => [`#stale${index}`, day]));
  const removeStale = stale.map((_, index) => `capacityDays.#stale${index}`);
  const send = (input: ItemUpdate) => updateIf(table, SETTINGS_KEY, input);
  const names = { ...KEEP_OR_OPEN_NAMES, ...staleNames, '#day': date };
  if (limit === undefined) {
    // No map: no day has its own limit, so there is nothing to take away.
    await send({
      UpdateExpression: `REMOVE ${['capacityDays.#day', ...removeStale].join(', ')}`,
      ConditionExpression: 'attribute_exists(capacityDays)',
      ExpressionAttributeNames: { ...staleNames, '#day': date },
    });
    return;
  }
  // The map may appear between the two writes (another day's first change): then the first again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inMap = await send({
      UpdateExpression: `SET ${[...KEEP_OR_OPEN, 'capacityDays.#day = :limit'].join(', ')}${removeStale.length > 0 ? ` REMOVE ${removeStale.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(capacityDays)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...keepOrOpenValues(now), ':limit': limit },
    });
    if (inMap) return;
    const newMap = await send({
      UpdateExpression: `SET ${[...KEEP_OR_OPEN, 'capacityDays = :days'].join(', ')}`,
      ConditionExpression: 'attribute_not_exists(capacityDays)',
      ExpressionAttributeNames: KEEP_OR_OPEN_NAMES,
      ExpressionAttributeValues: { ...keepOrOpenValues(now), ':days': { [date]: limit } },
    });
    if (newMap) return;
  }
  throw new Error(`Could not write the capacity of ${date}: the settings changed under each of three writes`);
}
