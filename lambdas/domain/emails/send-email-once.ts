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
  /** Why an error means the recipient can never receive it (`failed`, final); undefined when transient. */
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
 * Sends one email of an item at most once, however many attempts run: the flat emails' protocol (an order's
 * updates go through its outbox, emails/outbox-sender.ts).
 *
 *   pending ──claim──▶ sending(claimedAt, token) ──SES accepted, mark──▶ sent(sentAt, messageId)
 *      ▲                        │  └──refused for good (refusedForGood)──▶ failed(failedAt, reason)
 *      └──── release ◀──────────┘  on a transient failure (an error, nothing sent)
 *   pending ──supersede──▶ superseded: the item left the status the email describes (final)
 *
 * A claim is taken from `pending` or a `sending` older than STALE_CLAIM_MS (its holder crashed). The one
 * accepted duplicate: SES accepted but `sent` was never recorded (a crash before the mark, or SES's answer
 * lost), so a later attempt sends again: SES cannot deduplicate, and never resending risks a lost email.
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

/** `not-sent`: nothing due, another run holds a fresh claim, or the guard failed; this run sent nothing. */
export type SendOnceOutcome = 'sent' | 'not-sent';

/** One of the operator's emails of `pk`, at most once; made `pending` by its transition (emailDue). */
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
