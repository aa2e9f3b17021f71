import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import { customerFields, emailStateSchema, isoInstant } from './order';
import {
  FAILED_DEBIT_KEY_PREFIX,
  failedDebitKey,
  itemKey,
  PARTITION_KEY,
  PENDING_DEBIT_KEY_PREFIX,
  pendingDebitKey,
  type ShopTable,
  TTL_ATTRIBUTE,
} from './orders-table';
import { readItem } from './read-item';

// A Bacs debit's records before it is an order, pending or failed (docs/decisions/0025-bacs-debits.md), with
// every other DynamoDB command (ADR 0051).

/**
 * The TTL (epoch seconds) of a record of money not received (a debit's, a failed renewal's) written at `now`:
 * 90 days, beyond the reconciler's longest window (60), so no run finds it again; then TTL deletes its PII.
 */
export function unpaidRecordTtl(now: Date): number {
  return Math.floor(now.getTime() / 1000) + 90 * 86_400;
}

/**
 * `pending` while with the bank; `recorded` once the order exists. The email is claimed only while `pending`,
 * so no "waiting for your bank" follows a confirmation.
 */
export const PENDING_DEBIT_STATUS = { pending: 'pending', recorded: 'recorded' } as const;

/**
 * `PENDING_DEBIT#<session id>`, written whole by recordPendingDebit, or first by fulfilment with only key,
 * page key, status and TTL (the order came first): then there is nothing to send.
 */
export const pendingDebitItemSchema = z.object({
  [PARTITION_KEY]: z.string().check(z.startsWith(PENDING_DEBIT_KEY_PREFIX)),
  pageKey: z.string(),
  status: z.enum([PENDING_DEBIT_STATUS.pending, PENDING_DEBIT_STATUS.recorded]),
  [TTL_ATTRIBUTE]: z.number().check(z.int()),
  reference: z.optional(z.string()),
  sessionId: z.optional(z.string()),
  livemode: z.optional(z.boolean()),
  bottles: z.optional(z.number().check(z.int())),
  totalPence: z.optional(z.number().check(z.int())),
  customerName: z.optional(z.string()),
  customerEmail: z.optional(z.string()),
  dispatchDate: z.optional(calendarDateSchema),
  checkoutCreatedAt: z.optional(isoInstant),
  recordedAt: z.optional(isoInstant),
  orderRecordedAt: z.optional(isoInstant),
  debitPendingEmailState: z.optional(emailStateSchema),
});
export type PendingDebitItem = z.output<typeof pendingDebitItemSchema>;

/** The record of a failed debit as stored (`FAILED_DEBIT#<session id>`); checked when read back. */
export const failedDebitItemSchema = z.object({
  [PARTITION_KEY]: z.string().check(z.startsWith(FAILED_DEBIT_KEY_PREFIX)),
  reference: z.string(),
  sessionId: z.string(),
  paymentIntentId: z.optional(z.string()),
  livemode: z.boolean(),
  bottles: z.number().check(z.int()),
  totalPence: z.number().check(z.int()),
  ...customerFields,
  checkoutCreatedAt: isoInstant,
  recordedAt: isoInstant,
  failureMessage: z.optional(z.string()),
  [TTL_ATTRIBUTE]: z.number().check(z.int()),
  debitFailedEmailState: emailStateSchema,
  debitFailedNoticeEmailState: emailStateSchema,
});
export type FailedDebitItem = z.output<typeof failedDebitItemSchema>;

/** A pending debit's record, read strongly consistent; undefined when there is none. */
export function readPendingDebit(table: ShopTable, sessionId: string): Promise<PendingDebitItem | undefined> {
  return readItem(table, pendingDebitKey(sessionId), pendingDebitItemSchema);
}

/** A failed debit's record, read strongly consistent; undefined when there is none. */
export function readFailedDebit(table: ShopTable, sessionId: string): Promise<FailedDebitItem | undefined> {
  return readItem(table, failedDebitKey(sessionId), failedDebitItemSchema);
}

/**
 * The pending record's page key, so the "waiting for your bank" link opens the order; else `freshKey`,
 * written there so a later pending path sends nothing. An `if_not_exists` upsert: every path gets the same
 * key in any order, and the record is marked `recorded` in the same write.
 */
export async function takePendingPageKey(
  table: ShopTable,
  sessionId: string,
  now: Date,
  freshKey: string,
): Promise<string> {
  const { Attributes } = await table.client.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: itemKey(pendingDebitKey(sessionId)),
      UpdateExpression:
        'SET #pageKey = if_not_exists(#pageKey, :pageKey), #status = :recorded, #orderRecordedAt = if_not_exists(#orderRecordedAt, :now), #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: {
        '#pageKey': 'pageKey',
        '#status': 'status',
        '#orderRecordedAt': 'orderRecordedAt',
        '#ttl': TTL_ATTRIBUTE,
      },
      ExpressionAttributeValues: {
        ':pageKey': freshKey,
        ':recorded': PENDING_DEBIT_STATUS.recorded,
        ':now': now.toISOString(),
        ':ttl': unpaidRecordTtl(now),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const pageKey = Attributes?.pageKey;
  if (typeof pageKey !== 'string')
    throw new Error(`${pendingDebitKey(sessionId)} has no page key after its update`);
  return pageKey;
}

/** Whether the session's debit failed (a record exists), read strongly consistent and keys only. */
export async function hasFailedDebit(table: ShopTable, sessionId: string): Promise<boolean> {
  const { Item } = await table.client.send(
    new GetCommand({
      TableName: table.tableName,
      Key: itemKey(failedDebitKey(sessionId)),
      ConsistentRead: true,
      ProjectionExpression: PARTITION_KEY,
    }),
  );
  return Item !== undefined;
}
