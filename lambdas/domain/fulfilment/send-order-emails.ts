import { randomUUID } from 'node:crypto';
import { PAYMENT_EMAIL_KINDS, type PaymentEmailKind } from '../../../shared/email-kinds';
import { logger } from '../../lib/logger';
import { emitMetric, METRIC_NAMES, type MetricsWriter } from '../../lib/metrics';
import type { SellerDetails } from '../emails/common';
import { renderCustomerConfirmation } from '../emails/customer-confirmation';
import { renderMerchantNotice } from '../emails/merchant-notice';
import {
  type EmailSender,
  isSesAcceptableAddress,
  type OutgoingEmail,
  PermanentEmailRefusalError,
} from '../emails/send-email';
import { sendEmailOnce } from '../emails/send-email-once';
import type { OrderPageLinks } from '../order-page-token';
import type { OrderItem } from '../storage/order';
import type { OrdersRepository } from '../storage/orders-repository';
import { emailAttributes, releaseClaim } from '../storage/send-once';

export interface OrderEmailDeps {
  orders: OrdersRepository;
  sender: EmailSender;
  seller: SellerDetails;
  /** MERCHANT_EMAIL: where new-order notices go. */
  merchantEmail: string;
  /** SITE_URL: the shop's origin, where the merchant's `/admin` lives. */
  siteUrl: string;
  now: () => Date;
  /** Where `CustomerEmailRefused` goes. */
  metrics: MetricsWriter;
  /** The order page's links, for the confirmation's button (absent: no secret configured). */
  orderPage?: OrderPageLinks | undefined;
}

/**
 * `claimed-elsewhere`: another attempt holds a fresh claim (sending, or crashed under STALE_CLAIM_MS ago) or
 * sent it meanwhile. `refused`: SES can never deliver it (recorded `failed` on the order).
 */
export type EmailOutcome = 'sent' | 'already-sent' | 'claimed-elsewhere' | 'refused';

/** The claim token of each email kind, held by the attempt that wrote them. */
export type EmailClaims = Record<PaymentEmailKind, string>;

function messageFor(kind: PaymentEmailKind, order: OrderItem, deps: OrderEmailDeps): OutgoingEmail {
  switch (kind) {
    case 'confirmation':
      // Replies go to the seller's own mailbox, not to the sending identity.
      return {
        to: order.customerEmail,
        replyTo: deps.seller.email,
        content: renderCustomerConfirmation(order, deps.seller, deps.orderPage?.linkFor(order)),
      };
    case 'merchantNotice':
      // The merchant answers a notice to reach the customer (a delivery question, a problem); an
      // address SES would refuse is left out, or it would take the notice down with it.
      return {
        to: deps.merchantEmail,
        replyTo: isSesAcceptableAddress(order.customerEmail) ? order.customerEmail : undefined,
        content: renderMerchantNotice(order, deps.seller.shopName, deps.siteUrl),
      };
  }
}

/**
 * Sends an order's confirmation and merchant notice, each at most once however many deliveries, retries and
 * reconciler runs call this (sendEmailOnce). A new order is written already claimed by its writer, which
 * passes its tokens as `held`.
 * @returns what happened to each kind; an address SES can never take is `refused`, not an error: retrying
 *   cannot help, and the order is durable.
 * @throws the SES or DynamoDB error of a failed step, after both kinds were tried, so the caller answers 5xx
 *   and Stripe's retry (or the reconciler) finishes the work.
 */
export async function sendOrderEmails(
  order: OrderItem,
  deps: OrderEmailDeps,
  held?: EmailClaims,
): Promise<Record<PaymentEmailKind, EmailOutcome>> {
  // The confirmation first, as the law asks, but the notice never depends on it (it says when SES refused the
  // customer, so the merchant can reach them); a transient failure is thrown only once both were tried.
  const confirmation = await settle(sendOnce('confirmation', order, deps, held?.confirmation));
  const noticeOrder: OrderItem =
    confirmation.ok && confirmation.refusedFor
      ? {
          ...order,
          confirmationEmailState: 'failed',
          confirmationEmailFailureReason: confirmation.refusedFor,
        }
      : order;
  const merchantNotice = await settle(sendOnce('merchantNotice', noticeOrder, deps, held?.merchantNotice));
  if (!confirmation.ok) throw confirmation.error;
  if (!merchantNotice.ok) throw merchantNotice.error;
  return { confirmation: confirmation.outcome, merchantNotice: merchantNotice.outcome };
}

interface SendResult {
  outcome: EmailOutcome;
  /** The reason recorded, when this attempt found SES refusing the recipient for good. */
  refusedFor?: string | undefined;
}

