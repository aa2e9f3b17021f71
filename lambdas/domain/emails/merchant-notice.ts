import { formatDispatchDate, formatLondonTime } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME } from '../../../shared/product';
import type { OrderItem } from '../storage/order';
import { type EmailBlock, type EmailContent, type EmailRow, renderEmail } from './render';

/** What the merchant reads about each reason SES refused the customer's confirmation. */
const REFUSAL_EXPLANATIONS: Record<string, string> = {
  'address-not-ascii': 'the address has characters email servers do not accept',
  InvalidParameterValue: 'the email service says the address is not valid',
  MessageRejected: 'the email service refused to deliver to the address',
};

/** The payment's page in the Stripe Dashboard (test-mode payments live under /test/). */
export function stripeDashboardPaymentUrl(order: Pick<OrderItem, 'paymentIntentId' | 'livemode'>) {
  const id = order.paymentIntentId;
  if (!id || !/^pi_[A-Za-z0-9_]+$/.test(id)) return undefined;
  return `https://dashboard.stripe.com/${order.livemode ? '' : 'test/'}payments/${id}`;
}

/**
 * What the merchant reads first about an order paid while checkout was closed (a session `pause`
 * could not close in time): what happened, and the two ways out.
 */
function pausedParagraph(order: OrderItem): string | undefined {
  if (!order.placedWhilePaused) return undefined;
  const since =
    order.pausedSince === undefined
      ? ''
      : ` since ${formatLondonTime(order.pausedSince, new Date(order.createdAt))}`;
  const state = order.pausedMode === 'requests' ? `taking order requests only${since}` : `paused${since}`;
  return (
    `Paid while the shop was ${state}: the customer opened checkout before the pause and paid before it ` +
    'could be closed. The order is recorded for the dispatch day below. If you cannot send it then, ' +
    `refund it (npm run orders -- refund ${order.reference}) or move the day's orders ` +
    `(npm run orders -- delay --dispatch ${order.dispatchDate} --to YYYY-MM-DD --reason other).`
  );
}

/**
 * Everything to pack and post the order without opening Stripe or the table (reference, bottles, who, where,
 * phone and email for the courier, day, amount), plus Stripe ids.
 */
export function renderMerchantNotice(order: OrderItem, shopName: string, siteUrl: string): EmailContent {
  const dispatch = formatDispatchDate(order.dispatchDate);
  const rows: EmailRow[] = [
    ['Reference', order.reference, { mono: true }],
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
    ['Paid', `${formatLondonTime(order.paidAt, new Date(order.createdAt))} (UK time)`],
    ['Stripe session', order.sessionId],
  );
  if (order.paymentIntentId) rows.push(['Stripe payment', order.paymentIntentId]);
  const blocks: EmailBlock[] = [];
  const paused = pausedParagraph(order);
  if (paused !== undefined) {
    blocks.push({ kind: 'paragraph', text: paused });
    rows.push(['Placed', 'While the shop was paused (see above)']);
  }
  if (order.confirmationEmailState === 'failed') {
    const why =
      REFUSAL_EXPLANATIONS[order.confirmationEmailFailureReason ?? ''] ?? 'the email service refused it';
    blocks.push({
      kind: 'paragraph',
      text:
        `Action needed: the customer has NOT received their order confirmation (${why}). ` +
        'Please contact them by phone, or ask them for another email address.',
    });
    rows.push(['Customer email', 'NOT SENT: confirmation refused']);
  } else {
    blocks.push({
      kind: 'paragraph',
      text: 'A new order has been paid. Reply to this email to reach the customer.',
    });
  }
  if (order.dispatchDayFull) {
    const { sold, capacity } = order.dispatchDayFull;
    blocks.push({
      kind: 'paragraph',
      text:
        `${dispatch} is now full: ${sold} of ${capacity} bottles sold. New orders go to the next ` +
        'dispatch day with room (npm run orders -- capacity shows each day).',
    });
  }
  blocks.push({ kind: 'rows', rows });
  // The order's page in /admin first: it works from a phone, where a terminal command does not.
  blocks.push({
    kind: 'link',
    text: 'Open this order in the admin',
    href: `${siteUrl}/admin?order=${encodeURIComponent(order.reference)}`,
  });
  const dashboard = stripeDashboardPaymentUrl(order);
  if (dashboard)
    blocks.push({ kind: 'link', text: 'Open this payment in the Stripe Dashboard', href: dashboard });
  return renderEmail(
    `New order ${order.reference}: ${order.bottles} bottles, dispatch ${dispatch}${paused === undefined ? '' : ' (paid while paused)'}`,
    blocks,
    shopName,
  );
}
