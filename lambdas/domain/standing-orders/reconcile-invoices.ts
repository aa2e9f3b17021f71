import { logger } from '../../lib/logger';
import type { FulfilmentDeps } from '../fulfilment/fulfil-checkout';
import { fulfilInvoice } from './fulfil-invoice';
import { invoiceSubscriptionId } from './paid-invoice';

/** What the reconciler's pass over paid invoices did, in its summary's terms. */
export interface InvoiceReconcileCounts {
  checked: number;
  fulfilledMissedOrders: number;
  emailsRetried: number;
  needsReview: number;
  failed: number;
}

/**
 * The reconciler's safety net for standing orders: every paid invoice of a subscription created
 * since `since` (epoch seconds) goes through fulfilInvoice, the webhook's own function, so an
 * `invoice.paid` that never came still makes its one order, and a redelivery later makes none.
 * One invoice's failure is counted and the next run retries it. `deadline`: none started after it.
 */
export async function reconcilePaidInvoices(
  deps: FulfilmentDeps,
  options: { since: number; pageSize?: number | undefined; deadline?: Date | undefined },
): Promise<InvoiceReconcileCounts & { stoppedAtDeadline: boolean }> {
  const counts = { checked: 0, fulfilledMissedOrders: 0, emailsRetried: 0, needsReview: 0, failed: 0 };
  for await (const invoice of deps.stripe.invoices.list({
    status: 'paid',
    created: { gte: options.since },
    limit: options.pageSize ?? 100,
  })) {
    if (options.deadline !== undefined && deps.now() >= options.deadline) {
      return { ...counts, stoppedAtDeadline: true };
    }
    // An invoice of no subscription is another sale's; a subscription's is checked by fulfilInvoice.
    if (invoiceSubscriptionId(invoice) === undefined) continue;
    counts.checked += 1;
    try {
      const result = await fulfilInvoice(invoice.id, deps);
      if (result.outcome === 'needs-review') counts.needsReview += 1;
      if (result.outcome !== 'fulfilled') continue;
      if (result.orderCreated) {
        counts.fulfilledMissedOrders += 1;
        logger.warn('Reconciler recorded a paid invoice whose webhook never arrived', {
          reference: result.reference,
        });
      } else {
        counts.emailsRetried += Object.values(result.emails).filter((email) => email === 'sent').length;
      }
    } catch (error) {
      counts.failed += 1;
      logger.error('Reconciler could not fulfil an invoice; the next run retries', {
        invoiceId: invoice.id,
        error,
      });
    }
  }
  return { ...counts, stoppedAtDeadline: false };
}
