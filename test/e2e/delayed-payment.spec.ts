import { ScanCommand } from '@aws-sdk/client-dynamodb';
import type { BrowserContext, Page } from '@playwright/test';
import { expectAccessible, fillDeliveryDetails, openPaymentTab } from './support/customer';
import { expect, type Stack, test } from './support/fixtures';
import { stackUrls } from './support/stack';

const MERCHANT = 'merchant@live-aquatics.test';

/**
 * Orders a bottle and pays by the simulator's Bacs Direct Debit with the chosen settlement. The
 * simulator settles such a debit on its own only after three minutes, so within a test it stays
 * processing until the test presses a "Settle now" button. Returns the payment tab, on the shop's
 * success page, and the session id.
 */
async function payByDirectDebit(
  page: Page,
  context: BrowserContext,
  email: string,
  settlement: 'Settles later: succeeds' | 'Settles later: fails',
): Promise<{ payment: Page; sessionId: string }> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await fillDeliveryDetails(page, {
    name: 'Dee Debit',
    email,
    address: '11 Bank Street, Norwich',
    postcode: 'NR1 3AA',
  });
  const payment = await openPaymentTab(page, context);
  await payment.waitForURL(/\/c\/pay\/cs_test_/);
  const debit = payment.getByRole('region', { name: 'Bacs Direct Debit (test)' });
  await debit.getByRole('radio', { name: settlement }).check();
  await debit.getByRole('button', { name: 'Confirm Direct Debit of £14.70' }).click();
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  return { payment, sessionId: new URL(payment.url()).searchParams.get('session_id') ?? '' };
}

/** Presses one of the processing page's buttons, as the bank answering days later. */
async function settle(
  context: BrowserContext,
  sessionId: string,
  button: 'Settle now: collected' | 'Settle now: failed',
  page: Page,
): Promise<void> {
  const bank = await context.newPage();
  await bank.goto(`${stackUrls().simulator}/c/pay/${sessionId}`);
  await expect(bank.getByRole('heading', { name: 'Direct Debit processing' })).toBeVisible();
  await expect(bank.getByText('The payment of £14.70 is waiting for the bank.')).toBeVisible();
  await expectAccessible(bank);
  await bank.getByRole('button', { name: button }).click();
  await expect(
    bank.getByRole('heading', {
      name: button === 'Settle now: collected' ? 'Direct Debit collected' : 'Direct Debit failed',
    }),
  ).toBeVisible();
  await bank.close();
  await page.bringToFront();
}

async function ordersFor(stack: Stack, sessionId: string): Promise<number> {
  const orders = await stack.dynamo.send(new ScanCommand({ TableName: stack.tableName }));
  return (orders.Items ?? []).filter(
    (item) => item.sessionId?.S === sessionId && item.pk?.S?.startsWith('ORDER#'),
  ).length;
}

async function noticesFor(stack: Stack, sessionId: string): Promise<number> {
  const notices = await stack.emailsTo(MERCHANT);
  return notices.filter((email) => email.subject.includes(sessionId.slice(-12))).length;
}

/** Words that would say the money arrived or the order is confirmed: never in the waiting email. */
const MONEY_ARRIVED =
  /received your payment|payment (is|was) (received|successful)|order is confirmed|Total paid/i;

/**
 * The "waiting for your bank" email, within 20 s of the payment (issue 48): received, the reference,
 * the day, the order page's link, and no claim that the money arrived. Returns the link's path.
 */
