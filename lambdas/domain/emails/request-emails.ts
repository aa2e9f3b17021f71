import { formatDispatchDate } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import type { OrderRequest } from '../orders/order-request';
import { itemLine, liveAnimalRights, type SellerDetails, sellerBlocks } from './common';
import { formatOrderDate } from './customer-confirmation';
import { type EmailContent, renderEmail } from './render';

function requestRows(request: OrderRequest): Array<readonly [string, string]> {
  return [
    ['Request reference', request.reference],
    ['Item', `${itemLine(request.bottles)} at ${formatGbp(request.unitPricePence)} each`],
    ['UK delivery', formatGbp(request.shippingPence)],
    ['Total', `${formatGbp(request.totalPence)} (including any VAT)`],
    ['Deliver to', `${request.customerName}\n${request.deliveryAddress}\n${request.postcode}`],
  ];
}

/** To the customer: the request is received, nothing is paid or owed yet, what happens next. */
export function renderRequestReceived(request: OrderRequest, seller: SellerDetails): EmailContent {
  return renderEmail(`${seller.name}: order request ${request.reference} received`, [
    { kind: 'paragraph', text: `Hello ${request.customerName},` },
    {
      kind: 'paragraph',
      text: `Thank you for your order request. No payment has been taken and you do not owe anything yet. We will contact you at ${request.customerEmail} to confirm your delivery details; when we can supply your order we will email you a secure payment link.`,
    },
    { kind: 'heading', text: 'Your request' },
    { kind: 'rows', rows: requestRows(request) },
    ...sellerBlocks(seller),
  ]);
}

/** To the merchant: a request to answer, with the two commands that answer it. */
export function renderRequestNotice(request: OrderRequest): EmailContent {
  return renderEmail(`Order request ${request.reference}: ${request.bottles} bottles (not paid)`, [
    {
      kind: 'paragraph',
      text: `A new order request (the shop is taking requests, so nothing has been paid). Invite payment with: npm run orders -- request-payment ${request.reference}. Or decline it with: npm run orders -- decline ${request.reference}. Reply to this email to reach the customer.`,
    },
    {
      kind: 'rows',
      rows: [
        ...requestRows(request),
        ['Phone', request.customerPhone === '' ? '(not given)' : request.customerPhone],
        ['Email', request.customerEmail],
        ['Received', `${formatOrderDate(request.createdAt)} (${request.createdAt})`],
      ],
    },
  ]);
}

const expiryFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

/** To the customer: we can supply the request; a Stripe payment link and until when it works. */
export function renderPaymentInvitation(
  request: OrderRequest,
  link: { url: string; expiresAt: string; dispatchDate: string },
  seller: SellerDetails,
): EmailContent {
  return renderEmail(`${seller.name}: pay for your order request ${request.reference}`, [
    { kind: 'paragraph', text: `Hello ${request.customerName},` },
    {
      kind: 'paragraph',
      text: `Good news: we can supply your order. To place it, pay securely with Stripe here:\n${link.url}\nThe link works until ${expiryFormat.format(new Date(link.expiresAt))} (UK time). Your order is placed only when you pay, and we then email you a confirmation.`,
    },
    {
      kind: 'rows',
      rows: [...requestRows(request), ['Planned dispatch', formatDispatchDate(link.dispatchDate)]],
    },
    ...liveAnimalRights(seller, request.reference),
    ...sellerBlocks(seller),
  ]);
}

/** To the customer: the request is declined; nothing was paid. */
export function renderDecline(request: OrderRequest, seller: SellerDetails): EmailContent {
  return renderEmail(`${seller.name}: order request ${request.reference}`, [
    { kind: 'paragraph', text: `Hello ${request.customerName},` },
    {
      kind: 'paragraph',
      text: `We are sorry: we cannot supply your order request ${request.reference} (${itemLine(request.bottles)}). No payment was taken and you owe nothing. You are welcome to order again when the shop reopens.`,
    },
    ...sellerBlocks(seller),
  ]);
}
