import type { HistoryEntry } from '../../../shared/admin-responses';
import type { ShopEmailKind } from '../../../shared/email-kinds';
import type { ItemUpdate } from './conditional-writes';
import { appendHistory } from './history';
import { DISPATCH_DATE_INDEX, dispatchSortKey } from './orders-table';
import { emailDue } from './send-once';

/**
 * What a change writes beside itself, in its own update: the email it makes due (to send once)
 * and the history line that names it, so neither is written without the change.
 */
export function dueWithHistory(email: ShopEmailKind, entry: HistoryEntry) {
  const due = emailDue(email);
  const history = appendHistory(entry);
  return {
    set: `${due.set}, ${history.set}`,
    remove: due.remove,
    names: { ...due.names, ...history.names },
    values: { ...history.values, ':pending': 'pending' },
  };
}

/**
 * The update moving a record to `status` while `condition` holds: `<status>At`, its day's sort key, the email
 * due and its history line, plus the move's own `set`, `names`, `values`.
 */
export function statusMove(move: {
  status: 'dispatched' | 'refunded' | 'invited' | 'declined';
  /** When the item began (paidAt, createdAt): its day index sort key's instant. */
  since: string;
  reference: string;
  condition: string;
  email: ShopEmailKind;
  entry: HistoryEntry;
  set?: string | undefined;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}): ItemUpdate {
  const also = dueWithHistory(move.email, move.entry);
  // The status's own placeholder (`:dispatched`): a move's write is found by it in logs and tests.
  return {
    ConditionExpression: move.condition,
    UpdateExpression: `SET #status = :${move.status}, ${move.status}At = :now, #sort = :sk, ${move.set ? `${move.set}, ` : ''}${also.set} REMOVE ${also.remove}`,
    ExpressionAttributeNames: {
      '#status': 'status',
      '#sort': DISPATCH_DATE_INDEX.sortKey,
      ...also.names,
      ...move.names,
    },
    ExpressionAttributeValues: {
      [`:${move.status}`]: move.status,
      ':now': move.entry.at,
      ':sk': dispatchSortKey(move.status, move.since, move.reference),
      ...also.values,
      ...move.values,
    },
  };
}
