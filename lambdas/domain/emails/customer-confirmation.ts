import { expectedArrivalDate, formatDispatchDate, formatLondonDate } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { PRODUCT_NAME } from '../../../shared/product';
import type { OrderItem } from '../storage/order';
import type { SellerDetails } from './common';
import { customerEmail, deliverToRow, itemLine, liveAnimalRights, orderPageBlocks } from './common';
import type { EmailBlock, EmailContent } from './render';

/**
 * The durable record the Consumer Contracts Regulations 2013 ask for after a distance sale: seller and
 * contact, reference and date, goods, prices, address, dispatch and arrival, and the live-goods
 * no-cancellation notice.
 */
export function renderCustomerConfirmation(
  order: OrderItem,
  seller: SellerDetails,
  orderPageUrl?: string,
): EmailContent {
  const dispatch = formatDispatchDate(order.dispatchDate);
  const arrival = formatDispatchDate(expectedArrivalDate(order.dispatchDate));
  const promised = order.promisedDispatchDate;
  // ISO dates compare as strings. Earlier happens when a Direct Debit confirms before the day
  // expected for it at checkout.
  const moved =
    promised === undefined || promised === order.dispatchDate
      ? ''
      : promised < order.dispatchDate
        ? ` This is later than the ${formatDispatchDate(promised)} shown at checkout, because the payment completed after that week's packing cut-off.`
        : ` This is earlier than the ${formatDispatchDate(promised)} expected at checkout, because your bank confirmed the payment sooner.`;
  const blocks: EmailBlock[] = [
    {
      kind: 'paragraph',
      text: `Thank you for your order from ${seller.name}. We have received your payment and your order is confirmed.`,
    },
    { kind: 'heading', text: 'Your order' },
    {
      kind: 'rows',
      rows: [
        ['Order reference', order.reference, { mono: true }],
        // The London day ("21 November 2026"): the order date the customer recognises.
        ['Order date', formatLondonDate(order.paidAt)],
        [
          'Item',
          `${itemLine(order.bottles)} at ${formatGbp(order.unitPricePence)} each: ${formatGbp(order.subtotalPence)}`,
        ],
        ['UK delivery', formatGbp(order.shippingPence)],
        ['Total paid', `${formatGbp(order.totalPence)} (including any VAT)`],
      ],
    },
    // The page follows the order from here: dispatch day, delays, tracking, refunds, corrections.
    ...orderPageBlocks(orderPageUrl, order.subscriptionId === undefined ? 'order' : 'standing'),
    { kind: 'heading', text: 'Delivery' },
    {
      kind: 'rows',
      rows: [deliverToRow(order), ['Planned dispatch', dispatch], ['Expected arrival', arrival]],
    },
    {
      kind: 'paragraph',
      text: `We plan to dispatch your order on ${dispatch} by Royal Mail 1st Class; most orders arrive the next day, ${arrival}. We dispatch on Mondays (or the first working day of the week after a bank holiday).${moved} Freezing or extreme weather can delay dispatch; if it does, we will email you.`,
    },
    { kind: 'heading', text: 'Live animals: cancellation and problems' },
    ...liveAnimalRights(seller, order.reference),
  ];
  return customerEmail(
    seller,
    // Names the shop: the inbox shows who the mail is from before it is opened.
    `${seller.name}: order ${order.reference} confirmed (${order.bottles} bottles of ${PRODUCT_NAME})`,
    order.customerName,
    blocks,
  );
}
