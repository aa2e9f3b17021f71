import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { itemKey, PARTITION_KEY, type ShopTable } from './orders-table';

// Every change to an order or a request is one of these: a conditional write on one item, so
// exactly-once needs neither transactions (dynalite has none) nor a lock.

/** Runs a conditional write: `false` when its condition did not hold, any other error thrown. */
export async function conditionalWrite(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    // By name as well: a second copy of the SDK in a bundle would make instanceof miss it.
    if (
      error instanceof ConditionalCheckFailedException ||
      (error instanceof Error && error.name === 'ConditionalCheckFailedException')
    )
      return false;
    throw error;
  }
}

/** The parts of an update that say what changes and when, without the table and the key. */
export type ItemUpdate = Omit<UpdateCommandInput, 'TableName' | 'Key'>;

/** Writes `item` only if no item has its key: `false` when one already did. */
export function putIfAbsent(table: ShopTable, item: Record<string, unknown>): Promise<boolean> {
  return conditionalWrite(() =>
    table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: item,
        ConditionExpression: `attribute_not_exists(${PARTITION_KEY})`,
      }),
    ),
  );
}

/**
 * Written once per event however often reported: the stored one, else `build`'s (or why not) put if absent,
 * else after a lost race the winner's. `recorded`: this call wrote it.
 */
export async function recordOnce<Item extends { [PARTITION_KEY]: string }, None extends string>(
  table: ShopTable,
  read: () => Promise<Item | undefined>,
  build: () => Promise<Item | None>,
): Promise<{ item: Item; recorded: boolean } | { none: None }> {
  const stored = await read();
  if (stored !== undefined) return { item: stored, recorded: false };
  const built = await build();
  if (typeof built === 'string') return { none: built };
  // DynamoDB refuses an attribute set to undefined: what Stripe did not give is left out.
  const recorded = await putIfAbsent(
    table,
    Object.fromEntries(Object.entries(built).filter(([, value]) => value !== undefined)),
  );
  const item = recorded ? built : await read();
  if (item === undefined)
    throw new Error(`${built[PARTITION_KEY]} was reported as existing but cannot be read`);
  return { item, recorded };
}

/** Updates the item `pk` if the update's condition holds: `false` when it did not. */
export function updateIf(table: ShopTable, pk: string, update: ItemUpdate): Promise<boolean> {
  return conditionalWrite(() =>
    table.client.send(new UpdateCommand({ TableName: table.tableName, Key: itemKey(pk), ...update })),
  );
}
