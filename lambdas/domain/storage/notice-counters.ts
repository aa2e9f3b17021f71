import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { conditionalWrite, updateIf } from './conditional-writes';
import { itemKey, NOTICE_LIMIT_KEY_PREFIX, type ShopTable, TTL_ATTRIBUTE } from './orders-table';

// The counters behind the request notices' limits (lambdas/domain/operations/request-notice-limits.ts
// says why and which): one item per scope and hour, each taken with one conditional write.

/** Counters are deleted (TTL) a day after they are last written: long after their hour. */
const COUNTER_LIFETIME_SECONDS = 24 * 3600;

/** The one item counting requests recorded without a notice since the last notice went out. */
const UNNOTIFIED_KEY = `${NOTICE_LIMIT_KEY_PREFIX}unnotified`;

/**
 * One conditional update of the counter item `name`: its own ADD or SET, and the TTL that deletes
 * it `lifetimeSeconds` after `now`.
 */
function updateCounter(
  table: ShopTable,
  counter: { name: string; now: Date; lifetimeSeconds: number },
  update: {
    condition: string;
    add?: string;
    set?: string;
    names: Record<string, string>;
    values: Record<string, unknown>;
  },
): Promise<boolean> {
  return updateIf(table, `${NOTICE_LIMIT_KEY_PREFIX}${counter.name}`, {
    ConditionExpression: update.condition,
    UpdateExpression: `${update.add ? `ADD ${update.add} ` : ''}SET ${[update.set, '#ttl = :deleteAfter'].filter(Boolean).join(', ')}`,
    ExpressionAttributeNames: { ...update.names, '#ttl': TTL_ATTRIBUTE },
    ExpressionAttributeValues: {
      ...update.values,
      ':deleteAfter': Math.floor(counter.now.getTime() / 1000) + counter.lifetimeSeconds,
    },
  });
}

/** One from the counter `name` (`count < limit`, then `count + 1`): `false` when none is left. */
export function takeFromCounter(table: ShopTable, name: string, limit: number, now: Date): Promise<boolean> {
  return updateCounter(
    table,
    { name, now, lifetimeSeconds: COUNTER_LIFETIME_SECONDS },
    {
      condition: 'attribute_not_exists(#count) OR #count < :limit',
      add: '#count :one',
      names: { '#count': 'count' },
      values: { ':one': 1, ':limit': limit },
    },
  );
}

/** Adds one to the requests recorded without a notice, remembering since when. */
export async function countUnnotified(table: ShopTable, now: Date): Promise<void> {
  await updateIf(table, UNNOTIFIED_KEY, {
    UpdateExpression: 'ADD #count :one SET #since = if_not_exists(#since, :now)',
    ExpressionAttributeNames: { '#count': 'count', '#since': 'since' },
    ExpressionAttributeValues: { ':one': 1, ':now': now.toISOString() },
  });
}

const unnotifiedSchema = z.object({
  count: z.number().check(z.int(), z.positive()),
  since: z.iso.datetime(),
});

/**
 * Takes the unnotified count for the notice about to go out, resetting it in the same update: a
 * request counted meanwhile is either in this notice or left for the next, never both or neither.
 */
export async function takeUnnotified(
  table: ShopTable,
): Promise<{ count: number; since: string } | undefined> {
  let taken: Record<string, unknown> | undefined;
  await conditionalWrite(async () => {
    const { Attributes } = await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: itemKey(UNNOTIFIED_KEY),
        ConditionExpression: 'attribute_exists(#count)',
        UpdateExpression: 'REMOVE #count, #since',
        ExpressionAttributeNames: { '#count': 'count', '#since': 'since' },
        ReturnValues: 'ALL_OLD',
      }),
    );
    taken = Attributes;
  });
  const parsed = unnotifiedSchema.safeParse(taken);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Holds the counter item `name` for `holder` (one conditional write, so two holders cannot both
 * take it; the same holder asking again keeps it): `false` when another holds it.
 */
export function holdCounter(table: ShopTable, name: string, holder: string, now: Date): Promise<boolean> {
  // Two days: a London day in the name may end up to a day after `now`'s UTC one.
  return updateCounter(
    table,
    { name, now, lifetimeSeconds: 2 * COUNTER_LIFETIME_SECONDS },
    {
      condition: 'attribute_not_exists(#holder) OR #holder = :reference',
      set: '#holder = :reference',
      names: { '#holder': 'heldBy' },
      values: { ':reference': holder },
    },
  );
}
