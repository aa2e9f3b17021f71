import * as z from 'zod/mini';
import { orderReference } from '../../../shared/checkout-status';
import { logger } from '../../lib/logger';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { hasShopMarker, orderMetadataSchema, stripeMetadataSchema } from '../checkout/order-metadata';
import { isSesAcceptableAddress } from '../emails/send-email';
import type { sendEmailOnce } from '../emails/send-email-once';
import { attempt, type FailedDebitDeps, sendRecordEmail } from '../fulfilment/failed-debit';
import { emailAttributes } from '../storage/send-once';
import {
  createFailedRenewal,
  type FailedRenewalItem,
  failedRenewalKey,
  failedRenewalTtl,
  readFailedRenewal,
} from '../storage/standing-orders';
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
 * `invoice.payment_failed` of a standing order's renewal: no order, and the customer and the
 * merchant told once each (per invoice, however often Stripe retries the card and redelivers),
 * on a `FAILED_RENEWAL#<invoice id>` record through the one send-once protocol, as a failed
 * debit's two emails are (failed-debit.ts). The invoice and subscription are retrieved from Stripe.
 * @throws Stripe, DynamoDB and SES errors (after both emails were tried): the caller retries.
 */
export async function notifyFailedRenewal(
  invoiceId: string,
  deps: FailedDebitDeps,
): Promise<FailedRenewalResult> {
  let record = await readFailedRenewal(deps.table, invoiceId);
  let recorded = false;
  if (record === undefined) {
    const fresh = await failedRenewalOf(invoiceId, deps);
    if ('outcome' in fresh) return fresh;
    recorded = await createFailedRenewal(deps.table, fresh);
    record = recorded ? fresh : await readFailedRenewal(deps.table, invoiceId);
    if (record === undefined) throw new Error(`${fresh.pk} was reported as existing but cannot be read`);
    if (recorded)
      logger.warn('Standing order renewal failed; no order', { invoiceId, reference: record.reference });
  }
  const item = record;
  const customer = await attempt(() =>
    sendOne(item, 'renewalFailed', deps, () => ({
      to: item.customerEmail,
      replyTo: deps.seller.email,
      content: renderRenewalFailed(item, deps.seller, deps.siteUrl),
    })),
  );
  const customerEmailed =
    item.renewalFailedEmailState !== 'failed' && !(customer.ok && customer.outcome === 'refused');
  const merchant = await attempt(() =>
    sendOne(item, 'renewalFailedNotice', deps, () => ({
      to: deps.merchantEmail,
      replyTo: isSesAcceptableAddress(item.customerEmail) ? item.customerEmail : undefined,
      content: renderRenewalFailedNotice(item, customerEmailed, deps.seller.shopName),
    })),
  );
  if (!customer.ok) throw customer.error;
  if (!merchant.ok) throw merchant.error;
  return {
    outcome: 'notified',
    recorded,
    emails: { customer: customer.outcome, merchant: merchant.outcome },
  };
}

/** The record a failed invoice of ours makes, from Stripe; or why there is none. */
async function failedRenewalOf(
  invoiceId: string,
  deps: FailedDebitDeps,
): Promise<FailedRenewalItem | { outcome: 'not-ours' | 'not-failed' }> {
  const invoice = await deps.stripe.invoices.retrieve(invoiceId);
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (subscriptionId === undefined) return { outcome: 'not-ours' };
  const subscription = subscriptionSchema.safeParse(await deps.stripe.subscriptions.retrieve(subscriptionId));
  if (!subscription.success || !hasShopMarker(subscription.data.metadata, deps.shopId))
    return { outcome: 'not-ours' };
  const parsed = failedInvoiceSchema.safeParse(invoice, ENGLISH_MESSAGES);
  const details = orderMetadataSchema.safeParse(subscription.data.metadata, ENGLISH_MESSAGES);
  if (!parsed.success || !details.success || parsed.data.status === 'paid' || parsed.data.status === 'void') {
    return { outcome: 'not-failed' };
  }
  const email = parsed.data.customer_email ?? (await customerEmailOf(invoice, deps));
  if (!email) return { outcome: 'not-failed' };
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
    deleteAfter: failedRenewalTtl(now),
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

function sendOne(
  record: FailedRenewalItem,
  kind: 'renewalFailed' | 'renewalFailedNotice',
  deps: FailedDebitDeps,
  message: Parameters<typeof sendEmailOnce>[0]['message'],
): Promise<EmailResult> {
  return sendRecordEmail(
    {
      id: record.pk,
      kind,
      state: record[emailAttributes(kind).state],
      toCustomer: kind === 'renewalFailed',
      message,
      log: { reference: record.reference, invoiceId: record.invoiceId },
      sentLog: 'Failed renewal email sent',
    },
    deps,
  );
}
