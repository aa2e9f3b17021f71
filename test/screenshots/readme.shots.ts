import type { Page } from '@playwright/test';
import { fillDeliveryDetails, openPaymentTab } from '../e2e/support/customer';
import { expect, test } from '../e2e/support/fixtures';
import { seedOrderWithPage } from '../e2e/support/seed-order';

/**
 * Takes the README's screenshots into docs/screenshots/: the order page (desktop and a 360px
 * phone), the payment page, the success page, both emails as the SES stand-in received them, and
 * a customer's own order page.
 * The clock is fixed, so the dispatch dates in the pictures do not change from run to run.
 */
const OUT = 'docs/screenshots';
// Wednesday 18 November 2026, 10:00 in London: dispatch Monday 23 November.
const NOW = new Date('2026-11-18T10:00:00Z');

async function orderReady(page: Page, customerEmail: string): Promise<void> {
  await page.clock.setFixedTime(NOW);
  await page.goto('/');
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await fillDeliveryDetails(page, {
    name: 'Ada Lovelace',
    email: customerEmail,
    address: '12 St James’s Square\nLondon',
    postcode: 'SW1Y 4JH',
  });
}

test('order page, payment page, success page and both emails', async ({ page, context, stack }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await orderReady(page, 'ada.screenshots@example.com');
  await page.screenshot({ path: `${OUT}/order-page-desktop.png`, fullPage: true });

  const payment = await openPaymentTab(page, context);
  await payment.setViewportSize({ width: 1280, height: 900 });
  await payment.waitForURL(/\/c\/pay\/cs_test_/);
  await payment.getByLabel(/Card number/).fill('4242 4242 4242 4242');
  await payment.screenshot({ path: `${OUT}/payment-page.png`, fullPage: true });
  await payment.getByRole('button', { name: 'Pay £24.45' }).click();
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  await expect(payment.getByRole('heading', { name: /Payment Successful!/ })).toBeVisible();
  await payment.screenshot({ path: `${OUT}/success-page.png`, fullPage: true });

  await expect.poll(async () => (await stack.emailsTo('ada.screenshots@example.com')).length).toBe(1);
  const [confirmation] = await stack.emailsTo('ada.screenshots@example.com');
  const reference = new URL(payment.url()).searchParams.get('session_id')?.slice(-12) ?? '';
  const notice = (await stack.emailsTo('merchant@live-aquatics.test')).find((email) =>
    email.subject.includes(reference),
  );
  for (const [email, file, width] of [
    [confirmation, 'email-confirmation.png', 720],
    [notice, 'email-merchant-notice.png', 720],
    [notice, 'email-merchant-notice-phone.png', 360],
  ] as const) {
    if (!email?.body.html) throw new Error(`no HTML email for ${file}`);
    const mail = await context.newPage();
    await mail.setViewportSize({ width, height: 800 });
    await mail.setContent(email.body.html);
    await mail.screenshot({ path: `${OUT}/${file}`, fullPage: true });
    await mail.close();
  }
});

test('order page on a 360px phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await orderReady(page, 'ada.phone@example.com');
  await page.screenshot({ path: `${OUT}/order-page-360.png`, fullPage: true });
});

test('a customer’s order page on a 360px phone: moved for the weather, then dispatched with tracking', async ({
  page,
  stack,
}) => {
  // Every date is the order's own, so the picture is the same on every run.
  const { token } = await seedOrderWithPage(
    stack,
    '2026-11-23',
    {
      name: 'Ada Lovelace',
      email: 'ada.status@example.com',
      address: '12 St James’s Square\nLondon',
      postcode: 'SW1Y 4JH',
    },
    {
      status: 'dispatched',
      dispatchDate: '2026-11-24',
      delayedFrom: '2026-11-23',
      delayReason: 'weather',
      delayedAt: '2026-11-22T08:00:00.000Z',
      dispatchedAt: '2026-11-24T09:30:00.000Z',
      trackingNumber: 'AB123456789GB',
    },
  );
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`/order/${token}`);
  await expect(page.getByRole('link', { name: /Track AB123456789GB with Royal Mail/ })).toBeVisible();
  await page.screenshot({ path: `${OUT}/order-status-360.png`, fullPage: true });
});

test('the merchant’s admin: this week on a desktop', async ({ page, context }) => {
  // An order to show (the admin's days are the server's own, so these pictures follow the calendar).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await fillDeliveryDetails(page, {
    name: 'Grace Hopper',
    email: 'grace.admin@example.com',
    address: '1 Harbour Street\nWhitby',
    postcode: 'YO21 3PU',
  });
  const payment = await openPaymentTab(page, context);
  await payment.waitForURL(/\/c\/pay\/cs_test_/);
  await payment.getByLabel(/Card number/).fill('4242 4242 4242 4242');
  await payment.getByRole('button', { name: 'Pay £14.70' }).click();
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  const reference = new URL(payment.url()).searchParams.get('session_id')?.slice(-12) ?? '';
  await payment.close();

  await page.goto('/admin');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill('merchant@live-aquatics.test');
  await page.getByLabel('Password').fill('Daphnia-Local-2026');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('link', { name: reference })).toBeVisible();
  await page.screenshot({ path: `${OUT}/admin-week-desktop.png`, fullPage: true });
  // The 360 px pictures of the admin are the phone spec's (test/e2e/merchant-phone.spec.ts).
});
