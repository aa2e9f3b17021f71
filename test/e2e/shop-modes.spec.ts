import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { writeShopSettings } from '../../lambdas/domain/storage/settings-store';
import { expectAccessible, fillDeliveryDetails } from './support/customer';
import { expect, type Stack, test } from './support/fixtures';
import { waitOutSettingsCache } from './support/stack';

/** The local stack's orders table, as `npm start` names it. */
const MERCHANT = 'merchant@live-aquatics.test';

/**
 * Sets the shop's mode as `npm run orders -- pause|resume` does, then waits out the Lambdas'
 * settings cache (the stack's short one), so the page and the checkout both see the new mode.
 */
async function setShopMode(stack: Stack, mode: 'open' | 'paused' | 'requests', message?: string) {
  const client = DynamoDBDocumentClient.from(stack.dynamo);
  await writeShopSettings({ client, tableName: stack.tableName }, { mode, message }, new Date());
  await waitOutSettingsCache();
}

test.describe.configure({ mode: 'serial' });

test.afterEach(async ({ stack }) => {
  // The other specs share this stack: leave the shop open.
  await setShopMode(stack, 'open');
});

test('a paused shop offers no form and no dispatch promise, says why, and a resume is picked up when the tab is back in front', async ({
  page,
  stack,
}) => {
  await setShopMode(stack, 'paused', 'Frozen ponds: orders reopen on Monday 4 January.');

  await page.goto('/');

  const banner = page.getByRole('status').filter({ hasText: 'Frozen ponds' });
  await expect(banner).toContainText('We are not taking orders at the moment');
  await expect(banner).toContainText('Frozen ponds: orders reopen on Monday 4 January.');
  const card = page.getByRole('button', { name: 'Daphnia Magna' });
  await expect(card).toBeDisabled();
  await expect(card).toContainText('Unavailable');
  await expect(page.getByRole('region', { name: 'Checkout' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Checkout|order request/ })).toHaveCount(0);
  await expect(page.getByText(/Order by|for dispatch on|We dispatch on Mondays/)).toHaveCount(0);
  await expectAccessible(page);

  // The merchant reopens the shop while the customer is in another tab; then they come back.
  // Headless Chromium keeps every tab visible and focused, so the return is played by the events
  // a browser sends then.
  await setShopMode(stack, 'open');
  await page.evaluate(() => {
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
  });

  await expect(card).toBeEnabled();
  await expect(banner).toHaveCount(0);
  await card.click();
  await expect(page.getByLabel('Full Name *')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Secure Checkout with Stripe' })).toBeEnabled();
  await expect(
    page.getByText(/^Order by \d\d:\d\d on [A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ for dispatch on /),
  ).toBeVisible();
});

test('requests mode: its own button and words, no tab opened, the Order-received view with the request reference, "Submit Another Order" resets', async ({
  page,
  context,
  stack,
}) => {
  await setShopMode(stack, 'requests', 'This week we take order requests and confirm each by email.');
  const email = 'rita.request@example.com';

  await page.goto('/');
  await expect(page.getByText('This week we take order requests and confirm each by email.')).toBeVisible();
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await fillDeliveryDetails(page, {
    name: 'Rita Request',
    email,
    address: '2 Pond Lane, Leeds',
    postcode: 'LS1 4AP',
  });
  const checkout = page.getByRole('region', { name: 'Checkout' });
  await expect(checkout).toContainText(
    'Nothing is charged now: we will email you to confirm your order and send a secure payment link.',
  );
  await expect(checkout).not.toContainText('Stripe');
  await expect(page.getByRole('button', { name: 'Secure Checkout with Stripe' })).toHaveCount(0);
  const tabs: unknown[] = [];
  const countTabs = (opened: unknown) => tabs.push(opened);
  context.on('page', countTabs);
  await page.getByRole('button', { name: 'Send order request' }).click();

  const heading = page.getByRole('heading', { name: 'Thank You! Your order request has been received' });
  await expect(heading).toBeVisible();
  // No tab was opened, not even one closed again at once. (axe, below, opens one of its own.)
  expect(tabs).toHaveLength(0);
  context.off('page', countTabs);
  await expect(page.getByText('6 × 250ml')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  const reference = page.getByText('Request Reference').locator('xpath=following-sibling::p');
  await expect(reference).toHaveText(/^R[0-9A-F]{11}$/);
  await expectAccessible(page);
  // One notice to the merchant, nothing to the customer until the merchant answers, and no order paid for.
  await expect
    .poll(
      async () =>
        (await stack.emailsTo(MERCHANT)).filter((mail) => mail.body.text?.includes('Rita Request')).length,
    )
    .toBe(1);
  expect(await stack.emailsTo(email)).toHaveLength(0);
  // The reference on the page is the request the merchant was told about.
  const notice = (await stack.emailsTo(MERCHANT)).find((mail) => mail.body.text?.includes('Rita Request'));
  expect(notice?.subject).toContain((await reference.textContent()) ?? 'a reference');

  await page.getByRole('button', { name: 'Submit Another Order' }).click();
  const card = page.getByRole('button', { name: 'Daphnia Magna' });
  await expect(card).toHaveAttribute('aria-pressed', 'false');
  await card.click();
  await expect(page.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
  await expect(page.getByText('3 bottles', { exact: false }).first()).toBeVisible();
});
