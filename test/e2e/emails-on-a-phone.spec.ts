import { renderPaymentInvitation } from '../../lambdas/domain/emails/request-emails';
import type { OrderRequest } from '../../lambdas/domain/storage/order-request';
import { LOCAL_STAGE_SETTINGS } from '../../shared/stage-config';
import { expect, test } from './support/fixtures';

// An email as a 360 px phone shows it, in the browser: what the HTML part does with a real
// Stripe payment link, which is several hundred characters with no break in it.

/** A Checkout Session URL as long as Stripe's (its fragment included). */
const PAY_URL = `https://checkout.stripe.com/c/pay/cs_live_a1${'B2c3D4e5F6'.repeat(6)}#${'fidkdWxOYHwnPyd1blpxYHZxWjA0'.repeat(22)}`;

const REQUEST: OrderRequest = {
  pk: 'REQUEST#req_Ab3dE6gH9jK2',
  reference: 'req_Ab3dE6gH9jK2',
  referenceKey: 'req_ab3de6gh9jk2',
  status: 'invited',
  bottles: 3,
  unitPricePence: 325,
  subtotalPence: 975,
  shippingPence: 495,
  totalPence: 1470,
  customerName: 'Zoë Brontë',
  customerEmail: 'zoe.bronte.with.a.long.address@example.com',
  customerPhone: '',
  deliveryAddress: 'Flat 2, 10 Downing Street\nLondon',
  postcode: 'SW1A 2AA',
  dispatchDate: '2026-11-30',
  createdAt: '2026-11-25T13:15:24.760Z',
  gsi1pk: 'DISPATCH#2026-11-30',
  gsi1sk: 'invited#2026-11-25T13:15:24.760Z#req_Ab3dE6gH9jK2',
};

test('the payment-link email fits a 360 px phone: the link is a button, nothing scrolls sideways', async ({
  page,
}) => {
  const email = renderPaymentInvitation(
    REQUEST,
    { url: PAY_URL, expiresAt: '2026-11-26T12:15:00.000Z', dispatchDate: '2026-11-30' },
    {
      shopName: LOCAL_STAGE_SETTINGS.shopName,
      name: LOCAL_STAGE_SETTINGS.sellerName,
      address: LOCAL_STAGE_SETTINGS.sellerAddress,
      email: LOCAL_STAGE_SETTINGS.sellerEmail,
    },
  );
  await page.setViewportSize({ width: 360, height: 740 });

  await page.setContent(email.html);

  const button = page.getByRole('link', { name: 'Pay £14.70 with Stripe' });
  await expect(button).toHaveAttribute('href', PAY_URL);
  await expect(page.getByText(PAY_URL)).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const box = await button.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(360);
  // The shop's name heads it, as every email.
  await expect(page.getByText(LOCAL_STAGE_SETTINGS.shopName, { exact: true })).toBeVisible();
});
