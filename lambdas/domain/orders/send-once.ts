import { randomUUID } from 'node:crypto';
import { logger } from '../../lib/logger';
import type { EmailSender, OutgoingEmail } from '../emails/send-email';
import { updateIf } from './conditional-writes';
import { EMAIL_KINDS, type EmailKind } from './order';
import type { ShopTable } from './orders-table';

/**
 * A `sending` claim older than this is taken to belong to an attempt that crashed, and may be
 * claimed again. Far above one SES call (the clients' timeouts are seconds), and far below the
 * reconciler's period, so a crashed send is retried on its next run at the latest.
 */
export const STALE_CLAIM_MS = 2 * 60_000;

/** The shop's other emails; each is sent at most once per transition that asks for it. */
export const SHOP_EMAIL_KINDS = [
  'dispatch',
  'delay',
  'refund',
  'requestReceived',
  'requestNotice',
  'paymentInvitation',
  'decline',
  // A failed Direct Debit's: to the customer, and to the merchant (lambdas/domain/fulfilment/failed-debit.ts).
  'debitFailed',
  'debitFailedNotice',
  // The short note that a correction of the delivery details was recorded (orders/correct-address.ts).
  'addressCorrected',
] as const;
export type ShopEmailKind = (typeof SHOP_EMAIL_KINDS)[number];

/** Every email kind the shop tracks on an item: an order's own two, then the operator's. */
export const CLAIMED_EMAIL_KINDS = [...EMAIL_KINDS, ...SHOP_EMAIL_KINDS] as const;
export type ClaimedEmailKind = EmailKind | ShopEmailKind;

/**
 * Attribute names of one email kind's state machine on its item: flat, so each move is one
 * conditional update. `failedAt` and `failureReason` are written only for an order's
 * confirmation, the one email whose recipient SES can refuse for good.
 */
