import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { updateIf } from './conditional-writes';
import { itemKey, PARTITION_KEY, PUSH_SUBSCRIPTIONS_KEY, type ShopTable } from './orders-table';

// The merchants' Web Push subscriptions (ADR 0056): one item, `PUSH_SUBSCRIPTIONS#shop`, one
// top-level attribute per device, so a subscribe or an unsubscribe is one update and an event's
// pushes cost one GetItem, with no index and no scan.

/** Each device's attribute on the item: `sub_<id>`, the id drawn from its endpoint. */
const ATTRIBUTE_PREFIX = 'sub_';

/** What the browser's PushSubscription gives (its JSON), and whose device it is. */
export const pushSubscriptionSchema = z.object({
  merchant: z.string(),
  endpoint: z.string(),
  p256dh: z.string(),
  auth: z.string(),
  createdAt: z.string(),
});
export type StoredPushSubscription = z.output<typeof pushSubscriptionSchema> & { id: string };

/** A device's id: its endpoint hashed (an endpoint is a capability URL, never logged whole). */
export function pushSubscriptionId(endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('base64url').slice(0, 22);
}

const attributeOf = (id: string) => `${ATTRIBUTE_PREFIX}${id}`;

/** Stores (or refreshes) one device's subscription; a device subscribed again replaces its keys. */
export async function savePushSubscription(
  table: ShopTable,
  subscription: Omit<StoredPushSubscription, 'id' | 'createdAt'>,
  now: Date,
): Promise<string> {
  const id = pushSubscriptionId(subscription.endpoint);
  const stored = { ...subscription, createdAt: now.toISOString() };
  await updateIf(table, PUSH_SUBSCRIPTIONS_KEY, {
    UpdateExpression: 'SET #sub = :sub',
    ExpressionAttributeNames: { '#sub': attributeOf(id) },
    ExpressionAttributeValues: { ':sub': stored },
  });
  return id;
}

/**
 * Removes one device's subscription: by the merchant turning it off (`merchant` given: only their
 * own) or because the push service said it is gone (404, 410). `false` when there was none to remove.
 */
export function removePushSubscription(table: ShopTable, id: string, merchant?: string): Promise<boolean> {
  const own = merchant === undefined ? '' : ' AND #sub.#merchant = :merchant';
  return updateIf(table, PUSH_SUBSCRIPTIONS_KEY, {
    ConditionExpression: `attribute_exists(#sub)${own}`,
    UpdateExpression: 'REMOVE #sub',
    ExpressionAttributeNames: {
      '#sub': attributeOf(id),
      ...(merchant !== undefined && { '#merchant': 'merchant' }),
    },
    ...(merchant !== undefined && { ExpressionAttributeValues: { ':merchant': merchant } }),
  });
}

/** Every device of every merchant: a new order is news to each of them. Malformed entries are skipped. */
export async function readPushSubscriptions(table: ShopTable): Promise<StoredPushSubscription[]> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: itemKey(PUSH_SUBSCRIPTIONS_KEY) }),
  );
  return Object.entries(Item ?? {}).flatMap(([name, value]) => {
    if (name === PARTITION_KEY || !name.startsWith(ATTRIBUTE_PREFIX)) return [];
    const parsed = pushSubscriptionSchema.safeParse(value);
    return parsed.success ? [{ ...parsed.data, id: name.slice(ATTRIBUTE_PREFIX.length) }] : [];
  });
}

/** The attribute an event's own item carries once its push was claimed. */
export const MERCHANT_PUSH_ATTRIBUTE = 'merchantPushAt';

/**
 * Claims one event's push on its own item before sending: `true` for the one attempt that may send, `false`
 * for replays, later runs and a missing item.
 */
export function claimMerchantPush(table: ShopTable, pk: string, now: Date): Promise<boolean> {
  return updateIf(table, pk, {
    ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#pushAt)',
    UpdateExpression: 'SET #pushAt = :now',
    ExpressionAttributeNames: { '#pk': PARTITION_KEY, '#pushAt': MERCHANT_PUSH_ATTRIBUTE },
    ExpressionAttributeValues: { ':now': now.toISOString() },
  });
}
