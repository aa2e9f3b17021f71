import { expect, type Page } from '@playwright/test';

/** The merchant `npm start` and the browser tests' stack seed at the local identity provider. */
export const MERCHANT = { email: 'merchant@live-aquatics.test', password: 'Daphnia-Local-2026' };

/** Signs in to /admin through the identity provider's own page, as the merchant does. */
export async function signIn(page: Page): Promise<void> {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Merchant sign-in' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(MERCHANT.email);
  await page.getByLabel('Password').fill(MERCHANT.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'This week' })).toBeVisible();
  await expect(page.getByText(MERCHANT.email)).toBeVisible();
}