export function emailAttributes<K extends ClaimedEmailKind>(kind: K) {
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

/**
 * The update fragment a status transition adds so that its email becomes due: state `pending`,
 * any earlier claim and send of the same kind (an earlier delay) forgotten.
 */
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
 * What must hold of the item, beyond the email's own state, for the email to be claimed: an email
 * says something about the item ("on its way", "refunded"), so it goes out only while that is
 * still true, and never ahead of an earlier email it contradicts.
 */
export interface ClaimGuard {
  /** The item's `status` the email describes; not claimed once the item has moved on. */
  status: string;
  /**
   * Emails this one overrides: not claimed while one of them holds a fresh `sending` claim, so SES
   * accepts this one after them (a customer never reads "on its way" after "refunded").
   */
  after?: readonly ClaimedEmailKind[];
}

/**
 * The condition a ClaimGuard adds to a claim, with its names and values (none when unguarded).
 * `:staleBefore` is the claim's own: a contradicting claim that old belongs to a crashed attempt.
 */
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

/**
 * Marks an email that was due as never to be sent: the item has left the status it describes
 * (`superseded`, final). Conditional on it still being `pending` and the item in `status`.
 */
export function supersedeEmail(
  table: ShopTable,
  pk: string,
  kind: ClaimedEmailKind,
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

/**
 * The conditional updates that move one email's state on its item, the item named by `id` (a table
 * key, or an order's session id). Each is `false` when its condition did not hold.
 */
export interface EmailClaimStore<Id, Kind extends ClaimedEmailKind> {
  /**
   * Moves the email from `pending` (or from a `sending` claim older than `staleBefore`) to
   * `sending` with this `token`. `false` when another attempt holds a fresh claim, or it is final,
   * or the item fails `guard`.
   */
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
  /**
   * `sending` with our token → `failed` (final), when SES refused the recipient for good: no retry
   * can deliver it. `false` when our claim was taken over meanwhile.
   */
  markEmailFailed(id: Id, kind: Kind, token: string, reason: string, now: Date): Promise<boolean>;
  /** `sending` with our token → `pending`, after a transient failure, so a retry need not wait. */
  releaseEmail(id: Id, kind: Kind, token: string): Promise<void>;
}

/** The email claims of any item of the table, by its key. */
export function emailClaimStore(table: ShopTable): EmailClaimStore<string, ClaimedEmailKind> {
  /** `sending` with our token → `sent` or `failed` (final), with when and what: the message id, or why. */
  const settle = (
    pk: string,
    kind: ClaimedEmailKind,
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
 * Hands back a claim this attempt may hold, so the next attempt need not wait for it to go stale.
 * Conditional on our token, so a no-op where the claim was never written or was taken over; a
 * release that fails is logged and left to go stale.
 */
export async function releaseClaim<Id, Kind extends ClaimedEmailKind>(
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

/** One email to send at most once: which item and kind, and how to write it. */
export interface EmailToSend<Id, Kind extends ClaimedEmailKind> {
  id: Id;
  kind: Kind;
  message: () => OutgoingEmail;
  /** The token of a claim this attempt already holds (written with the item itself). */
  heldToken?: string | undefined;
  /**
   * Why a send error means the recipient can never receive it (recorded as `failed`, final), or
   * undefined when the error is transient. Absent: every error is transient.
   */
  refusedForGood?: ((error: unknown) => string | undefined) | undefined;
  /** What the log lines about this email say it is (a reference, a key). */
  log: Record<string, unknown>;
  /** What the item must be when the email is claimed (ClaimGuard); absent: anything. */
  guard?: ClaimGuard | undefined;
}

/**
 * `claimed-elsewhere`: another attempt holds a fresh claim, or the email is final (sent, failed).
 * `refused`: the recipient was refused for good, and this attempt recorded it.
 */
export type EmailOnceResult =
  | { outcome: 'sent'; messageId: string }
  | { outcome: 'claimed-elsewhere' }
  | { outcome: 'refused'; reason: string };

/**
 * Sends one email of an item at most once, however many attempts run, concurrently or not: the
 * one protocol of every email the shop sends (an order's confirmation and merchant notice, and
 * the operator's dispatch, delay, refund, request and payment-link emails).
 *
 *   pending ──claim──▶ sending(claimedAt, token) ──SES accepted, mark──▶ sent(sentAt, messageId)
 *      ▲                        │  └──refused for good (refusedForGood)──▶ failed(failedAt, reason)
 *      └──── release ◀──────────┘  on a transient failure (an error, nothing sent)
 *   pending ──supersede──▶ superseded: the item left the status the email describes (final)
 *
 * A claim is taken only from `pending`, or from a `sending` claim older than STALE_CLAIM_MS (its
 * holder crashed). Only the holder of the claim sends, so two attempts never send the same email
 * at once, and `sent` and `failed` are final. What makes an email `pending` is the conditional
 * write that creates its item or moves its status, so a second run finds it `sent`, and a run that
 * crashed after that write sends it on the next run.
 *
 * The one accepted duplicate window: SES has accepted the message, but `sent` is never recorded.
 * Either the attempt stops before the mark (a crash, a timeout, DynamoDB failing on the mark), and
 * once the claim is stale the next attempt sends again; or SES's answer is lost on the way back,
 * which looks exactly like a failure, so the claim is released and the next attempt sends again.
 * Closing it would need SES to deduplicate, which it cannot; never resending would risk an email
 * never sent. So, rarely, someone gets the same email twice.
 *
 * @throws the SES or DynamoDB error of a failed step, after releasing a claim whose send failed.
 */
export async function sendEmailOnce<Id, Kind extends ClaimedEmailKind>(
  email: EmailToSend<Id, Kind>,
  deps: { store: EmailClaimStore<Id, Kind>; sender: EmailSender; now: () => Date },
): Promise<EmailOnceResult> {
  const token = email.heldToken ?? randomUUID();
  if (email.heldToken === undefined) {
    const claimedAt = deps.now();
    const staleBefore = new Date(claimedAt.getTime() - STALE_CLAIM_MS);
    const claimed = await deps.store.claimEmail(
      email.id,
      email.kind,
      token,
      claimedAt,
      staleBefore,
      email.guard,
    );
    if (!claimed) return { outcome: 'claimed-elsewhere' };
  }

  let messageId: string;
  try {
    messageId = await deps.sender.send(email.message());
  } catch (error) {
    const reason = email.refusedForGood?.(error);
    if (reason !== undefined) {
      const marked = await deps.store.markEmailFailed(email.id, email.kind, token, reason, deps.now());
      return marked ? { outcome: 'refused', reason } : { outcome: 'claimed-elsewhere' };
    }
    // If SES did in fact accept the message (an answer lost on the way back), this is the
    // duplicate window.
    await releaseClaim(deps.store, { ...email, token });
    throw error;
  }

  // If this throws, the claim stays `sending` and is retried once stale: the duplicate window.
  const marked = await deps.store.markEmailSent(email.id, email.kind, token, messageId, deps.now());
  if (!marked) {
    logger.warn('Email sent, but its claim had been taken over as stale: it may be sent twice', {
      ...email.log,
      kind: email.kind,
      messageId,
    });
  }
  return { outcome: 'sent', messageId };
}

/**
 * `not-sent`: nothing was due (no transition asked for this email, or it was sent already), or
 * another run holds a fresh claim on it, or the item failed the guard. Either way this run sent nothing.
 */
export type SendOnceOutcome = 'sent' | 'not-sent';

/**
 * Sends one of the operator's emails of the item `pk` at most once (sendEmailOnce). Its state is set to
 * `pending` by the conditional update of the transition that makes it due (emailDue).
 */
export async function sendOnce(
  pk: string,
  kind: ShopEmailKind,
  message: () => OutgoingEmail,
  deps: { table: ShopTable; sender: EmailSender; now: () => Date },
  guard?: ClaimGuard,
): Promise<SendOnceOutcome> {
  const result = await sendEmailOnce(
    { id: pk, kind, message, log: { pk }, guard },
    { store: emailClaimStore(deps.table), sender: deps.sender, now: deps.now },
  );
  return result.outcome === 'sent' ? 'sent' : 'not-sent';
}