async function expectWaitingEmail(stack: Stack, email: string, sessionId: string, paidAt: number) {
  await expect
    .poll(async () => (await stack.emailsTo(email)).length, {
      timeout: Math.max(1, paidAt + 20_000 - Date.now()),
    })
    .toBe(1);
  const [waiting] = await stack.emailsTo(email);
  const reference = sessionId.slice(-12);
  expect(waiting?.subject).toBe(
    `Live Aquatics (local test shop): order ${reference} received, waiting for your bank`,
  );
  const text = waiting?.body.text ?? '';
  expect(text).toContain(`Order reference: ${reference}`);
  expect(text).toContain('we are now waiting for your bank');
  expect(text).not.toMatch(MONEY_ARRIVED);
  expect(waiting?.body.html ?? '').not.toMatch(MONEY_ARRIVED);
  const shop = stackUrls().shop.replace(/\/$/, '');
  const link = new RegExp(
    `View your order: ${shop.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/order/[A-Za-z0-9_-]+)`,
  ).exec(text)?.[1];
  expect(link).toBeDefined();
  const day = /Dispatch if your bank pays: (.+)/.exec(text)?.[1];
  return { path: link ?? '', day: day ?? '' };
}

const WITH_THE_BANK =
  'Your bank is processing your payment, which can take a few working days. You do not need to do anything or order again: we will email you as soon as the payment clears, or if your bank turns it down.';

