import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { BrowserContext, Page } from '@playwright/test';
import { addDays, dispatchDayOfWeekOf, formatDispatchDate, type IsoDate } from '../../shared/dispatch';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { eventPayload, signPayload, stripeEvent } from '../support/stripe-events';
import { expectAccessible, fillDeliveryDetails, openPaymentTab, payWithCard } from './support/customer';
import { expect, type OwnStack, test } from './support/own-stack';

// Issue 50's done-when in the browser, on a stack of this spec's own (Stripe's clock moves weeks
// ahead here, and only forward): subscribe weekly for 3 bottles and pay on the simulator's page;
// a week on Stripe's test clock renews it; the standing order's page (the link in its emails)
// skips the next delivery and cancels; a declined renewal makes no order; replays change nothing.
// The shop keeps the real clock, so this passes on any day and hour.

const PHONE = { width: 360, height: 800 };
const WEEK_SECONDS = 7 * 24 * 60 * 60;
/** Any test-mode key: the simulator's own, not the shop's. */
const STRIPE_KEY = { Authorization: 'Bearer sk_test_e2e_standing_orders' };

test.describe.configure({ mode: 'serial' });

interface Subscriber {
  name: string;
  email: string;
  sessionId: string;
  subscriptionId: string;
}

const run = randomUUID().slice(0, 8);
let wendy: Subscriber;
let fred: Subscriber;
let testClock: { id: string; frozen_time: number } | undefined;

async function stripeGet<T>(stack: OwnStack, path: string): Promise<T> {
  const response = await fetch(`${stack.simulatorUrl}${path}`, { headers: STRIPE_KEY });
  expect(response.status, `GET ${path}`).toBe(200);
  return (await response.json()) as T;
}

