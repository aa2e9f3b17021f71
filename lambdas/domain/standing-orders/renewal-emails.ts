import { formatGbp } from '../../../shared/pricing';
import { itemLine, type SellerDetails } from '../emails/common';
import { customerContactRows, renderPaymentNotTaken } from '../emails/payment-not-taken';
import { type EmailContent, type EmailRow, renderEmail } from '../emails/render';
import type { FailedRenewalItem } from '../storage/standing-orders';

/** To the customer: this delivery's payment failed, so nothing is sent this time; how to put it right. */
export function renderRenewalFailed(
  renewal: FailedRenewalItem,
  seller: SellerDetails,
  siteUrl: string,
): EmailContent {
  return renderPaymentNotTaken(
    {
      subject: `${seller.name}: the payment for your standing order ${renewal.reference} did not go through`,
      customerName: renewal.customerName,
      happened: `Your card was not charged for this delivery of your standing order ${renewal.reference}, so nothing will be dispatched for it. Stripe will try your card again over the next few days; once a payment goes through, that delivery goes on the next dispatch day.`,
      rows: [
        ['Standing order', renewal.reference, { mono: true }],
        ['Item', itemLine(renewal.bottles)],
        ['Each delivery', `${formatGbp(renewal.totalPence)} (not taken this time)`],
      ],
      next: 'If your card has changed or expired, reply to this email, or order again on our shop.',
      button: { text: 'Visit the shop', href: `${siteUrl}/` },
    },
    seller,
  );
}

/** To the merchant: a renewal failed, so there is no order and nothing to pack for it. */
export function renderRenewalFailedNotice(
  renewal: FailedRenewalItem,
  customerEmailed: boolean,
  shopName: string,
): EmailContent {
  const rows: EmailRow[] = [
    ['Standing order', renewal.reference, { mono: true }],
    ['Was for', itemLine(renewal.bottles)],
    ['Total', `${formatGbp(renewal.totalPence)} (not paid)`],
    ...customerContactRows(renewal),
    ['Stripe invoice', renewal.invoiceId],
    ['Stripe subscription', renewal.subscriptionId],
  ];
  return renderEmail(
    `Standing order payment failed: ${renewal.reference}, ${renewal.bottles} bottles (no order)`,
    [
      {
        kind: 'paragraph',
        text: `The card payment for this delivery of standing order ${renewal.reference} failed. No order was recorded and there is nothing to pack for it; Stripe retries the card.`,
      },
      {
        kind: 'paragraph',
        text: customerEmailed
          ? 'The customer has been emailed. Reply to this email to reach them.'
          : 'Action needed: the customer could NOT be emailed (the email service refused their address).',
      },
      { kind: 'rows', rows },
    ],
    shopName,
  );
}
