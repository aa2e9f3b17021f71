import { ScanCommand } from '@aws-sdk/client-dynamodb';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import {
  contentSecurityPolicy,
  inlineScriptHashes,
  inlineStyleHashes,
} from '../../infra/lib/constructs/website';
import { expect, test } from './support/fixtures';

interface Customer {
  name: string;
  email: string;
  address: string;
  postcode: string;
}

async function fillDeliveryDetails(page: Page, customer: Customer): Promise<void> {
  await page.getByLabel('Full Name *').fill(customer.name);
  await page.getByLabel('Email *').fill(customer.email);
  await page.getByLabel('Delivery Address *').fill(customer.address);
  await page.getByLabel('Postcode *').fill(customer.postcode);
}

/** Submits the order and returns the tab the payment page opens in. */
async function openPaymentTab(page: Page, context: BrowserContext): Promise<Page> {
  const [payment] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Secure Checkout with Stripe' }).click(),
  ]);
  return payment;
}

test('a customer buys 6 bottles: new tab, card 4242, success page, one order and both emails', async ({
  page,
  context,
  stack,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: /Daphnia Magna/ }).click();
  await page.getByRole('button', { name: /increase/i }).click();
  await fillDeliveryDetails(page, {
    name: 'Zoë Browser',
    email: 'zoe.e2e@example.com',
    address: '1 High Street\nLondon',
    postcode: 'sw1a1aa',
  });
  await expect(page.getByLabel('Postcode *')).toHaveValue('SW1A1AA');

  const payment = await openPaymentTab(page, context);
  await payment.waitForURL(/\/c\/pay\/cs_test_/);
  await expect(payment.getByText('TEST MODE', { exact: false })).toBeVisible();
  await payment.getByLabel(/Card number/).fill('4242 4242 4242 4242');
  await payment.getByRole('button', { name: 'Pay £24.45' }).click();

  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  await expect(payment.getByRole('heading', { name: /Payment Successful!/ })).toBeVisible();
  const sessionId = new URL(payment.url()).searchParams.get('session_id') ?? '';
  await expect(payment.getByText(sessionId.slice(-12), { exact: true })).toBeVisible();
  // The order page learned of the payment: the order is placed, not a form left to pay again.
  await expect(page.getByRole('heading', { name: 'Your order is placed' })).toBeVisible();

  await expect.poll(async () => (await stack.emailsTo('zoe.e2e@example.com')).length).toBe(1);
  const orders = await stack.dynamo.send(new ScanCommand({ TableName: stack.tableName }));
  const mine = (orders.Items ?? []).filter((item) => item.sessionId?.S === sessionId);
  expect(mine).toHaveLength(1);
  expect(mine[0]?.totalPence?.N).toBe('2445');
  const notices = (await stack.emailsTo(stack.merchantEmail)).filter((email) =>
    email.subject.includes(sessionId.slice(-12)),
  );
  expect(notices).toHaveLength(1);
});

test('a declined card leaves the session open and shows the decline', async ({ page, context, stack }) => {
  await page.goto('/');
  await page.getByRole('button', { name: /Daphnia Magna/ }).click();
  await fillDeliveryDetails(page, {
    name: 'Declined Customer',
    email: 'declined@example.com',
    address: '2 Low Road, Leeds',
    postcode: 'LS1 1AA',
  });
  const payment = await openPaymentTab(page, context);
  await payment.getByLabel(/Card number/).fill('4000 0000 0000 0002');
  await payment.getByRole('button', { name: 'Pay £14.70' }).click();
  await expect(payment.getByText('Your card was declined.')).toBeVisible();
  expect(await stack.emailsTo('declined@example.com')).toHaveLength(0);
});

test('the order page and the 404 page pass axe WCAG 2.2 AA checks', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: /Daphnia Magna/ }).click();
  const home = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(home.violations).toEqual([]);

  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  const notFound = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag22aa']).analyze();
  expect(notFound.violations).toEqual([]);
});

test('the production build runs under the deployed CSP and fits a 360px screen', async ({
  page,
  context,
  baseURL,
}) => {
  // The rehearsal sends the template's policy as CloudFront will; `npm start` sends none, so there
  // the deployed policy is added to every document, less upgrade-insecure-requests, which would
  // send this plain-http test server's files to https.
  const served = (await fetch(`${baseURL}/`)).headers.get('content-security-policy');
  if (served === null) {
    const policy = contentSecurityPolicy(inlineStyleHashes('dist/web'), [], inlineScriptHashes('dist/web'))
      .split('; ')
      .filter((directive) => directive !== 'upgrade-insecure-requests')
      .join('; ');
    // Only documents carry the policy; leaving the rest alone also avoids fulfilling a sub-request
    // whose page has already navigated away.
    await page.route('**/*', async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: { ...response.headers(), 'content-security-policy': policy },
      });
    });
  }
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.setViewportSize({ width: 360, height: 740 });

  await page.goto('/');
  await page.getByRole('button', { name: /Daphnia Magna/ }).click();
  await fillDeliveryDetails(page, {
    name: 'Narrow Screen',
    email: 'narrow@example.com',
    address: '3 Slim Lane, York',
    postcode: 'YO1 7HH',
  });
  // Nothing wider than the screen: no sideways scrolling at 360px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  const payment = await openPaymentTab(page, context);
  // The checkout call (connect-src) went through and the payment tab opened.
  await payment.waitForURL(/\/c\/pay\/cs_test_/);
  await page.goto('/no-such-page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  expect(violations).toEqual([]);
});
