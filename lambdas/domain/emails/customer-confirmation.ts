import { formatDispatchDate } from '../../../shared/dispatch';
import { liveArrivalStatement, NO_CANCELLATION_STATEMENT } from '../../../shared/live-animals';
import { formatGbp } from '../../../shared/pricing';
import { PRODUCT_NAME } from '../../../shared/product';
import type { OrderItem } from '../orders/order';
import { itemLine, type SellerDetails, sellerBlocks } from './common';
import { type EmailBlock, type EmailContent, renderEmail } from './render';

const orderDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});

/** "21 November 2026", the day in London: the order date the customer recognises. */
export function formatOrderDate(instant: string): string {
  return orderDate.format(new Date(instant));
}

/**
 * The customer's order confirmation: the durable record the Consumer Contracts Regulations 2013
 * ask for after a distance sale: seller identity and contact, reference
 * and date, what was bought at what price, delivery and total paid, delivery address, planned
 * dispatch date, the no-cancellation notice for live goods and how to report a problem.
 */
export function renderCustomerConfirmation(order: OrderItem, seller: SellerDetails): EmailContent {
  const dispatch = formatDispatchDate(order.dispatchDate);
  const moved =
    order.promisedDispatchDate !== undefined && order.promisedDispatchDate !== order.dispatchDate
      ? ` This is later than the ${formatDispatchDate(order.promisedDispatchDate)} shown at checkout, because the payment completed after that week's packing cut-off.`
      : '';
  const blocks: EmailBlock[] = [
    { kind: 'paragraph', text: `Hello ${order.customerName},` },
    {
      kind: 'paragraph',
      text: `Thank you for your order from ${seller.name}. We have received your payment and your order is confirmed.`,
    },
    { kind: 'heading', text: 'Your order' },
    {
      kind: 'rows',
      rows: [
        ['Order reference', order.reference, { mono: true }],
        ['Order date', formatOrderDate(order.paidAt)],
        [
          'Item',
          `${itemLine(order.bottles)} at ${formatGbp(order.unitPricePence)} each: ${formatGbp(order.subtotalPence)}`,
        ],
        ['UK delivery', formatGbp(order.shippingPence)],
        ['Total paid', `${formatGbp(order.totalPence)} (including any VAT)`],
      ],
    },
    { kind: 'heading', text: 'Delivery' },
    {
      kind: 'rows',
      rows: [
        ['Deliver to', `${order.customerName}\n${order.deliveryAddress}\n${order.postcode}`],
        ['Planned dispatch', dispatch],
      ],
    },
    {
      kind: 'paragraph',
      text: `We plan to dispatch your order on ${dispatch}. We dispatch on Mondays (or the first working day of the week after a bank holiday).${moved} Freezing or extreme weather can delay dispatch; if it does, we will email you.`,
    },
    { kind: 'heading', text: 'Live animals: cancellation and problems' },
    {
      kind: 'paragraph',
      // The same words as the order page and the terms (shared/live-animals.ts).
      text: NO_CANCELLATION_STATEMENT,
    },
    { kind: 'paragraph', text: liveArrivalStatement(seller.email, order.reference) },
    ...sellerBlocks(seller),
  ];
  return renderEmail(
    // Names the shop: the inbox shows who the mail is from before it is opened.
    `${seller.name}: order ${order.reference} confirmed (${order.bottles} bottles of ${PRODUCT_NAME})`,
    blocks,
  );
}
