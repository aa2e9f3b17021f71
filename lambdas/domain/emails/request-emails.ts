import { formatDispatchDate, formatLondonDayAndTime, formatLondonTime } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import type { OrderRequest } from '../storage/order-request';
import { customerEmail, deliverToRow, itemLine, liveAnimalRights, type SellerDetails } from './common';
import { type EmailBlock, type EmailContent, type EmailRow, renderEmail } from './render';

function requestRows(request: OrderRequest): EmailRow[] {
  return [
    ['Request reference', request.reference, { mono: true }],
    ['Item', `${itemLine(request.bottles)} at ${formatGbp(request.unitPricePence)} each`],
    ['UK delivery', formatGbp(request.shippingPence)],
    ['Total', `${formatGbp(request.totalPence)} (including any VAT)`],
    deliverToRow(request),
  ];
}

/**
 * To the merchant: a request with the two commands that answer it, as typed; the customer hears nothing until
 * then. Says how many requests notice limits held back.
 */
export function renderRequestNotice(request: OrderRequest, shopName: string): EmailContent {
  const unnotified = request.unnotifiedRequests ?? 0;
  const earlier: EmailBlock[] =
    unnotified > 0 && request.unnotifiedSince !== undefined
      ? [
          {
            kind: 'paragraph',
            text: `Also ${unnotified} earlier ${unnotified === 1 ? 'request' : 'requests'} since ${formatLondonTime(request.unnotifiedSince, new Date(request.createdAt))} (UK time), recorded without a notice of ${unnotified === 1 ? 'its' : 'their'} own (the hourly limits on these notices). List them with: npm run orders -- list --status requested`,
          },
        ]
      : [];
  return renderEmail(
    `Order request ${request.reference}: ${request.bottles} bottles (not paid)`,
    [
      {
        kind: 'paragraph',
        text: `A new order request (the shop is taking requests, so nothing has been paid, and the customer has not been emailed). Invite payment with: npm run orders -- request-payment ${request.reference}. Or decline it with: npm run orders -- decline ${request.reference}. Reply to this email to reach the customer.`,
      },
      ...earlier,
      {
        kind: 'rows',
        rows: [
          ...requestRows(request),
          ['Phone', request.customerPhone === '' ? '(not given)' : request.customerPhone],
          ['Email', request.customerEmail],
          ['Received', `${formatLondonTime(request.createdAt, new Date(request.createdAt))} (UK time)`],
        ],
      },
    ],
    shopName,
  );
}

/** To the customer: we can supply the request; a Stripe payment link and until when it works. */
export function renderPaymentInvitation(
  request: OrderRequest,
  link: { url: string; expiresAt: string; dispatchDate: string },
  seller: SellerDetails,
): EmailContent {
  return customerEmail(
    seller,
    `${seller.name}: pay for your order request ${request.reference}`,
    request.customerName,
    [
      {
        kind: 'paragraph',
        text: 'Good news: we can supply your order. To place it, pay securely with Stripe:',
      },
      // A button, the address only behind it: a bare URL would stretch a phone's screen sideways.
      { kind: 'button', text: `Pay ${formatGbp(request.totalPence)} with Stripe`, href: link.url },
      {
        kind: 'paragraph',
        text: `The link works until ${formatLondonDayAndTime(link.expiresAt)} (UK time). Your order is placed only when you pay, and we then email you a confirmation.`,
      },
      {
        kind: 'rows',
        rows: [...requestRows(request), ['Planned dispatch', formatDispatchDate(link.dispatchDate)]],
      },
      ...liveAnimalRights(seller, request.reference),
    ],
  );
}

/** To the customer: the request is declined; nothing was paid. */
export function renderDecline(request: OrderRequest, seller: SellerDetails): EmailContent {
  return customerEmail(seller, `${seller.name}: order request ${request.reference}`, request.customerName, [
    {
      kind: 'paragraph',
      text: `We are sorry: we cannot supply your order request ${request.reference} (${itemLine(request.bottles)}). No payment was taken and you owe nothing. You are welcome to order again when the shop reopens.`,
    },
  ]);
}
