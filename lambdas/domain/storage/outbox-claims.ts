import { updateIf } from './conditional-writes';
import type { ManagedOrder, OutboxEntry, OutboxKind } from './managed-order';
import { orderKey, type ShopTable } from './orders-table';
import { emailAttributes } from './send-once';

// The outbox sender's writes (emails/outbox-sender.ts says when each is made): the order's lock
// taken with one entry, that entry handed back or settled with the lock freed, the due marker cleared.

/** The entry's update paths, named once: `outbox.<key>.<field>`. */
function entryNames(key: string) {
  return { '#outbox': 'outbox', '#entry': key, '#state': 'state', '#lock': 'outboxLock', '#token': 'token' };
}

/** Takes the order's lock for `key`, which must still be as read, and no live sender hold the lock. */
export function claimEntry(
  order: ManagedOrder,
  key: string,
  entry: OutboxEntry,
  token: string,
  now: Date,
  table: ShopTable,
): Promise<boolean> {
  const lock = order.outboxLock;
  return updateIf(table, orderKey(order.sessionId), {
    ConditionExpression: `#outbox.#entry.#state = :read AND ${lock === undefined ? 'attribute_not_exists(#lock)' : '#lock.#token = :oldToken'}`,
    UpdateExpression:
      'SET #lock = :lock, #outbox.#entry.#state = :sending, #outbox.#entry.claimToken = :token, #outbox.#entry.claimedAt = :now',
    ExpressionAttributeNames: {
      '#outbox': 'outbox',
      '#entry': key,
      '#state': 'state',
      '#lock': 'outboxLock',
      ...(lock !== undefined && { '#token': 'token' }),
    },
    ExpressionAttributeValues: {
      ':read': entry.state,
      ':sending': 'sending',
      ':token': token,
      ':now': now.toISOString(),
      ':lock': { token, entry: key, at: now.toISOString() },
      ...(lock !== undefined && { ':oldToken': lock.token }),
    },
  });
}

/** Hands a claimed entry back to `pending` and frees the lock, while `token` still holds it. */
export function handBackEntry(
  table: ShopTable,
  sessionId: string,
  key: string,
  token: string,
): Promise<boolean> {
  return updateIf(table, orderKey(sessionId), {
    ConditionExpression: '#lock.#token = :token',
    UpdateExpression: 'SET #outbox.#entry.#state = :pending REMOVE #lock, #outbox.#entry.claimToken',
    ExpressionAttributeNames: entryNames(key),
    ExpressionAttributeValues: { ':token': token, ':pending': 'pending' },
  });
}

/**
 * Marks a claimed entry final and frees the lock while `token` holds it; with `newest` (its kind's newest in
 * `version`) the flat state too, if the version is unchanged.
 */
export function settleEntry(
  table: ShopTable,
  sessionId: string,
  key: string,
  token: string,
  final: { state: 'sent' | 'failed'; detail: string; at: string },
  newest?: { kind: OutboxKind; version: number },
): Promise<boolean> {
  const [when, detail] = final.state === 'sent' ? ['sentAt', 'messageId'] : ['failedAt', 'failureReason'];
  const flat = newest === undefined ? undefined : emailAttributes(newest.kind);
  return updateIf(table, orderKey(sessionId), {
    ConditionExpression: `#lock.#token = :token${newest ? ' AND #version = :version' : ''}`,
    UpdateExpression: `SET #outbox.#entry.#state = :final, #outbox.#entry.#when = :at, #outbox.#entry.#detail = :detail${newest ? ', #flatState = :final, #flatAt = :at' : ''} REMOVE #lock, #outbox.#entry.claimToken`,
    ExpressionAttributeNames: {
      ...entryNames(key),
      '#when': when,
      '#detail': detail,
      ...(flat && {
        '#version': 'version',
        '#flatState': flat.state,
        '#flatAt': final.state === 'sent' ? flat.sentAt : flat.failedAt,
      }),
    },
    ExpressionAttributeValues: {
      ':token': token,
      ':final': final.state,
      ':at': final.at,
      ':detail': final.detail,
      ...(newest && { ':version': newest.version }),
    },
  });
}

/** Removes the due marker once every entry is settled, unless a write added one meanwhile. */
export function clearOutboxDue(order: ManagedOrder, table: ShopTable): Promise<boolean> {
  return updateIf(table, orderKey(order.sessionId), {
    ConditionExpression: '#version = :version AND attribute_not_exists(#lock)',
    UpdateExpression: 'REMOVE #due',
    ExpressionAttributeNames: { '#version': 'version', '#lock': 'outboxLock', '#due': 'outboxDueAt' },
    ExpressionAttributeValues: { ':version': order.version ?? 0 },
  });
}
