import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite } from '../orders/conditional-writes';
import { capacityDayKey, itemKey, type ShopTable } from '../orders/orders-table';
import {
  attributeNames,
  type CapacityDay,
  type CapacityStore,
  capacityDayFromItem,
  usedValues,
} from './capacity-store';
import { CLIENT_HOLD_NAMES, type ClientHoldItems, clientHoldsFromItem, replaceUpdate } from './client-holds';

/** The capacity store over the SDK's document client: the only one (ADR 0035). */
export function capacityStoreFromTable(table: ShopTable): CapacityStore {
  const key = (date: string) => itemKey(capacityDayKey(date));
  return {
    async change(date, change) {
      let after: CapacityDay | undefined;
      const written = await conditionalWrite(async () => {
        const { Attributes } = await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: key(date),
            UpdateExpression: change.update,
            ConditionExpression: change.condition,
            ExpressionAttributeNames: attributeNames(change),
            ExpressionAttributeValues: { ...usedValues(change) },
            ReturnValues: 'ALL_NEW',
          }),
        );
        after = capacityDayFromItem(date, Attributes);
      });
      return written ? after : undefined;
    },
    async apply(date, change) {
      return conditionalWrite(async () => {
        await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: key(date),
            UpdateExpression: change.update,
            ConditionExpression: change.condition,
            ExpressionAttributeNames: attributeNames(change),
            ExpressionAttributeValues: { ...usedValues(change) },
          }),
        );
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
      return conditionalWrite(() =>
        table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: itemKey(pk),
            UpdateExpression: update,
            ConditionExpression: condition,
            ExpressionAttributeNames: CLIENT_HOLD_NAMES,
            ExpressionAttributeValues: {
              ':holds': new Set(holds),
              ':next': version + 1,
              ':deleteAfter': deleteAfter,
              ...(version !== 0 && { ':version': version }),
            },
          }),
        ),
      );
    },
  };
}
