import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { writeShopSettings } from '../../lambdas/domain/shop-settings/settings-store';
import { expectAccessible, fillDeliveryDetails } from './support/customer';
import { expect, type Stack, test } from './support/fixtures';

/** The local stack's orders table, as `npm start` names it. */
const TABLE_NAME = 'live-aquatics-orders';
const MERCHANT = 'merchant@live-aquatics.test';

/**
 * Sets the shop's mode as `npm run orders -- pause|resume` does, then waits out the Lambdas'
 * settings cache (5 s), so the page and the checkout both see the new mode.
 */
async function setShopMode(stack: Stack, mode: 'open' | 'paused' | 'requests', message?: string) {
  const client = DynamoDBDocumentClient.from(stack.dynamo);
  await writeShopSettings({ client, tableName: TABLE_NAME }, { mode, message }, new Date());
  await new Promise((wait) => setTimeout(wait, 5_500));
}

test.describe.configure({ mode: 'serial' });

test.afterEach(async ({ stack }) => {
  // The other specs share this stack: leave the shop open.
  await setShopMode(stack, 'open');
});

test('a paused shop shows the merchant message above the form and the checkout button is disabled', async ({
  page,
  stack,
}) => {
  await setShopMode(stack, 'paused', 'Frozen ponds: orders reopen on Monday 4 January.');

  await page.goto('/');

  const banner = page.getByRole('status').filter({ hasText: 'Frozen ponds' });
  await expect(banner).toContainText('We are not taking orders at the moment');
  await expect(banner).toContainText('Frozen ponds: orders reopen on Monday 4 January.');
  await expect(page.getByRole('button', { name: 'Secure Checkout with Stripe' })).toBeDisabled();
  await expectAccessible(page);
});

test('requests mode: the order becomes a request, the Order-received view shows, "Submit Another Order" resets', async ({
  page,
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
  await page.getByRole('button', { name: 'Secure Checkout with Stripe' }).click();

  await expect(
    page.getByRole('heading', { name: 'Thank You! Your order request has been received' }),
  ).toBeVisible();
  await expect(page.getByText('6 × 250ml')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectAccessible(page);
  // One notice to the merchant, nothing to the customer until the merchant answers, and no order paid for.
  await expect
    .poll(
      async () =>
        (await stack.emailsTo(MERCHANT)).filter((mail) => mail.body.text?.includes('Rita Request')).length,
    )
    .toBe(1);
  expect(await stack.emailsTo(email)).toHaveLength(0);

  await page.getByRole('button', { name: 'Submit Another Order' }).click();
  const card = page.getByRole('button', { name: 'Daphnia Magna' });
  await expect(card).toHaveAttribute('aria-pressed', 'false');
  await card.click();
  await expect(page.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
  await expect(page.getByText('3 bottles', { exact: false }).first()).toBeVisible();
});