async function settle(
  sending: Promise<SendResult>,
): Promise<({ ok: true } & SendResult) | { ok: false; error: unknown }> {
  try {
    return { ok: true, ...(await sending) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Claims both emails inside the order's first put, saving an update per email on every new order; only the
 * attempt whose put succeeds holds them, a loser carries on with the stored order.
 */
export function withEmailsClaimed(order: OrderItem, now: Date): { order: OrderItem; claims: EmailClaims } {
  const claims = { confirmation: randomUUID(), merchantNotice: randomUUID() };
  const claimedAt = now.toISOString();
  return {
    order: {
      ...order,
      confirmationEmailState: 'sending',
      confirmationEmailClaimedAt: claimedAt,
      confirmationEmailClaimToken: claims.confirmation,
      merchantNoticeEmailState: 'sending',
      merchantNoticeEmailClaimedAt: claimedAt,
      merchantNoticeEmailClaimToken: claims.merchantNotice,
    },
    claims,
  };
}

/**
 * Hands back claims this attempt may hold so the next need not wait for them to go stale; conditional on our
 * tokens, and a failed release is logged and left to go stale.
 */
export async function releaseEmailClaims(
  order: OrderItem,
  claims: EmailClaims,
  deps: Pick<OrderEmailDeps, 'orders'>,
): Promise<void> {
  await Promise.all(
    PAYMENT_EMAIL_KINDS.map((kind) =>
      releaseClaim(deps.orders, {
        id: order.sessionId,
        kind,
        token: claims[kind],
        log: { reference: order.reference },
      }),
    ),
  );
}

/** A new order's conditional put with its claims; the order is this call's if it wrote it, else stored. */
export async function writeClaimedOrder(
  item: OrderItem,
  claims: EmailClaims,
  deps: Pick<OrderEmailDeps, 'orders'>,
  recorded: { message: string; detail: Record<string, unknown> },
): Promise<{ order: OrderItem; created: boolean }> {
  let created: boolean;
  try {
    created = await deps.orders.createIfAbsent(item);
  } catch (error) {
    // The put may have landed with its answer lost: hand the claims back, or a retry waits STALE_CLAIM_MS.
    await releaseEmailClaims(item, claims, deps);
    throw error;
  }
  const order = created ? item : await deps.orders.get(item.sessionId);
  if (!order) throw new Error(`Order ${item.sessionId} was reported as existing but cannot be read`);
  if (created) {
    logger.info(recorded.message, {
      reference: order.reference,
      bottles: order.bottles,
      dispatchDate: order.dispatchDate,
      ...recorded.detail,
    });
  }
  return { order, created };
}

async function sendOnce(
  kind: PaymentEmailKind,
  order: OrderItem,
  deps: OrderEmailDeps,
  heldToken: string | undefined,
): Promise<SendResult> {
  if (heldToken === undefined) {
    // A read that already says `sent` or `failed` saves a write; anything else is settled by the claim.
    const state = order[emailAttributes(kind).state];
    if (state === 'sent') return { outcome: 'already-sent' };
    if (state === 'failed') return { outcome: 'refused' };
  }
  const result = await sendEmailOnce(
    {
      id: order.sessionId,
      kind,
      message: () => messageFor(kind, order, deps),
      heldToken,
      // Only the customer's address can be refused for good: the merchant's is configuration, and a
      // refusal of it stays an error to retry until the operator fixes it (their alarm says so).
      refusedForGood: (error) =>
        error instanceof PermanentEmailRefusalError && kind === 'confirmation' ? error.reason : undefined,
      log: { reference: order.reference },
    },
    { store: deps.orders, sender: deps.sender, now: deps.now },
  );
  switch (result.outcome) {
    case 'claimed-elsewhere':
      return { outcome: 'claimed-elsewhere' };
    case 'refused':
      recordRefusal(kind, order, result.reason, deps);
      return { outcome: 'refused', refusedFor: result.reason };
    case 'sent':
      logger.info('Order email sent', { reference: order.reference, kind, messageId: result.messageId });
      return { outcome: 'sent' };
  }
}

/**
 * A recipient SES will never accept, recorded `failed` (final, so the webhook answers 2xx), counted in
 * `CustomerEmailRefused` for the merchant's alarm. If the mark failed, a retry meets the same refusal.
 */
function recordRefusal(kind: PaymentEmailKind, order: OrderItem, reason: string, deps: OrderEmailDeps): void {
  logger.warn('SES refused the customer confirmation for good; recorded on the order', {
    alarm: METRIC_NAMES.customerEmailRefused,
    reference: order.reference,
    kind,
    reason,
  });
  emitMetric(deps.metrics, METRIC_NAMES.customerEmailRefused, 1);
}
