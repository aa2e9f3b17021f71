import { formatLondonTime } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME } from '../../../shared/product';
import { itemLine, type SellerDetails } from './common';
import { stripeDashboardPaymentUrl } from './merchant-notice';
import { customerContactRows, renderPaymentNotTaken } from './payment-not-taken';
import { type EmailBlock, type EmailContent, type EmailRow, renderEmail } from './render';

/** What both emails about a failed Direct Debit say: which checkout, what for, who, when. */
export interface FailedDebitFacts {
  reference: string;
  sessionId: string;
  paymentIntentId?: string | undefined;
  livemode: boolean;
  bottles: number;
  totalPence: number;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  /** When the customer started the checkout (the session's `created`). */
  checkoutCreatedAt: string;
  /** When the shop learnt of the failure (the record's creation). */
  recordedAt: string;
  /** The bank's reason as Stripe gave it (the PaymentIntent's last error), when it gave one. */
  failureMessage?: string | undefined;
}

/**
 * To the customer: their Bacs Direct Debit was not paid, so there is no order and nothing was
 * taken; how to order again (the shop's address, as a button and in the text part).
 */
export function renderDebitFailed(
  debit: FailedDebitFacts,
  seller: SellerDetails,
  siteUrl: string,
): EmailContent {
  return renderPaymentNotTaken(
    {
      subject: `${seller.name}: your Direct Debit for order ${debit.reference} did not go through`,
      customerName: debit.customerName,
      happened: `Your bank did not pay the Bacs Direct Debit for your order ${debit.reference}, so the order is cancelled and will not be dispatched. Nothing was taken from your account and you owe us nothing.`,
      rows: [
        ['Order reference', debit.reference, { mono: true }],
        ['Item', itemLine(debit.bottles)],
        ['Total', `${formatGbp(debit.totalPence)} (not taken)`],
      ],
      next: 'If you would still like your Daphnia, you are welcome to order again on our shop. A card payment confirms the order at once; a new Direct Debit waits for your bank again.',
      button: { text: 'Order again', href: `${siteUrl}/` },
    },
    seller,
  );
}

/**
 * To the merchant: a checkout paid by Direct Debit failed at the bank, so nothing is to be packed;
 * who it was, and whether the customer was told (their address can be refused for good).
 */
export function renderDebitFailedNotice(
  debit: FailedDebitFacts,
  customerEmailed: boolean,
  shopName: string,
): EmailContent {
  const now = new Date(debit.recordedAt);
  const rows: EmailRow[] = [
    ['Reference', debit.reference, { mono: true }],
    ['Was for', `${debit.bottles} × ${DAPHNIA.bottleSize} bottles of ${PRODUCT_NAME}`],
    ['Total', `${formatGbp(debit.totalPence)} (not paid)`],
    ...customerContactRows(debit),
    ['Checkout', `${formatLondonTime(debit.checkoutCreatedAt, now)} (UK time)`],
    ['Failed', `${formatLondonTime(debit.recordedAt, now)} (UK time)`],
  ];
  if (debit.failureMessage) rows.push(['Bank’s answer', debit.failureMessage]);
  rows.push(['Stripe session', debit.sessionId]);
  if (debit.paymentIntentId) rows.push(['Stripe payment', debit.paymentIntentId]);
  const blocks: EmailBlock[] = [
    {
      kind: 'paragraph',
      text: `The Bacs Direct Debit for checkout ${debit.reference} failed at the customer's bank. No order was recorded and there is nothing to pack.`,
    },
    {
      kind: 'paragraph',
      text: customerEmailed
        ? 'The customer has been emailed that nothing was taken and how to order again. Reply to this email to reach them.'
        : 'Action needed: the customer could NOT be emailed (the email service refused their address). Please tell them by phone that the order is cancelled and nothing was taken.',
    },
    { kind: 'rows', rows },
  ];
  const dashboard = stripeDashboardPaymentUrl(debit);
  if (dashboard)
    blocks.push({ kind: 'link', text: 'Open this payment in the Stripe Dashboard', href: dashboard });
  return renderEmail(
    `Direct Debit failed: ${debit.reference}, ${debit.bottles} bottles (no order)`,
    blocks,
    shopName,
  );
}
