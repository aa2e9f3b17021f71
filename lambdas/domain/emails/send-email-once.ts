import { randomUUID } from 'node:crypto';
import type { EmailKind, ShopEmailKind } from '../../../shared/email-kinds';
import { logger } from '../../lib/logger';
import type { ShopTable } from '../storage/orders-table';
import {
  type ClaimGuard,
  type EmailClaimStore,
  emailClaimStore,
  releaseClaim,
  STALE_CLAIM_MS,
} from '../storage/send-once';
import type { EmailSender, OutgoingEmail } from './send-email';

/** One email to send at most once: which item and kind, and how to write it. */
export interface EmailToSend<Id, Kind extends EmailKind> {
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
 * protocol of the flat emails (an order's confirmation and merchant notice, the request,
 * payment-link and failed-debit emails); an order's update emails go through its outbox instead
 * (emails/outbox-sender.ts).
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
export async function sendEmailOnce<Id, Kind extends EmailKind>(
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
