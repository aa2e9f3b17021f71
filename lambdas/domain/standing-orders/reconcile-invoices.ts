import type { FulfilmentDeps } from '../fulfilment/fulfil-checkout';
import { countFulfilment, type FulfilmentCounts, stepOrNextRun } from '../fulfilment/reconcile-steps';
import { fulfilInvoice } from './fulfil-invoice';
import { invoiceSubscriptionId } from './paid-invoice';

/** What the reconciler's pass over paid invoices did, in its summary's terms. */
export interface InvoiceReconcileCounts extends FulfilmentCounts {
  checked: number;
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
    await stepOrNextRun(counts, 'fulfil an invoice', { invoiceId: invoice.id }, async () => {
      countFulfilment(await fulfilInvoice(invoice.id, deps), counts, 'a paid invoice');
    });
  }
  return { ...counts, stoppedAtDeadline: false };
}