/** The success page while the debit is with the bank: placed, waiting, never paid and never "order again". */
async function expectWaitingForTheBank(payment: Page, sessionId: string): Promise<void> {
  await expect(
    payment.getByRole('heading', {
      level: 1,
      name: 'Your order is placed We are waiting for your bank to confirm the payment',
    }),
  ).toBeVisible();
  await expect(payment.getByText(WITH_THE_BANK)).toBeVisible();
  await expect(payment.getByText(sessionId.slice(-12), { exact: true })).toBeVisible();
  await expect(payment.getByText('Expected dispatch')).toBeVisible();
  await expect(payment.getByText('Expected dispatch').locator('xpath=following-sibling::dd')).toHaveText(
    /^[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+$/,
  );
  await expect(payment.getByText('Payment Successful!')).toHaveCount(0);
  await expect(payment.getByText(/order again from the shop|place your order again/)).toHaveCount(0);
}

test('a Direct Debit that settles later and succeeds: placed and waiting for the bank, then one order, both emails, "Payment Successful!"', async ({
  page,
  context,
  stack,
}) => {
  const email = 'debit.later@example.com';
  const paidAt = Date.now();
  const { payment, sessionId } = await payByDirectDebit(page, context, email, 'Settles later: succeeds');

  // Completed but not collected: the order is placed, but the page must not confirm a payment the
  // bank may refuse, nor invite a second order while the first waits.
  await expectWaitingForTheBank(payment, sessionId);
  // Told at once by email, with the order's link, and the success page links to the same page.
  const waiting = await expectWaitingEmail(stack, email, sessionId, paidAt);
  await expect(payment.getByRole('link', { name: 'View your order' })).toHaveAttribute('href', waiting.path);
  // One day everywhere: the success page's, the email's (and, below, the confirmation's).
  await expect(payment.getByText('Expected dispatch').locator('xpath=following-sibling::dd')).toHaveText(
    waiting.day,
  );
  const orderPage = await context.newPage();
  await orderPage.goto(waiting.path);
  await expect(orderPage.getByRole('heading', { level: 1, name: 'Waiting for your bank' })).toBeVisible();
  await expect(orderPage.getByText(`we dispatch on ${waiting.day}`)).toBeVisible();
  await expectAccessible(orderPage);
  await payment.bringToFront();
  await expectAccessible(payment);
  // The shop tab that opened the payment says the same, instead of a form that could order again.
  await expect(
    page.getByRole('heading', { name: 'Your order is placed, waiting for your bank' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Secure Checkout with Stripe' })).toHaveCount(0);
  expect(await ordersFor(stack, sessionId)).toBe(0);
  expect(await stack.emailsTo(email)).toHaveLength(1);
  expect(await noticesFor(stack, sessionId)).toBe(0);

  await settle(context, sessionId, 'Settle now: collected', payment);

  await expect.poll(() => ordersFor(stack, sessionId)).toBe(1);
  await expect.poll(async () => (await stack.emailsTo(email)).length).toBe(2);
  await expect.poll(() => noticesFor(stack, sessionId)).toBe(1);
  // The confirmation carries the same link and the same day; the link now opens the order.
  const confirmation = (await stack.emailsTo(email))[1]?.body.text ?? '';
  expect(confirmation).toContain(`${waiting.path}\n`);
  expect(confirmation).toContain(`Planned dispatch: ${waiting.day}\n`);
  await orderPage.reload();
  await expect(
    orderPage.getByRole('heading', { level: 1, name: 'Paid, waiting for dispatch' }),
  ).toBeVisible();
  await orderPage.close();

  await payment.reload();
  await expect(
    payment.getByRole('heading', { name: 'Payment Successful! Your order has been confirmed' }),
  ).toBeVisible();
  await expect(payment.getByText('£14.70', { exact: true })).toBeVisible();
  await expectAccessible(payment);

  // Settled once, recorded once: a second look changes nothing.
  expect(await ordersFor(stack, sessionId)).toBe(1);
  expect(await stack.emailsTo(email)).toHaveLength(2);
  expect(await noticesFor(stack, sessionId)).toBe(1);
});

test('a Direct Debit that settles later and fails: no order, never "Payment Successful!", one email to the customer and one to the merchant', async ({
  page,
  context,
  stack,
}) => {
  const email = 'debit.fails@example.com';
  const paidAt = Date.now();
  const { payment, sessionId } = await payByDirectDebit(page, context, email, 'Settles later: fails');

  await expectWaitingForTheBank(payment, sessionId);
  const waiting = await expectWaitingEmail(stack, email, sessionId, paidAt);

  await settle(context, sessionId, 'Settle now: failed', payment);

  await payment.reload();
  // The page now says what the email says: cancelled, nothing taken, and ordering again is welcome.
  await expect(
    payment.getByRole('heading', {
      level: 1,
      name: 'Payment not completed Your bank did not pay the Direct Debit',
    }),
  ).toBeVisible();
  await expect(
    payment.getByText(
      'Your bank did not pay the Bacs Direct Debit for this order, so the order is cancelled and will not be dispatched. Nothing was taken from your account and you owe us nothing. We have also sent you an email about it.',
    ),
  ).toBeVisible();
  await expect(payment.getByText(sessionId.slice(-12), { exact: true })).toBeVisible();
  await expect(payment.getByText('£14.70 (not taken)')).toBeVisible();
  await expect(payment.getByRole('link', { name: 'Order again' })).toHaveAttribute('href', '/');
  await expect(payment.getByRole('heading', { level: 1, name: /Payment Successful!/ })).toHaveCount(0);
  await expect(payment.getByText(WITH_THE_BANK)).toHaveCount(0);
  await expect(payment.getByText('Expected dispatch')).toHaveCount(0);
  await expectAccessible(payment);

  // The failure webhook has been delivered by the time the settle page answers (the simulator
  // awaits delivery), so nothing can still be on its way.
  expect(await ordersFor(stack, sessionId)).toBe(0);
  const told = (await stack.emailsTo(email)).slice(1);
  expect(told.map((message) => message.subject)).toEqual([
    `Live Aquatics (local test shop): your Direct Debit for order ${sessionId.slice(-12)} did not go through`,
  ]);
  // The waiting email's link now says the same.
  const orderPage = await context.newPage();
  await orderPage.goto(waiting.path);
  await expect(
    orderPage.getByRole('heading', { level: 1, name: 'Your bank did not pay the Direct Debit' }),
  ).toBeVisible();
  await expect(
    orderPage.getByText('Nothing was taken from your account and you owe us nothing.', { exact: false }),
  ).toBeVisible();
  await orderPage.close();
  expect(told[0]?.body.text).toContain('Nothing was taken from your account and you owe us nothing.');
  expect(await noticesFor(stack, sessionId)).toBe(1);

  // The customer's email, as a phone shows it: the way back to the shop is a button.
  await payment.setViewportSize({ width: 360, height: 740 });
  await payment.setContent(told[0]?.body.html ?? '');
  await expect(payment.getByRole('link', { name: 'Order again' })).toHaveAttribute(
    'href',
    `${stackUrls().shop.replace(/\/$/, '')}/`,
  );
  expect(await payment.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
