import type { EmailKind, ShopEmailKind } from '../../../shared/email-kinds';
import { logger } from '../../lib/logger';
import { updateIf } from './conditional-writes';
import type { ShopTable } from './orders-table';

/**
 * An older `sending` claim belongs to a crashed attempt: far above one SES call (timeouts are seconds), far
 * below the reconciler's period, so a crashed send is retried on its next run at the latest.
 */
export const STALE_CLAIM_MS = 2 * 60_000;

/**
 * One email kind's state attributes, flat so each move is one conditional update; `failedAt` and
 * `failureReason` only for a confirmation, the one email whose recipient SES can refuse for good.
 */
export function emailAttributes<K extends EmailKind>(kind: K) {
  return {
    state: `${kind}EmailState`,
    claimedAt: `${kind}EmailClaimedAt`,
    claimToken: `${kind}EmailClaimToken`,
    sentAt: `${kind}EmailSentAt`,
    messageId: `${kind}EmailMessageId`,
    failedAt: `${kind}EmailFailedAt`,
    failureReason: `${kind}EmailFailureReason`,
  } as const;
}

/** What a transition adds to make its email due: `pending`, an earlier claim and send forgotten. */
export function emailDue(kind: ShopEmailKind): {
  set: string;
  remove: string;
  names: Record<string, string>;
} {
  const a = emailAttributes(kind);
  const id = `${kind}Email`;
  return {
    set: `#${id}State = :pending`,
    remove: `#${id}ClaimedAt, #${id}ClaimToken, #${id}SentAt, #${id}MessageId`,
    names: {
      [`#${id}State`]: a.state,
      [`#${id}ClaimedAt`]: a.claimedAt,
      [`#${id}ClaimToken`]: a.claimToken,
      [`#${id}SentAt`]: a.sentAt,
      [`#${id}MessageId`]: a.messageId,
    },
  };
}

/**
 * An email says something about the item ("on its way", "refunded"), so it is claimed only while that still
 * holds, and never ahead of an earlier email it contradicts.
 */
export interface ClaimGuard {
  /** The item's `status` the email describes; not claimed once the item has moved on. */
  status: string;
  /** Not claimed while one of these holds a fresh claim, so nobody reads "on its way" after "refunded". */
  after?: readonly EmailKind[];
}

/** `:staleBefore` is the claim's own: a contradicting claim that old belongs to a crashed attempt. */
function guardCondition(guard: ClaimGuard | undefined) {
  if (guard === undefined) return { condition: '', names: {}, values: {} };
  const names: Record<string, string> = { '#guardStatus': 'status' };
  const parts = ['#guardStatus = :guardStatus'];
  (guard.after ?? []).forEach((kind, i) => {
    const a = emailAttributes(kind);
    names[`#after${i}State`] = a.state;
    names[`#after${i}ClaimedAt`] = a.claimedAt;
    parts.push(
      `(attribute_not_exists(#after${i}State) OR #after${i}State <> :sending OR #after${i}ClaimedAt < :staleBefore)`,
    );
  });
  return { condition: ` AND ${parts.join(' AND ')}`, names, values: { ':guardStatus': guard.status } };
}

/** `superseded` (final): the item left the status the email describes; only from `pending`, in `status`. */
export function supersedeEmail(
  table: ShopTable,
  pk: string,
  kind: EmailKind,
  status: string,
): Promise<boolean> {
  const a = emailAttributes(kind);
  return updateIf(table, pk, {
    ConditionExpression: '#state = :pending AND #status = :status',
    UpdateExpression: 'SET #state = :superseded',
    ExpressionAttributeNames: { '#state': a.state, '#status': 'status' },
    ExpressionAttributeValues: { ':pending': 'pending', ':superseded': 'superseded', ':status': status },
  });
}

