import { drainOutbox, emailOutcome } from '../emails/outbox-sender';
import type { SendOnceOutcome } from '../emails/send-email-once';
import { findOrder } from '../operations/order-actions';
import type { ShopDeps } from '../operations/shop-deps';
import { newPageKey } from '../order-page-token';
import { RefusedError } from '../refusal';
import { appendHistory, historyEntry } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';
import { changeOrder, emailOf, readOrder } from '../storage/outbox';
import { STALE_CLAIM_MS } from '../storage/send-once';

export interface RevokePageLinkResult {
  reference: string;
  /** The new link's email: `sent` once it has gone (a send that fails throws). */
  email: SendOnceOutcome;
  order: ManagedOrder;
}

/**
 * Revokes an order's page link (ADR 0037): a new random key makes every old token open nothing (the same 404
 * as a tampered one), and the same outbox write sends the new link once. Each revoke is a new key and one
 * email.
 * @throws RefusedError without an order-page secret, for a request, or when another revoke changed the key
 *   meanwhile or is still emailing its link.
 */
export async function revokeOrderPageLink(
  reference: string,
  options: { actor: string },
  deps: ShopDeps,
): Promise<RevokePageLinkResult> {
  if (deps.orderPage === undefined) {
    throw new RefusedError(
      'The order page is not set up here (no order-page secret): there is no link to revoke.',
    );
  }
  const found = await findOrder(deps, reference);
  const pageKey = newPageKey();
  const now = deps.now();
  const refused = new RefusedError(
    `Another revoke of the link of ${found.reference} changed it meanwhile or is emailing it now: look at the order again.`,
  );
  // Planned against the key read: every pending entry is re-issued with the new key (outbox.ts), so none
  // carries the old one. A link email being sent now is left to finish: refused.
  const result = await changeOrder(
    deps.table,
    found.sessionId,
    (order) => {
      if (order.pageKey !== found.pageKey) throw refused;
      const staleBefore = now.getTime() - STALE_CLAIM_MS;
      const emailing = Object.values(order.outbox ?? {}).some(
        (entry) =>
          entry.kind === 'pageLink' &&
          entry.state === 'sending' &&
          Date.parse(entry.claimedAt ?? entry.at) > staleBefore,
      );
      if (emailing) throw refused;
      const history = appendHistory(
        historyEntry(
          now.toISOString(),
          options.actor,
          'page-link-revoked',
          'new link emailed to the customer',
        ),
      );
      return {
        set: ['pageKey = :pageKey', history.set],
        names: history.names,
        values: { ...history.values, ':pageKey': pageKey },
        emails: [emailOf('pageLink', { ...order, pageKey })],
      };
    },
    deps.now,
  );
  if (!result.changed) throw refused;
  await drainOutbox(found.sessionId, deps);
  const stored = await readOrder(deps.table, found.sessionId);
  const email = emailOutcome(stored, result.entries, { sent: [], failed: [] }, 'pageLink');
  return { reference: stored.reference, email, order: stored };
}