async function stripePost<T>(stack: OwnStack, path: string, form: Record<string, string>): Promise<T> {
  const response = await fetch(`${stack.simulatorUrl}${path}`, {
    method: 'POST',
    headers: { ...STRIPE_KEY, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  expect(response.status, `POST ${path}`).toBe(200);
  return (await response.json()) as T;
}

/** Moves Stripe's clock (one test clock: the simulator has one clock) a week and a minute on. */
async function advanceStripeAWeek(stack: OwnStack): Promise<void> {
  const clock =
    testClock ??
    (await stripePost<{ id: string; frozen_time: number }>(stack, '/v1/test_helpers/test_clocks', {
      frozen_time: String(Math.floor(Date.now() / 1000)),
    }));
  testClock = await stripePost(stack, `/v1/test_helpers/test_clocks/${clock.id}/advance`, {
    frozen_time: String(clock.frozen_time + WEEK_SECONDS + 60),
  });
}

interface Invoice {
  id: string;
  status: string;
  amount_paid: number;
  billing_reason: string;
}

async function invoicesOf(stack: OwnStack, subscriptionId: string): Promise<Invoice[]> {
  const list = await stripeGet<{ data: Invoice[] }>(
    stack,
    `/v1/invoices?subscription=${subscriptionId}&limit=100`,
  );
  // Newest first, as Stripe lists them: oldest first here, as they were made.
  return list.data.reverse();
}

/** The orders a standing order made, oldest dispatch day first. */
async function ordersOf(stack: OwnStack, subscriptionId: string): Promise<Array<Record<string, unknown>>> {
  const { Items = [] } = await stack.dynamo.send(new ScanCommand({ TableName: stack.tableName }));
  return Items.map((item) => unmarshall(item))
    .filter((item) => String(item.pk).startsWith('ORDER#') && item.subscriptionId === subscriptionId)
    .sort((a, b) => String(a.dispatchDate).localeCompare(String(b.dispatchDate)));
}

/** Chooses Every week for 3 bottles on the order page and pays £14.70 on the simulator's page. */
async function subscribe(page: Page, context: BrowserContext, stack: OwnStack, name: string) {
  const email = `${name.split(' ')[0]?.toLowerCase()}.${run}@example.com`;
  await page.goto('/');
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await page.getByRole('group', { name: 'How often?' }).getByRole('radio', { name: 'Every week' }).check();
  await fillDeliveryDetails(page, { name, email, address: '7 Canal Side, Leeds', postcode: 'LS1 4AP' });
  const payment = await openPaymentTab(page, context);
  await payWithCard(payment, '4242 4242 4242 4242', '£14.70');
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  await expect(payment.getByRole('heading', { level: 1 })).toContainText('Payment Successful!');
  const sessionId = new URL(payment.url()).searchParams.get('session_id') ?? '';
  await payment.close();
  const session = await stripeGet<{ subscription: string }>(stack, `/v1/checkout/sessions/${sessionId}`);
  expect(session.subscription).toMatch(/^sub_/);
  return { name, email, sessionId, subscriptionId: session.subscription };
}

/** Every stored item and email, to show that something changed nothing. */
async function everything(stack: OwnStack, addresses: string[]) {
  const { Items = [] } = await stack.dynamo.send(new ScanCommand({ TableName: stack.tableName }));
  const emails = await Promise.all(addresses.map(async (address) => (await stack.emailsTo(address)).length));
  return { items: Items.length, emails };
}

/** Stripe's event about `object` delivered again, signed now with the endpoint's secret, as a redelivery. */
async function redeliver(stack: OwnStack, type: string, object: unknown): Promise<number> {
  const payload = eventPayload(stripeEvent(type, object, { created: Math.floor(Date.now() / 1000) }));
  const response = await fetch(`${stack.shopUrl}${PUBLIC_API_ROUTES.stripeWebhook.path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Stripe-Signature': signPayload(payload, stack.webhookSecret, Math.floor(Date.now() / 1000)),
    },
    body: payload,
  });
  return response.status;
}

test('two customers subscribe weekly for 3 bottles: one order each, for the first dispatch day', async ({
  page,
  context,
  stack,
}) => {
  test.setTimeout(240_000);
  wendy = await subscribe(page, context, stack, `Wendy Weekly${run}`);
  fred = await subscribe(page, context, stack, `Fred Fails${run}`);

  for (const subscriber of [wendy, fred]) {
    await expect.poll(async () => (await ordersOf(stack, subscriber.subscriptionId)).length).toBe(1);
    const [order] = await ordersOf(stack, subscriber.subscriptionId);
    expect(order).toMatchObject({ status: 'paid', bottles: 3, totalPence: 1470, repeat: 'weekly' });
    await expect.poll(async () => (await stack.emailsTo(subscriber.email)).length).toBe(1);
  }
  // Fred's card is declined at his next renewal (a test hook of the simulator's, over HTTP).
  const hook = await fetch(
    `${stack.simulatorUrl}/test-hooks/subscriptions/${fred.subscriptionId}/fail-next-renewal`,
    { method: 'POST' },
  );
  expect(hook.status).toBe(204);
});

test("a week on Stripe's clock: one more order and email for Wendy, held on its day; Fred's declined renewal makes no order and one email each; replays change nothing", async ({
  stack,
}) => {
  test.setTimeout(180_000);
  const merchantBefore = (await stack.emailsTo(stack.merchantEmail)).length;
  const [first] = await ordersOf(stack, wendy.subscriptionId);
  const firstDay = String(first?.dispatchDate) as IsoDate;

  await advanceStripeAWeek(stack);

  await expect.poll(async () => (await ordersOf(stack, wendy.subscriptionId)).length).toBe(2);
  const renewal = (await invoicesOf(stack, wendy.subscriptionId))[1];
  expect(renewal).toMatchObject({ status: 'paid', amount_paid: 1470, billing_reason: 'subscription_cycle' });
  const second = (await ordersOf(stack, wendy.subscriptionId))[1];
  // The week after the first delivery's: its Monday, or Tuesday after a bank-holiday Monday.
  expect(second).toMatchObject({
    status: 'paid',
    totalPence: 1470,
    dispatchDate: dispatchDayOfWeekOf(addDays(firstDay, 7)),
    capacityHold: `s${renewal?.id}:3`,
  });
  await expect.poll(async () => (await stack.emailsTo(wendy.email)).length).toBe(2);

  const declined = (await invoicesOf(stack, fred.subscriptionId))[1];
  expect(declined).toMatchObject({ status: 'open', billing_reason: 'subscription_cycle' });
  await expect
    .poll(async () => (await stack.emailsTo(fred.email)).map((email) => email.subject))
    .toEqual([expect.stringContaining('confirmed'), expect.stringMatching(/did not go through$/)]);
  expect(await ordersOf(stack, fred.subscriptionId)).toHaveLength(1);
  await expect
    .poll(async () =>
      (await stack.emailsTo(stack.merchantEmail))
        .slice(merchantBefore)
        .map((email) => email.subject)
        .filter((subject) => subject.startsWith('Standing order payment failed:')),
    )
    .toEqual([expect.stringMatching(/, 3 bottles \(no order\)$/)]);

  // Stripe delivers again, in any order and at once: nothing more is stored or sent.
  const before = await everything(stack, [wendy.email, fred.email, stack.merchantEmail]);
  const invoices = [
    ...(await invoicesOf(stack, wendy.subscriptionId)).map((invoice) => ['invoice.paid', invoice] as const),
    ['invoice.payment_failed', declined] as const,
  ];
  const sessions = await Promise.all(
    [wendy, fred].map((subscriber) => stripeGet(stack, `/v1/checkout/sessions/${subscriber.sessionId}`)),
  );
  const events = [
    ...invoices,
    ...sessions.map((session) => ['checkout.session.completed', session] as const),
  ];
  for (const [type, object] of events) expect(await redeliver(stack, type, object)).toBe(200);
  const statuses = await Promise.all(events.map(([type, object]) => redeliver(stack, type, object)));
  expect(statuses.every((status) => status === 200)).toBe(true);
  expect(await everything(stack, [wendy.email, fred.email, stack.merchantEmail])).toEqual(before);
});

/** The standing order's page: the link in the newest of the customer's emails that opens it. */
async function openStandingOrderPage(page: Page, stack: OwnStack, address: string): Promise<void> {
  const emails = await stack.emailsTo(address);
  const links = [...emails]
    .reverse()
    .flatMap(
      (email) =>
        (email.body.html ?? '').match(new RegExp(`${stack.shopUrl}/order/[A-Za-z0-9_-]+`, 'g')) ?? [],
    );
  for (const link of new Set(links)) {
    await page.goto(link);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).not.toHaveText('Your order');
    if ((await heading.textContent())?.startsWith('Your standing order')) return;
  }
  throw new Error(`no email to ${address} links to the standing order's page`);
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test("from the standing order's page (its email's link), at 360 × 800: skip the next delivery before its cut-off: no order that week, no charge", async ({
  page,
  stack,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  await openStandingOrderPage(page, stack, wendy.email);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your standing order is active');
  await expect(page.getByText('How often').locator('xpath=following-sibling::dd')).toHaveText('Every week');
  await expect(page.getByText('Each delivery').locator('xpath=following-sibling::dd')).toHaveText('£14.70');
  // The last paid delivery, still to come, is listed paid with its order's reference; then those due.
  const coming = page.getByRole('region', { name: 'Coming deliveries' });
  const last = (await ordersOf(stack, wendy.subscriptionId)).at(-1) ?? {};
  await expect(coming.getByRole('listitem').first()).toHaveText(
    `${dayTextOf(last)}: paid, order ${String(last.reference)}`,
  );
  await expect(coming.getByRole('listitem').nth(1)).toContainText(': due, we take £14.70 on ');
  await expectAccessible(page);
  await noSidewaysScroll(page);

  // The next delivery is the paid one (its cut-off is ahead on the shop's clock): refunded in full.
  const paidDay = dayTextOf(last);
  await page.getByRole('button', { name: `Skip the delivery on ${paidDay}` }).click();

  const refunded = page.getByText(
    `Skipped: no delivery on ${paidDay}. We are refunding its £14.70 in full. We have emailed you a confirmation.`,
  );
  await expect(refunded).toBeFocused();
  await expect(coming.getByRole('listitem').first()).toHaveText(`${paidDay}: skipped, nothing to pay`);
  // One confirmation of the skip, the refund in it (the refund sends no email of its own).
  await expect.poll(() => skipEmails(stack, paidDay, ', £14.70 refunded')).toBe(1);
  const skippedOrder = (await ordersOf(stack, wendy.subscriptionId)).find((order) => order.pk === last.pk);
  expect(skippedOrder?.status).toBe('refunded');
  await expectAccessible(page);
  await noSidewaysScroll(page);

  // Then the next, not paid yet: never charged; a week on Stripe's clock makes no payment and no order.
  const due = coming.getByRole('listitem').nth(1);
  await expect(due).toContainText(': due, we take £14.70 on ');
  const dueDay = ((await due.textContent()) ?? '').split(':')[0] ?? '';
  const paidBefore = (await invoicesOf(stack, wendy.subscriptionId)).filter(
    (i) => i.status === 'paid',
  ).length;
  const ordersBefore = (await ordersOf(stack, wendy.subscriptionId)).length;
  await page.getByRole('button', { name: `Skip the delivery on ${dueDay}` }).click();

  await expect(
    page.getByText(
      `Skipped: no delivery on ${dueDay}. We will not charge you for it. We have emailed you a confirmation.`,
    ),
  ).toBeFocused();
  await expect(coming.getByRole('listitem').nth(1)).toHaveText(`${dueDay}: skipped, nothing to pay`);
  await expect.poll(() => skipEmails(stack, dueDay)).toBe(1);

  await advanceStripeAWeek(stack);

  const invoices = await invoicesOf(stack, wendy.subscriptionId);
  expect(invoices.filter((invoice) => invoice.status === 'paid')).toHaveLength(paidBefore);
  expect(await ordersOf(stack, wendy.subscriptionId)).toHaveLength(ordersBefore);
});

/** How many emails told Wendy that the delivery of `day` is skipped (and, when paid, what was refunded). */
async function skipEmails(stack: OwnStack, day: string, refunded = ''): Promise<number> {
  const emails = await stack.emailsTo(wendy.email);
  return emails.filter((email) => email.subject.endsWith(`the delivery of ${day} is skipped${refunded}`))
    .length;
}

/** "Monday 14 December" of an order's dispatch day, as the page and the emails write it. */
function dayTextOf(order: Record<string, unknown>): string {
  return formatDispatchDate(String(order.dispatchDate) as IsoDate);
}

test("cancel from the page, after its confirmation: no more orders, even a week on Stripe's clock; one email", async ({
  page,
  stack,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  await openStandingOrderPage(page, stack, wendy.email);
  const emailsBefore = (await stack.emailsTo(wendy.email)).length;
  const invoicesBefore = (await invoicesOf(stack, wendy.subscriptionId)).length;
  const ordersBefore = (await ordersOf(stack, wendy.subscriptionId)).length;

  await page.getByRole('button', { name: 'Cancel standing order' }).click();
  await expect(
    page.getByText(
      'Cancel your standing order? We will take no more payments for it, and this cannot be undone here.',
    ),
  ).toBeFocused();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Yes, cancel it' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your standing order is cancelled');
  await expect(
    page.getByText(
      'Your standing order is cancelled: we will take no more payments for it. We have emailed you a confirmation.',
    ),
  ).toBeFocused();
  await noSidewaysScroll(page);
  const subscription = await stripeGet<{ status: string }>(
    stack,
    `/v1/subscriptions/${wendy.subscriptionId}`,
  );
  expect(subscription.status).toBe('canceled');
  await expect.poll(async () => (await stack.emailsTo(wendy.email)).length).toBe(emailsBefore + 1);

  await advanceStripeAWeek(stack);

  expect(await invoicesOf(stack, wendy.subscriptionId)).toHaveLength(invoicesBefore);
  expect(await ordersOf(stack, wendy.subscriptionId)).toHaveLength(ordersBefore);
  // The page's link still opens it, cancelled, with nothing to change.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your standing order is cancelled');
  await expect(
    page.getByRole('region', { name: 'Change your standing order' }).getByRole('button'),
  ).toHaveCount(0);
  expect((await stack.emailsTo(wendy.email)).length).toBe(emailsBefore + 1);
});
