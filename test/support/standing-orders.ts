import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { buildSessionParams } from '../../lambdas/domain/checkout/create-checkout-session';
import { withStandingOrder } from '../../lambdas/domain/standing-deliveries/subscription-session';
import type { StandingOrderItem } from '../../lambdas/domain/storage/standing-orders';
import { createOrderPageHandler, loadOrderPageDeps } from '../../lambdas/handlers/order-page/handler';
import { checkoutRequestSchema } from '../../shared/checkout-request';
import { nextDispatchDate } from '../../shared/dispatch';
import { quoteOrder } from '../../shared/pricing';
import { type FulfilmentHarness, MERCHANT_EMAIL, ORDER_PAGE_SECRET, SITE_URL } from './fulfilment-harness';
import { TEST_SHOP_ID } from './shop';
import { standInEnvironment } from './stand-ins';
import { eventPayload, stripeEvent } from './stripe-events';

// Standing orders made the real way for the merchant's tests (admin API, CLI): a subscription
// session as create-checkout builds it, paid on the simulator, its invoices told to the webhook.

const WEEK_MS = 7 * 86_400_000;

export interface MadeStandingOrder {
  subscriptionId: string;
  email: string;
}

/** A weekly standing order of `name` for `bottles` (3, 6 or 9), paid, its first invoice fulfilled by the webhook. */
export async function makeStandingOrder(
  h: FulfilmentHarness,
  name: string,
  bottles: 3 | 6 | 9,
): Promise<MadeStandingOrder> {
  const email = `${name.toLowerCase()}.${randomUUID().slice(0, 8)}@example.com`;
  const quote = quoteOrder(bottles);
  const input = checkoutRequestSchema.parse({
    name,
    email,
    phone: '07700 900123',
    address: '1 Fry Street\nLeeds',
    postcode: 'LS1 1AA',
    quantity: bottles,
    subtotal: quote.subtotalPence / 100,
    shipping: quote.shippingPence / 100,
    total: quote.totalPence / 100,
    repeat: 'weekly',
  });
  const now = h.deps.now();
  const day = nextDispatchDate(now);
  const params = buildSessionParams({
    input,
    quote,
    siteUrl: 'https://shop.test',
    shopId: TEST_SHOP_ID,
    clientReferenceId: `ord_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    dispatchDate: day,
    debitDispatchDate: day,
    expiresAt: Math.floor(now.getTime() / 1000) + 3_600,
  });
  const session = await h.stripe.checkout.sessions.create(withStandingOrder(params, input, quote, day));
  await h.simulator.completeSession(session.id);
  const paid = await h.stripe.checkout.sessions.retrieve(session.id);
  const subscriptionId = typeof paid.subscription === 'string' ? paid.subscription : paid.subscription?.id;
  if (subscriptionId === undefined) throw new Error('no subscription');
  await deliverLatestPaid(h, subscriptionId);
  return { subscriptionId, email };
}

export function invoicesOf(h: FulfilmentHarness, subscriptionId: string): Stripe.Invoice[] {
  return h.simulator.getInvoices({ subscription: subscriptionId });
}

/** The webhook told of the subscription's latest invoice when it is paid: that invoice, else undefined. */
export async function deliverLatestPaid(
  h: FulfilmentHarness,
  subscriptionId: string,
): Promise<Stripe.Invoice | undefined> {
  const latest = invoicesOf(h, subscriptionId).at(-1);
  if (latest?.status !== 'paid') return undefined;
  const payload = eventPayload(stripeEvent('invoice.paid', latest, { created: h.clock.nowSeconds() }));
  const response = await h.webhook(h.delivery(payload));
  if (response.statusCode !== 200) throw new Error(`the webhook answered ${response.statusCode}`);
  return latest;
}

/** The code's clock and the simulator's a week on together (renewals made, charged or voided). */
export async function advanceAWeek(h: FulfilmentHarness): Promise<void> {
  h.clock.advance(WEEK_MS);
  await h.simulator.advanceClock(WEEK_MS);
}

/** The orders a standing order's paid invoices made. */
export async function ordersOfStandingOrder(h: FulfilmentHarness, subscriptionId: string) {
  return (await h.standIns.orderItems()).filter(
    (item) => item.subscriptionId === subscriptionId && String(item.pk).startsWith('ORDER#'),
  );
}

/** The order page's handler as its Lambda loads it, against the harness's stand-ins and clock. */
export async function orderPageOn(
  h: FulfilmentHarness,
  stripeSecretKey: string,
): Promise<ReturnType<typeof createOrderPageHandler>> {
  const deps = await loadOrderPageDeps({
    ...standInEnvironment(h.standIns),
    MERCHANT_EMAIL,
    SITE_URL,
    ORDER_PAGE_SECRET,
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: stripeSecretKey,
    STRIPE_API_BASE: h.simulator.url,
    SHOP_ID: TEST_SHOP_ID,
  });
  return createOrderPageHandler({ ...deps, now: h.deps.now });
}

/**
 * A weekly standing order's record, paid first on Wednesday 9 December 2026 at 10:00 for Monday
 * 14 December, its next payment Wednesday 16 December at 10:00 for Monday 21: `fields` replace any.
 */
export function standingOrderItem(fields: Partial<StandingOrderItem> = {}): StandingOrderItem {
  return {
    pk: 'STANDING_ORDER#sub_1',
    subscriptionId: 'sub_1',
    livemode: false,
    status: 'active',
    repeat: 'weekly',
    bottles: 3,
    totalPence: 1470,
    customerName: 'Zoë Brontë',
    customerEmail: 'zoe@example.com',
    customerPhone: '07700 900123',
    deliveryAddress: '10 Downing Street\nLondon',
    postcode: 'SW1A 2AA',
    nextDelivery: '2026-12-14',
    nextPaymentAt: '2026-12-16T10:00:00.000Z',
    nextPaymentDelivery: '2026-12-21',
    lastInvoiceId: 'in_1',
    firstDelivery: '2026-12-14',
    lastDeliveryIndex: 0,
    pageKey: 'AAAAAAAAAAAAAAAAAAAAAA',
    createdAt: '2026-12-09T10:00:00.000Z',
    ...fields,
  };
}
