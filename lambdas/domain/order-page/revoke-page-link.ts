import { randomUUID } from 'node:crypto';
import { rereadOrder } from '../emails/order-emails';
import { renderPageLinkEmail } from '../emails/order-updates';
import { type SendOnceOutcome, sendEmailOnce } from '../emails/send-email-once';
import { findOrder } from '../operations/order-actions';
import type { ShopDeps } from '../operations/shop-deps';
import { newPageKey } from '../order-page-token';
import { RefusedError } from '../refusal';
import { updateIf } from '../storage/conditional-writes';
import { appendHistory, historyEntry } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';
import { orderKey } from '../storage/orders-table';
import { emailAttributes, emailClaimStore, STALE_CLAIM_MS } from '../storage/send-once';

export interface RevokePageLinkResult {
  reference: string;
  /** The new link's email: this revoke holds its claim, so `sent` (a send that fails throws). */
  email: SendOnceOutcome;
  order: ManagedOrder;
}

/**
 * The merchant's revoke of an order's page link (docs/decisions/0037-order-page-link.md): a new
 * random page key replaces the stored one, so every token made with the old key opens nothing (the
 * same 404 as a tampered one); the same conditional update appends the merchant to the history and
 * claims the one `pageLink` email, which then goes to the customer once with the key it wrote. An
 * order from before page keys existed gets its first. Each revoke is a new key and one new email.
 * @throws RefusedError where no order-page secret is configured (no link could be made), for a
 * request, or when another revoke changed the key meanwhile or is still emailing its link.
 */
export async function revokeOrderPageLink(
  reference: string,
  options: { actor: string },
  deps: ShopDeps,
): Promise<RevokePageLinkResult> {
  const links = deps.orderPage;
  if (links === undefined) {
    throw new RefusedError(
      'The order page is not set up here (no order-page secret): there is no link to revoke.',
    );
  }
  const order = await findOrder(deps, reference);
  const pageKey = newPageKey();
  const now = deps.now();
  const token = randomUUID();
  const email = emailAttributes('pageLink');
  const history = appendHistory(
    historyEntry(now.toISOString(), options.actor, 'page-link-revoked', 'new link emailed to the customer'),
  );
  // The new key and the claim of its email in one write: the email carries the key this revoke
  // wrote, and while its claim is fresh no other revoke can replace that key, so no email ever
  // carries a link already dead. A crashed revoke's claim goes stale and stops blocking.
  const changed = await updateIf(deps.table, orderKey(order.sessionId), {
    ConditionExpression: `${order.pageKey === undefined ? 'attribute_not_exists(pageKey)' : 'pageKey = :oldKey'} AND (attribute_not_exists(#emailState) OR #emailState <> :sending OR #emailClaimedAt < :staleBefore)`,
    UpdateExpression: `SET pageKey = :pageKey, #emailState = :sending, #emailClaimedAt = :now, #emailToken = :token, ${history.set} REMOVE #emailSentAt, #emailMessageId`,
    ExpressionAttributeNames: {
      ...history.names,
      '#emailState': email.state,
      '#emailClaimedAt': email.claimedAt,
      '#emailToken': email.claimToken,
      '#emailSentAt': email.sentAt,
      '#emailMessageId': email.messageId,
    },
    ExpressionAttributeValues: {
      ...history.values,
      ':pageKey': pageKey,
      ':sending': 'sending',
      ':now': now.toISOString(),
      ':staleBefore': new Date(now.getTime() - STALE_CLAIM_MS).toISOString(),
      ':token': token,
      ...(order.pageKey !== undefined && { ':oldKey': order.pageKey }),
    },
  });
  if (!changed) {
    throw new RefusedError(
      `Another revoke of the link of ${order.reference} changed it meanwhile or is emailing it now: look at the order again.`,
    );
  }
  const url = links.linkFor({ sessionId: order.sessionId, pageKey });
  if (url === undefined) throw new Error(`Order ${order.reference} has no page key after its revoke`);
  const sent = await sendEmailOnce(
    {
      id: order.pk,
      kind: 'pageLink',
      heldToken: token,
      message: () => ({
        to: order.customerEmail,
        replyTo: deps.seller.email,
        content: renderPageLinkEmail(order, deps.seller, url),
      }),
      log: { pk: order.pk },
    },
    { store: emailClaimStore(deps.table), sender: deps.sender, now: deps.now },
  );
  const stored = await rereadOrder(deps, order.sessionId);
  return { reference: stored.reference, email: sent.outcome === 'sent' ? 'sent' : 'not-sent', order: stored };
}
