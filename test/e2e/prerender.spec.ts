import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

/**
 * Counts the page shells (`.app-shell`) removed from the document: hydration keeps the
 * prerendered elements, a fresh render replaces them. Installed before any page script runs.
 */
async function watchForReplacedShell(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counter = window as unknown as { replacedShells: number };
    counter.replacedShells = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (node instanceof Element && node.classList.contains('app-shell')) counter.replacedShells += 1;
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** Errors the page reports: console errors and uncaught ones. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    // The 404 page's own log line, and Chromium noting the document's own 404 status: both expected.
    const expected = text.startsWith('404 Error:') || text.includes('status of 404');
    if (message.type() === 'error' && !expected) errors.push(text);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

const replacedShells = (page: Page) =>
  page.evaluate(() => (window as unknown as { replacedShells: number }).replacedShells);

test('the order page arrives prerendered: title, product card, prices and Important Information in the HTML', async ({
  request,
}) => {
  const response = await request.get('/');
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain('<title>Live Aquatics Order</title>');
  expect(html).toContain('<div id="root" data-page="/">');
  expect(html).toContain('<h1>Live Aquatics Order</h1>');
  expect(html).toContain('Daphnia Magna</span>');
  expect(html).toContain('£12.00');
  expect(html).toContain('£9.75');
  expect(html).toContain('£14.70');
  expect(html).toContain('Important Information</h2>');
  expect(html).toContain('By placing an order, you acknowledge and accept these terms.');
});

test('every page carries the stylesheet inline: the first paint needs no request after the HTML', async ({
  page,
  request,
}) => {
  for (const path of [
    '/',
    '/success?session_id=cs_test_x',
    '/privacy',
    '/terms',
    '/contact',
    '/admin',
    '/no-such-page',
  ]) {
    const html = await (await request.get(path)).text();
    expect(html, path).toMatch(/<style>:root\{--color-bg:/);
    expect(html, path).not.toContain('rel="stylesheet"');
  }
  // With every other request held, the page is already styled: the product card has its border.
  const held: Array<() => Promise<void>> = [];
  await page.route(
    (url) => url.pathname !== '/',
    (route) => {
      held.push(() => route.continue());
    },
  );
  // 'commit': the held module script would keep DOMContentLoaded from firing.
  await page.goto('/', { waitUntil: 'commit' });
  const card = page.locator('.card').first();
  await expect(card).toBeVisible();
  expect(await card.evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('solid');
  for (const release of held) await release();
});

test('unknown paths get the prerendered 404 page with status 404; /success and the policy pages their own', async ({
  request,
}) => {
  const missing = await request.get('/no-such-page');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('<h1>Oops! Page not found</h1>');
  // The policy pages load their code on demand; their HTML is still written in full.
  for (const [path, heading] of [
    ['/privacy', 'Privacy notice'],
    ['/terms', 'Terms of sale'],
    ['/contact', 'Contact us'],
  ] as const) {
    expect(await (await request.get(path)).text()).toContain(`<h1>${heading}</h1>`);
  }
  const success = await request.get('/success?session_id=cs_test_a1B2c3D4e5F6g7H8');
  expect(await success.text()).toContain('Checking your payment...');
  expect(await success.text()).not.toContain('Live Aquatics Order</h1>');
});

for (const path of ['/', '/privacy', '/terms', '/admin', '/no-such-page']) {
  test(`${path} is hydrated, not drawn again, and React reports no mismatch`, async ({ page }) => {
    await watchForReplacedShell(page);
    const errors = collectErrors(page);

    await page.goto(path);
    await page.waitForLoadState('networkidle');

    expect(errors).toEqual([]);
    expect(await replacedShells(page)).toBe(0);
    await expect(page.locator('#root')).toHaveAttribute(
      'data-page',
      path === '/no-such-page' ? 'not-found' : path,
    );
  });
}

test('the order page works after hydration: the dispatch date appears, the product can be selected', async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await expect(
    page.getByText(/^Order by \d\d:\d\d on [A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ for dispatch on /),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await expect(page.getByLabel('Full Name *')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a customer faster than the order flow: the submit and the product wait for it, then answer as usual', async ({
  page,
}) => {
  const errors = collectErrors(page);
  // The order flow's chunk is held back until released, as on a slow line.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/order-flow-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const flowRequested = page.waitForRequest(/\/assets\/order-flow-[^/]+\.js$/);
  await page.goto('/');
  // The page asks for the flow once it has hydrated: from here the button is React's.
  await flowRequested;

  await page.getByRole('button', { name: 'Secure Checkout with Stripe' }).click();
  await expect(page.getByText('We dispatch on Mondays; most orders arrive the next day.')).toBeVisible();
  await expect(page.getByRole('alert')).toBeEmpty();

  release();
  await expect(page.getByRole('alert').getByText('Select a Product')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Daphnia Magna' })).toBeFocused();
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  await expect(page.getByLabel('Full Name *')).toBeVisible();
  expect(errors).toEqual([]);
});

test('HTML written for another page is replaced, not hydrated (the check works)', async ({ page }) => {
  await watchForReplacedShell(page);
  const errors = collectErrors(page);
  // /success without a session id goes home; its prerendered "checking" HTML must not be hydrated.
  await page.goto('/success');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Live Aquatics Order' })).toBeVisible();
  expect(await replacedShells(page)).toBe(1);
  expect(errors).toEqual([]);
});

test("the admin is an entry of its own: `/` loads none of its files, and the admin's footer link loads the shop's page from the server", async ({
  page,
}) => {
  const errors = collectErrors(page);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((path) => /admin/i.test(path))).toEqual([]);

  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Merchant sign-in' })).toBeVisible();
  const privacy = page.waitForResponse((response) => new URL(response.url()).pathname === '/privacy');
  await page.getByRole('link', { name: 'Privacy notice' }).click();

  expect((await privacy).status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Privacy notice', level: 1 })).toBeVisible();
  await expect(page.locator('#root')).toHaveAttribute('data-page', '/privacy');
  expect(errors).toEqual([]);
});

test('with JavaScript off the order page is still there to read', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Live Aquatics Order', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Daphnia Magna' })).toBeVisible();
  await expect(page.getByText('£14.70 delivered')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Important Information' })).toBeVisible();
  await context.close();
});
