import { randomUUID } from 'node:crypto';
import { logger } from '../lib/logger';
import { renderCustomerConfirmation, type SellerDetails } from './emails/customer-confirmation';
import { renderMerchantNotice } from './emails/merchant-notice';
import type { EmailSender, OutgoingEmail } from './emails/send-email';
import { EMAIL_KINDS, type EmailKind, emailAttributes, type OrderItem } from './order';
import type { OrdersRepository } from './orders-repository';

/**
 * A `sending` claim older than this is taken to belong to an attempt that crashed, and may be
 * claimed again. Far above one SES call (the client's timeouts are seconds), and far below the
 * reconciler's period, so a crashed send is retried on its next run at the latest.
 */
export const STALE_CLAIM_MS = 2 * 60_000;

export interface OrderEmailDeps {
  orders: OrdersRepository;
  sender: EmailSender;
  seller: SellerDetails;
  /** MERCHANT_EMAIL: where new-order notices go. */
  merchantEmail: string;
  now: () => Date;
}

/**
 * What happened to one email in this attempt. `claimed-elsewhere`: another attempt holds a fresh
 * claim (it is sending now, or crashed less than STALE_CLAIM_MS ago), or sent it meanwhile.
 */
export type EmailOutcome = 'sent' | 'already-sent' | 'claimed-elsewhere';

function messageFor(kind: EmailKind, order: OrderItem, deps: OrderEmailDeps): OutgoingEmail {
  switch (kind) {
    case 'confirmation':
      // Replies go to the seller's own mailbox, not to the sending identity.
      return {
        to: order.customerEmail,
        replyTo: deps.seller.email,
        content: renderCustomerConfirmation(order, deps.seller),
      };
    case 'merchantNotice':
      // The merchant answers a notice to reach the customer (a delivery question, a problem).
      return { to: deps.merchantEmail, replyTo: order.customerEmail, content: renderMerchantNotice(order) };
  }
}

/**
 * Sends an order's customer confirmation and merchant notice, each at most once however many
 * webhook deliveries, retries and reconciler runs call this, concurrently or not.
 *
 * Per kind, a state machine on the order item, moved only by conditional updates:
 *
 *   pending ──claim──▶ sending(claimedAt, token) ──SES accepted, mark──▶ sent(sentAt, messageId)
 *      ▲                        │
 *      └──── release ◀──────────┘  when SES refuses the message (an error, nothing sent)
 *
 * A claim is taken only from `pending`, or from a `sending` claim older than STALE_CLAIM_MS (its
 * holder crashed). Only the holder of the claim sends, so two attempts never send the same email
 * at once, and `sent` is final.
 *
 * The one accepted duplicate window: SES has accepted the message, but `sent` is never recorded.
 * Either the attempt stops before the mark (the process crashes or times out, DynamoDB fails on
 * the mark), and after STALE_CLAIM_MS the next attempt takes the stale claim and sends again; or
 * SES's answer is lost on the way back, which looks exactly like a refusal, so the claim is
 * released and the next attempt sends again. Closing it would need SES to deduplicate, which it
 * cannot; never resending would risk an email never sent, which Invariant 3 forbids. So, rarely,
 * a customer or the merchant gets the same email twice.
 *
 * @returns what happened to each kind.
 * @throws the SES or DynamoDB error of a failed step, after releasing a claim SES refused, so the
 *   caller answers 5xx and Stripe's retry (or the reconciler) finishes the work.
 */
export async function sendOrderEmails(
  order: OrderItem,
  deps: OrderEmailDeps,
): Promise<Record<EmailKind, EmailOutcome>> {
  const outcomes: Record<EmailKind, EmailOutcome> = {
    confirmation: 'already-sent',
    merchantNotice: 'already-sent',
  };
  // One after the other: the customer's confirmation first, as it is the one the law asks for.
  for (const kind of EMAIL_KINDS) {
    outcomes[kind] = await sendOnce(kind, order, deps);
  }
  return outcomes;
}

async function sendOnce(kind: EmailKind, order: OrderItem, deps: OrderEmailDeps): Promise<EmailOutcome> {
  // A read that already says `sent` saves a write; anything else is settled by the claim itself.
  if (order[emailAttributes(kind).state] === 'sent') return 'already-sent';

  const token = randomUUID();
  const claimedAt = deps.now();
  const staleBefore = new Date(claimedAt.getTime() - STALE_CLAIM_MS);
  const claimed = await deps.orders.claimEmail(order.sessionId, kind, token, claimedAt, staleBefore);
  if (!claimed) return 'claimed-elsewhere';

  let messageId: string;
  try {
    messageId = await deps.sender.send(messageFor(kind, order, deps));
  } catch (error) {
    // Hand the claim back so the next attempt need not wait for it to go stale. If SES did in
    // fact accept the message (an answer lost on the way back), this is the duplicate window.
    await deps.orders.releaseEmail(order.sessionId, kind, token).catch((releaseError: unknown) => {
      logger.warn('Could not release an email claim; it will be retried once stale', {
        reference: order.reference,
        kind,
        error: releaseError,
      });
    });
    throw error;
  }

  // If this throws, the claim stays `sending` and is retried once stale: the duplicate window.
  const marked = await deps.orders.markEmailSent(order.sessionId, kind, token, messageId, deps.now());
  if (!marked) {
    logger.warn('Email sent, but its claim had been taken over as stale: it may be sent twice', {
      reference: order.reference,
      kind,
      messageId,
    });
  }
  logger.info('Order email sent', { reference: order.reference, kind, messageId });
  return 'sent';
}
