import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  attributeNames,
  type CapacityChange,
  type CapacityDay,
  type CapacityStore,
  capacityDayFromItem,
  usedValues,
} from './capacity-store';
import { conditionalWrite, updateIf } from './conditional-writes';
import { capacityDayKey, itemKey, type ShopTable, TTL_ATTRIBUTE } from './orders-table';

/** The capacity store over the SDK's document client: the only one (ADR 0035). */
export function capacityStoreFromTable(table: ShopTable): CapacityStore {
  const key = (date: string) => itemKey(capacityDayKey(date));
  const update = (date: string, change: CapacityChange) => ({
    TableName: table.tableName,
    Key: key(date),
    UpdateExpression: change.update,
    ConditionExpression: change.condition,
    ExpressionAttributeNames: attributeNames(change),
    ExpressionAttributeValues: { ...usedValues(change) },
  });
  return {
    async change(date, change) {
      let after: CapacityDay | undefined;
      const written = await conditionalWrite(async () => {
        const { Attributes } = await table.client.send(
          new UpdateCommand({ ...update(date, change), ReturnValues: 'ALL_NEW' }),
        );
        after = capacityDayFromItem(date, Attributes);
      });
      return written ? after : undefined;
    },
    async apply(date, change) {
      return conditionalWrite(async () => {
        await table.client.send(new UpdateCommand(update(date, change)));
      });
    },
    async read(date) {
      const { Item } = await table.client.send(
        new GetCommand({ TableName: table.tableName, Key: key(date), ConsistentRead: true }),
      );
      return capacityDayFromItem(date, Item);
    },
  };
}

/** The client-holds items: client-holds.ts counts in them, clientHoldItemsFromTable stores them. */
export interface ClientHoldItems {
  /** The item's holds (`<day>/<hold id>`) and version (0: no item), read strongly consistent. */
  read(pk: string): Promise<{ holds: ReadonlySet<string>; version: number }>;
  /** Replaces the holds when the version is still `version`: false when another write came first. */
  replace(pk: string, holds: ReadonlySet<string>, version: number, deleteAfter: number): Promise<boolean>;
}

/** The client-holds item's attribute names, as its expressions use them. */
export const CLIENT_HOLD_NAMES = { '#holds': 'holds', '#version': 'version', '#ttl': TTL_ATTRIBUTE };

/** The conditional update that replaces an item's holds. */
export function replaceUpdate(version: number): { update: string; condition: string } {
  return {
    update: 'SET #holds = :holds, #version = :next, #ttl = :deleteAfter',
    condition: version === 0 ? 'attribute_not_exists(#version)' : '#version = :version',
  };
}

/** An item as the document client reads it (plain values). */
function clientHoldsFromItem(item: Record<string, unknown> | undefined): {
  holds: ReadonlySet<string>;
  version: number;
} {
  const holds = item?.holds;
  const version = item?.version;
  return {
    holds:
      holds instanceof Set ? new Set([...holds].filter((value) => typeof value === 'string')) : new Set(),
    version: typeof version === 'number' && Number.isInteger(version) ? version : 0,
  };
}

/** The client-holds items over the document client: requests mode's side (client-holds.ts). */
export function clientHoldItemsFromTable(table: ShopTable): ClientHoldItems {
  return {
    async read(pk) {
      const { Item } = await table.client.send(
        new GetCommand({ TableName: table.tableName, Key: itemKey(pk), ConsistentRead: true }),
      );
      return clientHoldsFromItem(Item);
    },
    async replace(pk, holds, version, deleteAfter) {
      const { update, condition } = replaceUpdate(version);
      return updateIf(table, pk, {
        UpdateExpression: update,
        ConditionExpression: condition,
        ExpressionAttributeNames: CLIENT_HOLD_NAMES,
        ExpressionAttributeValues: {
          ':holds': new Set(holds),
          ':next': version + 1,
          ':deleteAfter': deleteAfter,
          ...(version !== 0 && { ':version': version }),
        },
      });
    },
  };
}
