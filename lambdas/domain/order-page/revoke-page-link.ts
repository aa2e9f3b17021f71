import { rereadOrder } from '../emails/order-emails';
import { renderPageLinkEmail } from '../emails/order-updates';
import { type SendOnceOutcome, sendOnce } from '../emails/send-email-once';
import { findOrder } from '../operations/order-actions';
import type { ShopDeps } from '../operations/shop-deps';
import { newPageKey } from '../order-page-token';
import { RefusedError } from '../refusal';
import { updateIf } from '../storage/conditional-writes';
import { appendHistory, historyEntry } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';
import { orderKey } from '../storage/orders-table';
import { emailDue } from '../storage/send-once';

export interface RevokePageLinkResult {
  reference: string;
  /** The new link's email: `not-sent` when another run holds its claim. */
  email: SendOnceOutcome;
  order: ManagedOrder;
}

/**
 * The merchant's revoke of an order's page link (docs/decisions/0037-order-page-link.md): a new
 * random page key replaces the stored one, so every token made with the old key opens nothing (the
 * same 404 as a tampered one); the same conditional update appends the merchant to the history and
 * makes one `pageLink` email due, which then goes to the customer once with the new link. An order
 * from before page keys existed gets its first. Each revoke is a new key and one new email.
 * @throws RefusedError where no order-page secret is configured (no link could be made), for a
 * request, or when another revoke changed the key meanwhile.
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
  const due = emailDue('pageLink');
  const history = appendHistory(
    historyEntry(
      deps.now().toISOString(),
      options.actor,
      'page-link-revoked',
      'new link emailed to the customer',
    ),
  );
  const changed = await updateIf(deps.table, orderKey(order.sessionId), {
    // Conditional on the key read: two revokes at once end with one key, and the loser says so.
    ConditionExpression: order.pageKey === undefined ? 'attribute_not_exists(pageKey)' : 'pageKey = :oldKey',
    UpdateExpression: `SET pageKey = :pageKey, ${due.set}, ${history.set} REMOVE ${due.remove}`,
    ExpressionAttributeNames: { ...due.names, ...history.names },
    ExpressionAttributeValues: {
      ...history.values,
      ':pending': 'pending',
      ':pageKey': pageKey,
      ...(order.pageKey !== undefined && { ':oldKey': order.pageKey }),
    },
  });
  if (!changed) {
    throw new RefusedError(`The link of ${order.reference} was changed meanwhile: look at the order again.`);
  }
  const stored = await rereadOrder(deps, order.sessionId);
  const email = await sendOnce(
    stored.pk,
    'pageLink',
    () => {
      const url = links.linkFor(stored);
      if (url === undefined) throw new Error(`Order ${stored.reference} has no page key after its revoke`);
      return {
        to: stored.customerEmail,
        replyTo: deps.seller.email,
        content: renderPageLinkEmail(stored, deps.seller, url),
      };
    },
    deps,
  );
  return { reference: stored.reference, email, order: await rereadOrder(deps, order.sessionId) };
}
