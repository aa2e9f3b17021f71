import { ScanCommand } from '@aws-sdk/client-dynamodb';
import {
  contentSecurityPolicy,
  inlineScriptHashes,
  inlineStyleHashes,
} from '../../infra/lib/constructs/website';
import {
  expectAccessible,
  fillDeliveryDetails,
  openPaymentTab,
  payWithCard,
  tabTo,
} from './support/customer';
import { expect, test } from './support/fixtures';

const CHECKOUT_API = '**/functions/v1/create-checkout';

test('full purchase: the payment tab names the shop, the success page confirms, the first tab shows the order placed', async ({
  page,
  context,
  stack,
}) => {
  await page.goto('/');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await fillDeliveryDetails(page, {
    name: 'Full Path',
    email: 'full.path@example.com',
    address: '4 Market Street, Leeds',
    postcode: 'LS1 6DT',
  });
  await expect(page.getByRole('region', { name: 'Checkout' })).toContainText(/Order by .* for dispatch on /);
  await expectAccessible(page);

  const payment = await openPaymentTab(page, context);
  await payWithCard(payment, '4242 4242 4242 4242', '£14.70');
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  await expect(payment.getByRole('heading', { name: /Payment Successful!/ })).toBeVisible();
  await expect(payment.getByRole('contentinfo')).toContainText('Live Aquatics is sold by');
  await expectAccessible(payment);
  const sessionId = new URL(payment.url()).searchParams.get('session_id') ?? '';

  // The first tab learned it: the order is placed, no live form left to pay twice.
  await expect(page.getByRole('heading', { name: 'Your order is placed' })).toBeVisible();
  await expect(page.getByText(sessionId.slice(-12), { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Secure Checkout with Stripe' })).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Place another order' }).click();
  await expect(page.getByRole('button', { name: 'Daphnia Magna' })).toHaveAttribute('aria-pressed', 'false');

  await expect.poll(async () => (await stack.emailsTo('full.path@example.com')).length).toBe(1);
  const orders = await stack.dynamo.send(new ScanCommand({ TableName: stack.tableName }));
  expect((orders.Items ?? []).filter((item) => item.sessionId?.S === sessionId)).toHaveLength(1);
});

test('keyboard-only purchase', async ({ page, context }) => {
  await page.goto('/');
  const card = page.getByRole('button', { name: 'Daphnia Magna' });
  await tabTo(page, card);
  await page.keyboard.press('Space');
  await expect(card).toHaveAttribute('aria-pressed', 'true');
  await tabTo(page, page.getByRole('button', { name: 'Increase quantity' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('6 bottles (250ml each)', { exact: true })).toBeVisible();

  for (const [label, value] of [
    ['Full Name *', 'Key Board'],
    ['Email *', 'keyboard@example.com'],
    ['Delivery Address *', '5 Tab Lane, Bristol'],
    ['Postcode *', 'BS1 4DJ'],
  ] as const) {
    await tabTo(page, page.getByLabel(label));
    await page.keyboard.type(value);
  }
  await tabTo(page, page.getByRole('button', { name: 'Secure Checkout with Stripe' }));
  const [payment] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
  await payWithCard(payment, '4242 4242 4242 4242', '£24.45');
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  await expect(payment.getByRole('heading', { name: /Payment Successful!/ })).toBeFocused();
});

test('cancel on the payment page returns to the shop with the details restored', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await fillDeliveryDetails(page, {
    name: 'Can Cel',
    email: 'cancel@example.com',
    address: '6 Undo Road, York',
    postcode: 'YO1 7HH',
  });
  const payment = await openPaymentTab(page, context);
  await payment.waitForURL(/\/c\/pay\/cs_test_/);

  await payment.getByRole('link', { name: 'Cancel and return to the shop' }).click();

  await payment.waitForURL((url) => url.pathname === '/');
  await expect(payment.getByRole('button', { name: 'Daphnia Magna' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(payment.getByText('6 bottles (250ml each)', { exact: true })).toBeVisible();
  await expect(payment.getByLabel('Full Name *')).toHaveValue('Can Cel');
  await expect(payment.getByLabel('Postcode *')).toHaveValue('YO1 7HH');
  await expectAccessible(payment);
});

test('a declined card: "Payment not completed" links back to the still-open payment', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await fillDeliveryDetails(page, {
    name: 'Dee Clined',
    email: 'dee.clined@example.com',
    address: '7 Refusal Row, Hull',
    postcode: 'HU1 1AA',
  });
  const payment = await openPaymentTab(page, context);
  await payWithCard(payment, '4000 0000 0000 0002', '£14.70');
  await expect(payment.getByText('Your card was declined.')).toBeVisible();
  const payUrl = payment.url();
  const sessionId = new URL(payUrl).pathname.split('/').at(-1) ?? '';

  // The customer goes to the confirmation address without paying: the session is still open.
  await payment.goto(`/success?session_id=${sessionId}`.replace(/^/, new URL(page.url()).origin));
  await expect(payment.getByRole('heading', { name: 'Payment not completed' })).toBeVisible();
  await expect(payment.getByRole('link', { name: 'Return to the payment page' })).toHaveAttribute(
    'href',
    payUrl,
  );
  await expectAccessible(payment);
});

test('a slow API: the payment tab says secure checkout is opening, titled with the shop name', async ({
  page,
  context,
}) => {
  // The deployed CSP on the shop's documents: the payment tab inherits it, so what it shows must
  // pass it (less upgrade-insecure-requests, which would send this http test server to https).
  const policy = contentSecurityPolicy(inlineStyleHashes('dist/web'), [], inlineScriptHashes('dist/web'))
    .split('; ')
    .filter((directive) => directive !== 'upgrade-insecure-requests')
    .join('; ');
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': policy } });
  });
  await page.route(CHECKOUT_API, async (route) => {
    await new Promise((done) => setTimeout(done, 3000));
    await route.continue();
  });
  await page.goto('/');
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await fillDeliveryDetails(page, {
    name: 'Slow Lane',
    email: 'slow@example.com',
    address: '8 Wait Street, Bath',
    postcode: 'BA1 1AA',
  });
  const payment = await openPaymentTab(page, context);

  await expect(payment.getByRole('heading', { name: 'Opening secure checkout…' })).toBeVisible();
  expect(await payment.title()).toBe('Opening secure checkout… · Live Aquatics');
  await expect(payment.getByText('Live Aquatics', { exact: true })).toBeVisible();
  // Styled through the CSSOM, which the CSP allows: an inline style it refuses would leave no width.
  expect(await payment.locator('main').evaluate((main) => getComputedStyle(main).maxWidth)).toBe('544px');
  expect(await payment.locator('script, style').count()).toBe(0);
  await expect(page.getByRole('button', { name: 'Processing...' })).toBeDisabled();

  await payment.waitForURL(/\/c\/pay\/cs_test_/);
});

test('the API down: "Checkout Failed" in the shop, and the payment tab says so with a way back', async ({
  page,
  context,
}) => {
  await page.route(CHECKOUT_API, (route) => route.abort('connectionrefused'));
  await page.goto('/');
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await fillDeliveryDetails(page, {
    name: 'Off Line',
    email: 'offline@example.com',
    address: '9 Down Street, Derby',
    postcode: 'DE1 1AA',
  });
  const payment = await openPaymentTab(page, context);

  await expect(payment.getByRole('heading', { name: 'Secure checkout could not open' })).toBeVisible();
  await expect(payment.getByText(/no order has been placed and no money has been taken/)).toBeVisible();
  const errors = page.getByRole('alert', { name: 'Errors' });
  await expect(errors.getByText('Checkout Failed')).toBeVisible();
  await expect(errors.getByText('Unable to process your order. Please try again.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Secure Checkout with Stripe' })).toBeEnabled();

  // The button closes its own tab: the click may still be finishing when the tab is gone, which
  // Playwright reports as an error of the click. The close itself is what is asserted.
  await Promise.all([
    payment.waitForEvent('close'),
    payment
      .getByRole('button', { name: 'Return to the shop' })
      .click()
      .catch((error: unknown) => {
        if (!payment.isClosed()) throw error;
      }),
  ]);
  await expectAccessible(page);
});

test('the validation order: Select a Product, then Missing Information, then each field beside it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  const submit = page.getByRole('button', { name: 'Secure Checkout with Stripe' });
  const card = page.getByRole('button', { name: 'Daphnia Magna' });

  await submit.click();
  await expect(page.getByRole('alert', { name: 'Errors' }).getByText('Select a Product')).toBeVisible();
  await expect(card).toBeFocused();
  await expectAccessible(page);

  await card.click();
  await expect(page.getByText('Select a Product')).toHaveCount(0);
  await submit.click();
  const notices = page.getByRole('status', { name: 'Notifications' });
  await expect(notices.getByText('Missing Information')).toBeVisible();
  await expect(page.getByLabel('Full Name *')).toBeFocused();
  await expect(page.getByText('Please enter your full name (up to 100 characters).')).toBeVisible();

  // The toast sits in the page's flow: it covers neither the focused field nor the total. Measured
  // before the accessibility scan, which on a loaded machine can outlast the toast.
  const toast = notices.locator('.toast');
  for (const other of [page.getByLabel('Full Name *'), page.getByText('Order Total')]) {
    const a = await toast.boundingBox();
    const b = await other.boundingBox();
    if (!a || !b) throw new Error('not laid out');
    const overlap =
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap).toBe(false);
  }
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(notices.getByText('Missing Information')).toHaveCount(0);

  await fillDeliveryDetails(page, {
    name: 'Val Idate',
    email: 'val@example',
    address: '10 Check Street, St Helier',
    postcode: 'JE2 3AB',
  });
  await page.getByLabel('Phone Number (Optional)').fill('(0161) 496 0000');
  await submit.click();
  await expect(page.getByLabel('Email *')).toBeFocused();
  await expect(page.getByLabel('Email *')).toHaveAccessibleDescription(
    'Error: Please enter a valid email address.',
  );
  await expect(page.getByLabel('Postcode *')).toHaveAccessibleDescription(
    /^Error: We can only deliver to Great Britain/,
  );
  await expect(page.getByLabel('Phone Number (Optional)')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Invalid Postcode')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
});

test('the 404 page names the shop and answers 404', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Live Aquatics is sold by');
  await expectAccessible(page);
});

test('/success without a session id goes home; with an unknown one says the order was not found', async ({
  page,
}) => {
  await page.goto('/success');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { name: 'Live Aquatics Order' })).toBeVisible();

  await page.goto('/success?session_id=cs_test_unknownSession0000000000');
  await expect(page.getByRole('heading', { name: 'We could not find this order' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Live Aquatics is sold by');
  await expectAccessible(page);
});

for (const [path, heading] of [
  ['/privacy', 'Privacy notice'],
  ['/terms', 'Terms of sale'],
  ['/contact', 'Contact us'],
] as const) {
  test(`the policy page ${path} answers 200 and is reachable from the order page`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('1 Test Street, Testville, TE1 1ST');
    await expectAccessible(page);

    await page.goto('/');
    await page
      .getByRole('navigation', { name: 'Shop policies' })
      .getByRole('link', { name: heading })
      .click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  });
}
