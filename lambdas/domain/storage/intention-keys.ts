import { createHash, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { conditionalWrite, updateIf } from './conditional-writes';
import {
  IDEMPOTENCY_KEY_PREFIX,
  itemKey,
  PARTITION_KEY,
  type ShopTable,
  TTL_ATTRIBUTE,
} from './orders-table';

// An admin action's intention key (the `Idempotency-Key` header): the first request claims it with
// one conditional put, and its answer is kept on the same item, so a repeat is answered, not redone.

/** How long an answer is kept for its key: a day, as Stripe keeps its own keys. */
export const INTENTION_TTL_SECONDS = 24 * 60 * 60;

/**
 * An older `running` claim is a crashed attempt's (the admin Lambda stops within 30 s): a repeat may take it.
 */
export const STALE_INTENTION_MS = 2 * 60_000;

/** Whose key, on which route: keys are the merchant's own, and a key means one thing per route. */
export interface IntentionScope {
  /** The merchant's `sub`. */
  merchant: string;
  route: string;
  key: string;
}

/** What one request came to: its status and the JSON body it answered. */
export interface IntentionAnswer {
  statusCode: number;
  body: string;
}

/**
 * `claimed` (ours, with the token that finishes or releases it), `done` (answered), `running` (another
 * request), or `otherRequest` (the key was used for another body).
 */
export type IntentionClaim =
  | { kind: 'claimed'; token: string }
  | ({ kind: 'done' } & IntentionAnswer)
  | { kind: 'running' }
  | { kind: 'otherRequest' };

/** A key's item once `finishIntention` kept its answer; any other item is still being acted on. */
const keptAnswer = z.object({ intentionState: z.literal('done'), statusCode: z.number(), body: z.string() });

/** The table key of a key's item. */
export function intentionKey(scope: IntentionScope): string {
  return `${IDEMPOTENCY_KEY_PREFIX}${scope.merchant}#${scope.route}#${scope.key}`;
}

/** The intention passed on to Stripe's idempotency keys: short, the same only for merchant, route and key. */
export function intentionId(scope: IntentionScope): string {
  return createHash('sha256').update(intentionKey(scope)).digest('hex').slice(0, 32);
}

/** What the request was, to tell a repeat from another request under the same key. */
export function requestFingerprint(input: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(input ?? null))
    .digest('hex');
}

/** Claims a new key, one whose day is over (TTL deletes late), one released, or this request's stale one. */
export async function claimIntention(
  table: ShopTable,
  scope: IntentionScope,
  fingerprint: string,
  now: Date,
): Promise<IntentionClaim> {
  const pk = intentionKey(scope);
  const token = randomUUID();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const claimed = await conditionalWrite(() =>
    table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          [PARTITION_KEY]: pk,
          intentionState: 'running',
          fingerprint,
          claimToken: token,
          claimedAt: now.toISOString(),
          [TTL_ATTRIBUTE]: nowSeconds + INTENTION_TTL_SECONDS,
        },
        ConditionExpression:
          'attribute_not_exists(#pk) OR #ttl <= :now OR intentionState = :released OR (intentionState = :running AND fingerprint = :fingerprint AND claimedAt < :staleBefore)',
        ExpressionAttributeNames: { '#pk': PARTITION_KEY, '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':now': nowSeconds,
          ':released': 'released',
          ':running': 'running',
          ':fingerprint': fingerprint,
          // ISO instants in UTC compare correctly as strings.
          ':staleBefore': new Date(now.getTime() - STALE_INTENTION_MS).toISOString(),
        },
      }),
    ),
  );
  if (claimed) return { kind: 'claimed', token };
  const { Item: item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: itemKey(pk), ConsistentRead: true }),
  );
  if (item?.fingerprint !== fingerprint) return { kind: 'otherRequest' };
  const kept = keptAnswer.safeParse(item);
  return kept.success
    ? { kind: 'done', statusCode: kept.data.statusCode, body: kept.data.body }
    : { kind: 'running' };
}

/** Keeps the answer of our claim, for repeats: `false` when the claim was taken over meanwhile. */
export function finishIntention(
  table: ShopTable,
  scope: IntentionScope,
  token: string,
  answer: IntentionAnswer,
): Promise<boolean> {
  return updateIf(table, intentionKey(scope), {
    ConditionExpression: 'intentionState = :running AND claimToken = :token',
    UpdateExpression: 'SET intentionState = :done, #statusCode = :status, #body = :body REMOVE claimToken',
    ExpressionAttributeNames: { '#statusCode': 'statusCode', '#body': 'body' },
    ExpressionAttributeValues: {
      ':running': 'running',
      ':token': token,
      ':done': 'done',
      ':status': answer.statusCode,
      ':body': answer.body,
    },
  });
}

/** Lets the key go after a 5xx: a repeat may act, and the domain's exactly-once steps finish the work. */
export function releaseIntention(table: ShopTable, scope: IntentionScope, token: string): Promise<boolean> {
  return updateIf(table, intentionKey(scope), {
    ConditionExpression: 'intentionState = :running AND claimToken = :token',
    UpdateExpression: 'SET intentionState = :released REMOVE claimToken',
    ExpressionAttributeValues: { ':running': 'running', ':token': token, ':released': 'released' },
  });
}
