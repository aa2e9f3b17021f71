import type { AdminStandingOrderView } from '../../shared/admin-responses';
import { formatDispatchDate, formatLondonTime } from '../../shared/dispatch';
import { formatGbp } from '../../shared/pricing';
import type { AdminClient } from '../admin-client';
import { CONFIRM_FLAGS, CONFIRM_HELP, confirmPlan } from '../confirm';
import { alignColumns } from '../format';
import { type ShopCommand, text, UsageError } from './command';

/* Standing orders (issue 50): `standing-orders` lists them, `cancel-standing-order` ends one. */

const REPEAT_WORDS: Record<AdminStandingOrderView['repeat'], string> = {
  weekly: 'every week',
  fortnightly: 'every 2 weeks',
};

/** "paused (shop)": the status, and who paused it. */
function statusText(order: AdminStandingOrderView): string {
  return order.pausedBy === undefined ? order.status : `${order.status} (${order.pausedBy.join(', ')})`;
}

function standingOrdersTable(orders: readonly AdminStandingOrderView[], now: Date): string {
  const header = [
    'SUBSCRIPTION',
    'STATUS',
    'NAME',
    'EMAIL',
    'BOTTLES',
    'REPEAT',
    'NEXT DELIVERY',
    'NEXT PAYMENT',
  ];
  const rows = orders.map((order) => [
    order.subscriptionId,
    statusText(order),
    order.customerName,
    order.customerEmail,
    String(order.bottles),
    REPEAT_WORDS[order.repeat],
    order.nextDelivery === undefined ? '-' : formatDispatchDate(order.nextDelivery),
    order.nextPaymentAt === undefined ? '-' : formatLondonTime(order.nextPaymentAt, now),
  ]);
  return alignColumns([header, ...rows], [4]).join('\n');
}

export const standingOrdersCommand: ShopCommand = {
  summary: 'Standing orders (repeat deliveries) with their next delivery, newest first',
  usage: 'standing-orders [--status active|paused|cancelled] [--sort newest|next] [--json]',
  details: [
    '--sort next: by next delivery (those with none last). NEXT PAYMENT: when Stripe takes the coming payment.',
    'A paused one takes no payment: paused by its customer, or by the shop (pause holds every renewal until resume).',
  ],
  positionals: 'none',
  async run(shop, values, _p, io) {
    const status = text(values.status);
    const { standingOrders } = await shop.api.standingOrders({ status, sort: text(values.sort) });
    if (values.json) {
      io.out(JSON.stringify(standingOrders, null, 2));
      return;
    }
    if (standingOrders.length === 0) {
      io.out(`No standing orders${status ? ` with status ${status}` : ''}.`);
      return;
    }
    io.out(standingOrdersTable(standingOrders, io.now()));
    io.out(`${standingOrders.length} standing ${standingOrders.length === 1 ? 'order' : 'orders'}.`);
  },
};

/** `cancel-standing-order`: who is told, and what stops. */
async function planCancel(api: AdminClient, subscriptionId: string): Promise<string[]> {
  const { standingOrders } = await api.standingOrders({});
  const order = standingOrders.find((one) => one.subscriptionId === subscriptionId);
  if (order === undefined)
    return [`Cancel standing order ${subscriptionId} (not found: the API will say so).`];
  return [
    `Cancel the standing order of ${order.customerName} <${order.customerEmail}> (${order.bottles} bottles ${REPEAT_WORDS[order.repeat]}, ${formatGbp(order.totalPence)} a delivery): no more payments or orders; the customer gets one email saying so. A delivery already paid still goes.`,
  ];
}

export const cancelStandingOrderCommand: ShopCommand = {
  summary: 'Cancel a standing order at Stripe: no more payments or orders; its customer is emailed once',
  usage: `cancel-standing-order <sub id> ${CONFIRM_FLAGS}`,
  details: [
    'The sub_… id is in standing-orders. Cancelling twice does nothing more (one email).',
    ...CONFIRM_HELP,
  ],
  positionals: 'one',
  async run(shop, values, [subscriptionId = ''], io) {
    if (!subscriptionId.startsWith('sub_'))
      throw new UsageError('Give the standing order by its sub_… id (see standing-orders).');
    if (!(await confirmPlan(io, values, () => planCancel(shop.api, subscriptionId)))) return;
    const { changed, email, standingOrder } = await shop.api.cancelStandingOrder({ subscriptionId });
    if (!changed) {
      io.out(`${subscriptionId} (${standingOrder.customerName}) was already cancelled; nothing changed.`);
      return;
    }
    io.out(
      `${subscriptionId} cancelled: no more payments or orders for ${standingOrder.customerName}. ${email === 'sent' ? `Email sent to ${standingOrder.customerEmail}.` : 'Cancel email not sent now; it is sent once, by whichever path sends it first.'}`,
    );
  },
};
