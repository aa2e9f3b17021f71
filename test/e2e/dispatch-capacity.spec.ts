import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { followingDispatchDay } from '../../lambdas/domain/capacity/holds';
import type { CapacitySettings } from '../../lambdas/domain/storage/capacity-settings';
import { writeCapacitySettings } from '../../lambdas/domain/storage/settings-store';
import { formatDispatchDate, nextDispatchDate } from '../../shared/dispatch';
import { fillDeliveryDetails, openPaymentTab } from './support/customer';
import { expect, type Stack, test } from './support/fixtures';
import { waitOutSettingsCache } from './support/stack';

/** The local stack's orders table, as `npm start` names it. */

/**
 * Sets the bottles per dispatch day as `npm run orders -- capacity --set` does, then waits out
 * the Lambdas' settings cache (the stack's short one), so the page and the checkout both see them.
 */
async function setCapacity(stack: Stack, capacity: CapacitySettings) {
  const client = DynamoDBDocumentClient.from(stack.dynamo);
  await writeCapacitySettings({ client, tableName: stack.tableName }, capacity, new Date());
  await waitOutSettingsCache();
}

test.describe.configure({ mode: 'serial' });

test.afterEach(async ({ stack }) => {
  // The other specs share this stack: no limits.
  await setCapacity(stack, {});
});

test('a sold-out Monday: the page and Stripe’s page both give the next dispatch day with room', async ({
  page,
  context,
  stack,
}) => {
  // The calendar's next dispatch day (the stack's 36-hour cut-off) takes no more bottles.
  const soldOut = nextDispatchDate(new Date(), { cutoffHours: 36 });
  const next = followingDispatchDay(soldOut);
  await setCapacity(stack, { days: { [soldOut]: 0 } });

  await page.goto('/');

  const checkout = page.getByRole('region', { name: 'Checkout' });
  await expect(checkout).toContainText(
    `${formatDispatchDate(soldOut)} is fully booked: orders placed now are dispatched on ${formatDispatchDate(next)}.`,
  );
  await expect(checkout).not.toContainText(`for dispatch on ${formatDispatchDate(soldOut)}`);

  await page.getByRole('button', { name: /Daphnia Magna/ }).click();
  await fillDeliveryDetails(page, {
    name: 'Sam Soldout',
    email: 'sam.soldout@example.com',
    address: '7 Lock Lane\nOxford',
    postcode: 'OX1 1AA',
  });
  const payment = await openPaymentTab(page, context);
  await payment.waitForURL(/\/c\/pay\/cs_test_/);

  // Stripe's page says the same day by the pay button, before the customer pays.
  await expect(payment.getByText(`Dispatch on ${formatDispatchDate(next)}`).first()).toBeVisible();
  await expect(payment.getByText(`Dispatch on ${formatDispatchDate(soldOut)}`)).toHaveCount(0);
});
