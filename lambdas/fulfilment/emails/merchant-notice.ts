import { formatDispatchDate } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME } from '../../../shared/product';
import type { OrderItem } from '../order';
import { formatOrderDate } from './customer-confirmation';
import { type EmailContent, renderEmail } from './render';

/**
 * The merchant's new-order notice: everything needed to pack and post the order without opening
 * Stripe or the table (reference, bottles, who and where, phone and email for the courier,
 * dispatch day, amount paid), plus the Stripe ids to find it later.
 */
export function renderMerchantNotice(order: OrderItem): EmailContent {
  const dispatch = formatDispatchDate(order.dispatchDate);
  const rows: Array<readonly [string, string]> = [
    ['Reference', order.reference],
    ['Pack', `${order.bottles} × ${DAPHNIA.bottleSize} bottles of ${PRODUCT_NAME}`],
    ['Dispatch on', dispatch],
  ];
  if (order.promisedDispatchDate !== undefined && order.promisedDispatchDate !== order.dispatchDate) {
    rows.push(['Shown at checkout', formatDispatchDate(order.promisedDispatchDate)]);
  }
  rows.push(
    ['Name', order.customerName],
    ['Address', order.deliveryAddress],
    ['Postcode', order.postcode],
    ['Phone', order.customerPhone === '' ? '(not given)' : order.customerPhone],
    ['Email', order.customerEmail],
    ['Total paid', formatGbp(order.totalPence)],
    ['Paid', `${formatOrderDate(order.paidAt)} (${order.paidAt})`],
    ['Stripe session', order.sessionId],
  );
  if (order.paymentIntentId) rows.push(['Stripe payment', order.paymentIntentId]);
  return renderEmail(`New order ${order.reference}: ${order.bottles} bottles, dispatch ${dispatch}`, [
    { kind: 'paragraph', text: 'A new order has been paid. Reply to this email to reach the customer.' },
    { kind: 'rows', rows },
  ]);
}
