import * as z from 'zod/mini';
import { orderReference } from '../../../shared/checkout-status';
import { logger } from '../../lib/logger';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { hasShopMarker, orderMetadataSchema, stripeMetadataSchema } from '../checkout/order-metadata';
import { type FailedDebitDeps, sendCustomerThenMerchant } from '../fulfilment/failed-debit';
import { recordOnce } from '../storage/conditional-writes';
import { unpaidRecordTtl } from '../storage/debit-records';
import { type FailedRenewalItem, failedRenewalKey, readFailedRenewal } from '../storage/standing-orders';
import { invoiceCustomerId, invoiceSubscriptionId } from './paid-invoice';
import { renderRenewalFailed, renderRenewalFailedNotice } from './renewal-emails';

const failedInvoiceSchema = z.object({
  id: z.string(),
  livemode: z.boolean(),
  status: z.nullable(z.string()),
  amount_due: z.number().check(z.int()),
  customer_email: z.optional(z.nullable(z.string())),
});
const subscriptionSchema = z.object({
  id: z.string(),
  metadata: z.pipe(
    stripeMetadataSchema,
    z.transform((value) => value ?? {}),
  ),
});

export type FailedRenewalResult =
  | { outcome: 'not-ours' }
  /** Paid (a retry went through), or not readable as a failed payment of ours. */
  | { outcome: 'not-failed' }
  | { outcome: 'notified'; recorded: boolean; emails: { customer: EmailResult; merchant: EmailResult } };
type EmailResult = 'sent' | 'not-sent' | 'refused';

/**
 * `invoice.payment_failed` of a renewal: no order; customer and merchant told once per invoice however often
 * Stripe retries, on `FAILED_RENEWAL#<invoice id>` as a failed debit's emails are (failed-debit.ts).
 * @throws Stripe, DynamoDB and SES errors (after both emails were tried): the caller retries.
 */
export async function notifyFailedRenewal(
  invoiceId: string,
  deps: FailedDebitDeps,
): Promise<FailedRenewalResult> {
  const found = await recordOnce<FailedRenewalItem, 'not-ours' | 'not-failed'>(
    deps.table,
    () => readFailedRenewal(deps.table, invoiceId),
    () => failedRenewalOf(invoiceId, deps),
  );
  if ('none' in found) return { outcome: found.none };
  const { item, recorded } = found;
  if (recorded)
    logger.warn('Standing order renewal failed; no order', { invoiceId, reference: item.reference });
  const emails = await sendCustomerThenMerchant(
    {
      record: item,
      customerKind: 'renewalFailed',
      merchantKind: 'renewalFailedNotice',
      customerContent: () => renderRenewalFailed(item, deps.seller, deps.siteUrl),
      merchantContent: (customerEmailed) =>
        renderRenewalFailedNotice(item, customerEmailed, deps.seller.shopName),
      log: { reference: item.reference, invoiceId },
      sentLog: 'Failed renewal email sent',
    },
    deps,
  );
  return { outcome: 'notified', recorded, emails };
}

/** The record a failed invoice of ours makes, from Stripe; or why there is none. */
async function failedRenewalOf(
  invoiceId: string,
  deps: FailedDebitDeps,
): Promise<FailedRenewalItem | 'not-ours' | 'not-failed'> {
  const invoice = await deps.stripe.invoices.retrieve(invoiceId);
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (subscriptionId === undefined) return 'not-ours';
  const subscription = subscriptionSchema.safeParse(await deps.stripe.subscriptions.retrieve(subscriptionId));
  if (!subscription.success || !hasShopMarker(subscription.data.metadata, deps.shopId)) return 'not-ours';
  const parsed = failedInvoiceSchema.safeParse(invoice, ENGLISH_MESSAGES);
  const details = orderMetadataSchema.safeParse(subscription.data.metadata, ENGLISH_MESSAGES);
  if (!parsed.success || !details.success || parsed.data.status === 'paid' || parsed.data.status === 'void') {
    return 'not-failed';
  }
  const email = parsed.data.customer_email ?? (await customerEmailOf(invoice, deps));
  if (!email) return 'not-failed';
  const now = deps.now();
  return {
    pk: failedRenewalKey(invoiceId),
    reference: orderReference(subscriptionId),
    invoiceId,
    subscriptionId,
    livemode: parsed.data.livemode,
    bottles: Number(details.data.quantity),
    totalPence: parsed.data.amount_due,
    customerName: details.data.name,
    customerEmail: email,
    customerPhone: details.data.phone,
    recordedAt: now.toISOString(),
    deleteAfter: unpaidRecordTtl(now),
    renewalFailedEmailState: 'pending',
    renewalFailedNoticeEmailState: 'pending',
  };
}

async function customerEmailOf(invoice: unknown, deps: FailedDebitDeps): Promise<string | undefined> {
  const customerId = invoiceCustomerId(invoice);
  if (customerId === undefined) return undefined;
  const customer = await deps.stripe.customers.retrieve(customerId);
  return 'email' in customer ? (customer.email ?? undefined) : undefined;
}
