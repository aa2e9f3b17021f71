import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, expect, type Locator, type Page } from '@playwright/test';

export interface Customer {
  name: string;
  email: string;
  address: string;
  postcode: string;
}

/** Fails the test with axe's findings if the page breaks a WCAG 2.2 A or AA rule. */
export async function expectAccessible(page: Page): Promise<void> {
  // A toast fading in is half transparent for 0.2 s: axe would measure its contrast mid-fade.
  // Wait for every finite animation to end (the spinner's endless one is left running).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

export async function fillDeliveryDetails(page: Page, customer: Customer): Promise<void> {
  await page.getByLabel('Full Name *').fill(customer.name);
  await page.getByLabel('Email *').fill(customer.email);
  await page.getByLabel('Delivery Address *').fill(customer.address);
  await page.getByLabel('Postcode *').fill(customer.postcode);
}

/** Submits the order and returns the tab the payment page opens in. */
export async function openPaymentTab(page: Page, context: BrowserContext): Promise<Page> {
  const [payment] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Secure Checkout with Stripe' }).click(),
  ]);
  return payment;
}

/** Pays on the simulator's hosted page with a card number. */
export async function payWithCard(payment: Page, card: string, amount: string): Promise<void> {
  await payment.waitForURL(/\/c\/pay\/cs_test_/);
  await payment.getByLabel(/Card number/).fill(card);
  await payment.getByRole('button', { name: `Pay ${amount}` }).click();
}

/** Presses Tab until `target` has focus: how a keyboard user gets there. */
export async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}
