import type { BrowserContext, Page } from '@playwright/test';
import { expect as baseExpect, test } from './support/fixtures';
import { MERCHANT, signIn } from './support/merchant';
import { seedOrder } from './support/seed-order';

// A sign-in that lasts (ADR 0055), on a 360 × 800 phone against the whole stack (local, or the
// rehearsal's CloudFront behaviours): a reload, a new tab and a notice's link keep the merchant
// signed in; the refresh token lives only in an HttpOnly cookie; sign-out ends it for good.

const expect = baseExpect.configure({ timeout: 20_000 });
test.use({ viewport: { width: 360, height: 800 } });
test.describe.configure({ mode: 'serial' });

const SESSION_PATH = '/functions/v1/admin/session';

async function refreshCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === 'admin_refresh');
}

/** Everything the page's scripts can store or read, as text. */
async function scriptVisibleStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const databases = 'databases' in indexedDB ? await indexedDB.databases() : [];
    return JSON.stringify({
      local: Object.entries(localStorage),
      session: Object.entries(sessionStorage),
      indexedDb: databases.map((database) => database.name),
      cookie: document.cookie,
    });
  });
}

/** The session route called as a script elsewhere would, with a stolen cookie. */
function refreshWith(shopUrl: string, value: string, origin = shopUrl) {
  return fetch(`${shopUrl}${SESSION_PATH}/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie: `admin_refresh=${value}` },
    body: '{}',
  });
}

test('a reload, a new tab and a notice link keep the merchant signed in; no script can read the refresh token', async ({
  page,
  context,
  stack,
}) => {
  await signIn(page);
  const cookie = await refreshCookie(context);
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: SESSION_PATH });
  // About 30 days: the refresh token's lifetime.
  expect((cookie?.expires ?? 0) * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);
  const token = cookie?.value ?? '';
  expect(token.length).toBeGreaterThan(20);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'This week' })).toBeVisible();
  await expect(page.getByText(MERCHANT.email)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Merchant sign-in' })).toHaveCount(0);

  const tab = await context.newPage();
  await tab.goto('/admin?view=orders');
  await expect(tab.getByRole('heading', { name: 'Orders & requests' })).toBeVisible();

  // The notice email's "Open this order in the admin" link, opened cold.
  const { reference } = await seedOrder(stack, { name: 'Session Linked', email: 'linked@example.com' });
  const link = await context.newPage();
  await link.goto(`/admin?order=${reference}`);
  await expect(link.getByText('Session Linked').first()).toBeVisible();

  for (const where of [page, tab, link]) {
    const visible = await scriptVisibleStorage(where);
    expect(visible).not.toContain(token);
    expect(visible).not.toContain('admin_refresh');
  }
  // Another site's request with the cookie is refused, whatever it carries.
  expect((await refreshWith(stack.shopUrl, token, 'https://evil.example')).status).toBe(403);
});

test('after sign-out the old refresh token mints nothing and a reload asks to sign in', async ({
  page,
  context,
  stack,
}) => {
  await signIn(page);
  const token = (await refreshCookie(context))?.value ?? '';
  expect((await refreshWith(stack.shopUrl, token)).status).toBe(200);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Merchant sign-in' })).toBeVisible();
  expect(await refreshCookie(context)).toBeUndefined();
  expect((await refreshWith(stack.shopUrl, token)).status).toBe(401);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Merchant sign-in' })).toBeVisible();
});

test('sign out on every device ends the other devices’ sign-in too', async ({ page, browser, stack }) => {
  const other = await browser.newContext({ baseURL: stack.shopUrl, viewport: { width: 360, height: 800 } });
  const laptop = await other.newPage();
  await signIn(laptop);
  await signIn(page);

  await page.getByRole('button', { name: 'Sign out on every device' }).click();
  await expect(page.getByRole('heading', { name: 'Merchant sign-in' })).toBeVisible();

  await laptop.reload();
  await expect(laptop.getByRole('heading', { name: 'Merchant sign-in' })).toBeVisible();
  await other.close();
});

test('the admin links a manifest of its own: installed, it opens on This week, standalone, within /admin', async ({
  page,
  stack,
}) => {
  await page.goto('/admin');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/admin.webmanifest');
  const response = await fetch(`${stack.shopUrl}/admin.webmanifest`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/manifest+json');
  expect(await response.json()).toMatchObject({
    id: '/admin',
    start_url: '/admin',
    scope: '/admin',
    display: 'standalone',
  });
});
