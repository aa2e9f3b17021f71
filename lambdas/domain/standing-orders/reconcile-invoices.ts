import type { FulfilmentDeps } from '../fulfilment/fulfil-checkout';
import { countFulfilment, type FulfilmentCounts, stepOrNextRun } from '../fulfilment/reconcile-steps';
import { fulfilInvoice } from './fulfil-invoice';
import { invoiceSubscriptionId } from './paid-invoice';

/** What the reconciler's pass over paid invoices did, in its summary's terms. */
export interface InvoiceReconcileCounts extends FulfilmentCounts {
  checked: number;
}

/**
 * The reconciler's net for standing orders: every paid invoice of a subscription since `since` goes through
 * fulfilInvoice, so a lost `invoice.paid` still makes its one order. Failures are retried next run; none
 * starts after `deadline`.
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