/** The conditional moves of one email's state on the item `id` (a key, or session id); `false` if refused. */
export interface EmailClaimStore<Id, Kind extends EmailKind> {
  /** `pending` (or `sending` older than `staleBefore`) → `sending`; `false` if held, final or unguarded. */
  claimEmail(
    id: Id,
    kind: Kind,
    token: string,
    now: Date,
    staleBefore: Date,
    guard?: ClaimGuard,
  ): Promise<boolean>;
  /** `sending` with our token → `sent`. `false` when our claim was taken over meanwhile. */
  markEmailSent(id: Id, kind: Kind, token: string, messageId: string, now: Date): Promise<boolean>;
  /** Our `sending` → `failed` (final): SES refused the recipient for good; `false` if our claim was taken. */
  markEmailFailed(id: Id, kind: Kind, token: string, reason: string, now: Date): Promise<boolean>;
  /** `sending` with our token → `pending`, after a transient failure, so a retry need not wait. */
  releaseEmail(id: Id, kind: Kind, token: string): Promise<void>;
}

/** The email claims of any item of the table, by its key. */
export function emailClaimStore(table: ShopTable): EmailClaimStore<string, EmailKind> {
  /** `sending` with our token → `sent` or `failed` (final), with when and what: the message id, or why. */
  const settle = (
    pk: string,
    kind: EmailKind,
    token: string,
    now: Date,
    final: 'sent' | 'failed',
    detail: string,
  ) => {
    const a = emailAttributes(kind);
    const [at, detailName] = final === 'sent' ? [a.sentAt, a.messageId] : [a.failedAt, a.failureReason];
    return updateIf(table, pk, {
      ConditionExpression: '#state = :sending AND #token = :token',
      UpdateExpression: 'SET #state = :final, #at = :now, #detail = :detail REMOVE #token',
      ExpressionAttributeNames: {
        '#state': a.state,
        '#token': a.claimToken,
        '#at': at,
        '#detail': detailName,
      },
      ExpressionAttributeValues: {
        ':sending': 'sending',
        ':final': final,
        ':token': token,
        ':now': now.toISOString(),
        ':detail': detail,
      },
    });
  };

  return {
    claimEmail(pk, kind, token, now, staleBefore, guard) {
      const a = emailAttributes(kind);
      const guarded = guardCondition(guard);
      return updateIf(table, pk, {
        // ISO instants in UTC compare correctly as strings.
        ConditionExpression: `(#state = :pending OR (#state = :sending AND #claimedAt < :staleBefore))${guarded.condition}`,
        UpdateExpression: 'SET #state = :sending, #claimedAt = :now, #token = :token',
        ExpressionAttributeNames: {
          '#state': a.state,
          '#claimedAt': a.claimedAt,
          '#token': a.claimToken,
          ...guarded.names,
        },
        ExpressionAttributeValues: {
          ...guarded.values,
          ':pending': 'pending',
          ':sending': 'sending',
          ':staleBefore': staleBefore.toISOString(),
          ':now': now.toISOString(),
          ':token': token,
        },
      });
    },

    markEmailSent: (pk, kind, token, messageId, now) => settle(pk, kind, token, now, 'sent', messageId),
    markEmailFailed: (pk, kind, token, reason, now) => settle(pk, kind, token, now, 'failed', reason),

    async releaseEmail(pk, kind, token) {
      const a = emailAttributes(kind);
      await updateIf(table, pk, {
        ConditionExpression: '#state = :sending AND #token = :token',
        UpdateExpression: 'SET #state = :pending REMOVE #token, #claimedAt',
        ExpressionAttributeNames: { '#state': a.state, '#token': a.claimToken, '#claimedAt': a.claimedAt },
        ExpressionAttributeValues: { ':sending': 'sending', ':pending': 'pending', ':token': token },
      });
    },
  };
}

/**
 * Hands back a claim this attempt may hold so the next need not wait for it to go stale; conditional on our
 * token, and a failed release is logged and left to go stale.
 */
export async function releaseClaim<Id, Kind extends EmailKind>(
  store: EmailClaimStore<Id, Kind>,
  email: { id: Id; kind: Kind; token: string; log: Record<string, unknown> },
): Promise<void> {
  await store.releaseEmail(email.id, email.kind, email.token).catch((releaseError: unknown) => {
    logger.warn('Could not release an email claim; it will be retried once stale', {
      ...email.log,
      kind: email.kind,
      error: releaseError,
    });
  });
}
