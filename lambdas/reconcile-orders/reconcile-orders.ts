import { type FulfilmentDeps, fulfilCheckout } from '../fulfilment/fulfil-checkout';
import { logger } from '../lib/logger';
import { emitMetric, METRIC_NAMES } from '../lib/metrics';
import { hasShopMarker } from '../lib/order-metadata';

/** Stripe retries a webhook for up to 3 days: beyond that a missed event is never coming. */
export const RECONCILE_LOOKBACK_MS = 3 * 24 * 3_600_000;

export interface ReconcileSummary {
  /** Completed sessions listed from Stripe in the window. */
  checked: number;
  /** Sessions of ours, paid, looked at (order and emails). */
  paid: number;
  /** Paid sessions that had no order: their webhook never arrived (or failed for good). */
  fulfilledMissedOrders: number;
  /** Emails this run sent for orders that existed already (left unsent by a failed attempt). */
  emailsRetried: number;
  /** Paid sessions that do not match our prices: for the merchant. */
  needsReview: number;
  /** Sessions whose fulfilment threw (Stripe, DynamoDB or SES failing); the next run retries. */
  failed: number;
  /** The run reached its deadline and left the rest of the list for the next run. */
  stoppedAtDeadline: boolean;
}

/** A run that could not finish every session: thrown after the summary and metric are out. */
export class ReconcileIncompleteError extends Error {
  constructor(readonly summary: ReconcileSummary) {
    super(
      summary.stoppedAtDeadline
        ? `Reconciliation stopped at its deadline after ${summary.checked} session(s); the next run goes on`
        : `Reconciliation left ${summary.failed} session(s) for the next run`,
    );
    this.name = 'ReconcileIncompleteError';
  }
}

/**
 * The safety net under the webhook: lists the Checkout Sessions completed in the last three days
 * and runs fulfilCheckout on every paid one of ours. That writes the order of a session whose
 * webhook never came, and sends any email an earlier attempt left pending (or stale in `sending`).
 * Safe alongside webhooks: it goes through the same conditional writes. Emits
 * `ReconcilerFulfilledMissedOrders` (namespace LiveAquatics) for an alarm to watch.
 *
 * `deadline` bounds the run: no session is started after it. Without it a backlog (after a webhook
 * outage, say) could run into the Lambda's time limit, which kills the run mid-session (inside an
 * email send: the duplicate window of send-order-emails.ts) before the summary and metric are out.
 * @throws ReconcileIncompleteError when some sessions failed or the deadline came first, so the
 *   run counts as an error.
 */
export async function reconcileOrders(
  deps: FulfilmentDeps,
  options: { lookbackMs?: number; pageSize?: number; deadline?: Date | undefined } = {},
): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = {
    checked: 0,
    paid: 0,
    fulfilledMissedOrders: 0,
    emailsRetried: 0,
    needsReview: 0,
    failed: 0,
    stoppedAtDeadline: false,
  };
  const since = Math.floor((deps.now().getTime() - (options.lookbackMs ?? RECONCILE_LOOKBACK_MS)) / 1000);
  // The SDK's auto-pagination fetches further pages as the loop goes.
  for await (const session of deps.stripe.checkout.sessions.list({
    status: 'complete',
    created: { gte: since },
    limit: options.pageSize ?? 100,
  })) {
    if (options.deadline !== undefined && deps.now() >= options.deadline) {
      summary.stoppedAtDeadline = true;
      break;
    }
    summary.checked += 1;
    if (!hasShopMarker(session.metadata, deps.shopId) || session.payment_status !== 'paid') continue;
    summary.paid += 1;
    try {
      const result = await fulfilCheckout(session.id, deps);
      if (result.outcome === 'needs-review') summary.needsReview += 1;
      if (result.outcome !== 'fulfilled') continue;
      if (result.orderCreated) {
        summary.fulfilledMissedOrders += 1;
        logger.warn('Reconciler recorded a paid order whose webhook never arrived', {
          reference: result.reference,
        });
      } else {
        summary.emailsRetried += Object.values(result.emails).filter((email) => email === 'sent').length;
      }
    } catch (error) {
      summary.failed += 1;
      logger.error('Reconciler could not fulfil a session; the next run retries', {
        sessionId: session.id,
        error,
      });
    }
  }
  emitMetric(deps.metrics, METRIC_NAMES.reconcilerFulfilledMissedOrders, summary.fulfilledMissedOrders);
  logger.info('Reconciliation finished', { ...summary });
  if (summary.failed > 0 || summary.stoppedAtDeadline) throw new ReconcileIncompleteError(summary);
  return summary;
}
