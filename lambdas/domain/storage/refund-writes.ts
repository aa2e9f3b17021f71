import type { HistoryEntry } from '../../../shared/admin-responses';
import { updateIf } from './conditional-writes';
import { appendHistory } from './history';
import { orderKey, type ShopTable } from './orders-table';

// The refunds' own conditional writes on an order (operations/part-refund.ts and order-actions.ts
// say when each is made); the outbox's change (outbox.ts) records the refund itself.

/**
 * Marks part refund number `seq` as asked of Stripe, while the order is paid or dispatched and has
 * exactly `seq - 1` part refunds: `false` when it changed meanwhile.
 */
export function markPartRefundPending(table: ShopTable, sessionId: string, seq: number): Promise<boolean> {
  const before = partRefundsBefore(seq);
  return updateIf(table, orderKey(sessionId), {
    ConditionExpression: `#status IN (:paid, :dispatched) AND ${before.condition}`,
    UpdateExpression: 'SET partRefundPending = :seq',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':paid': 'paid',
      ':dispatched': 'dispatched',
      ':seq': seq,
      ...before.values,
    },
  });
}

/** The condition (and its values) that the order has exactly `seq - 1` part refunds: part refund `seq` is next. */
export function partRefundsBefore(seq: number): { condition: string; values: Record<string, number> } {
  return seq === 1
    ? { condition: 'attribute_not_exists(partRefunds)', values: {} }
    : { condition: 'size(partRefunds) = :before', values: { ':before': seq - 1 } };
}

/** Withdraws part refund `seq`'s mark (Stripe refused it), unless another has replaced it. */
export function clearPartRefundPending(table: ShopTable, sessionId: string, seq: number): Promise<boolean> {
  return updateIf(table, orderKey(sessionId), {
    ConditionExpression: 'partRefundPending = :seq',
    UpdateExpression: 'REMOVE partRefundPending',
    ExpressionAttributeValues: { ':seq': seq },
  });
}

/** Names the refund on an order the webhook recorded as refunded without it: `false` when named already. */
export function nameRecordedRefund(table: ShopTable, sessionId: string, refundId: string): Promise<boolean> {
  return updateIf(table, orderKey(sessionId), {
    ConditionExpression: '#status = :refunded AND attribute_not_exists(refundId)',
    UpdateExpression: 'SET refundId = :refundId',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':refunded': 'refunded', ':refundId': refundId },
  });
}

/**
 * Records that `amountPence` of a paid or dispatched order is refunded so far (a part refund made
 * in Stripe), with `entry` in its history, only when that is more than it had recorded.
 */
export function recordRefundedSoFar(
  table: ShopTable,
  sessionId: string,
  amountPence: number,
  entry: HistoryEntry,
): Promise<boolean> {
  const history = appendHistory(entry);
  return updateIf(table, orderKey(sessionId), {
    ConditionExpression:
      '#status IN (:paid, :dispatched) AND (attribute_not_exists(partlyRefundedPence) OR partlyRefundedPence < :amount)',
    UpdateExpression: `SET partlyRefundedPence = :amount, ${history.set}`,
    ExpressionAttributeNames: { '#status': 'status', ...history.names },
    ExpressionAttributeValues: {
      ...history.values,
      ':paid': 'paid',
      ':dispatched': 'dispatched',
      ':amount': amountPence,
    },
  });
}
