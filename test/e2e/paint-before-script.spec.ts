import type { Page } from '@playwright/test';
import { fillDeliveryDetails, openPaymentTab, payWithCard } from './support/customer';
import { expect, test } from './support/fixtures';

// What Lighthouse's simulated LCP of / and /success counts: every script requested before the
// first contentful paint is taken as blocking it. So the prerendered HTML must be on screen before
// the main script is even asked for, and its largest paint must be a prerendered element that
// hydration keeps (a new node painted later would be a later LCP, after the script).

const LIGHTHOUSE_MOBILE = { width: 412, height: 823 };

interface Timeline {
  firstContentfulPaint: number | undefined;
  entryScriptRequested: number | undefined;
  /** Every largest-contentful-paint candidate, in order: the last is the page's LCP. */
  largestPaints: {
    startTime: number;
    tag: string | undefined;
    text: string | undefined;
    connected: boolean;
  }[];
}

/** The page's paint and resource timeline once the app has taken it over and settled. */
async function timeline(page: Page): Promise<Timeline> {
  // Two frames and a task: any view drawn after the app's requests has painted and been reported.
  await page.evaluate(
    () =>
      new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 300)))),
  );
  return page.evaluate(async () => {
    const buffered = (type: string) =>
      new Promise<PerformanceEntry[]>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries())).observe({ type, buffered: true });
        // A type with no entry at all calls back with nothing.
        setTimeout(() => resolve([]), 500);
      });
    const [paints, largestPaints] = await Promise.all([
      buffered('paint'),
      buffered('largest-contentful-paint'),
    ]);
    return {
      firstContentfulPaint: paints.find((entry) => entry.name === 'first-contentful-paint')?.startTime,
      entryScriptRequested: performance
        .getEntriesByType('resource')
        .find((entry) => /\/assets\/index-[\w-]+\.js$/.test(entry.name))?.startTime,
      largestPaints: largestPaints.map((entry) => {
        const { startTime, element } = entry as LargestContentfulPaint;
        // A removed element is reported as null.
        return {
          startTime,
          tag: element?.tagName,
          text: element?.textContent ?? undefined,
          connected: element !== null,
        };
      }),
    };
  });
}

test('/ paints its prerendered order form before the main script is requested, and its largest paint stays', async ({
  page,
}) => {
  await page.setViewportSize(LIGHTHOUSE_MOBILE);
  await page.goto('/');
  // The app has started and hydrated: the order flow's chunk is loaded once hydration is done.
  await page.waitForFunction(() =>
    performance
      .getEntriesByType('resource')
      .some((entry) => /\/assets\/order-flow-[\w-]+\.js$/.test(entry.name)),
  );
  const html = await (await page.request.get('/')).text();

  const { firstContentfulPaint, entryScriptRequested, largestPaints } = await timeline(page);

  expect(firstContentfulPaint).toBeGreaterThan(0);
  expect(entryScriptRequested).toBeGreaterThan(firstContentfulPaint ?? Number.POSITIVE_INFINITY);
  // One candidate, painted with the first paint, still on the page once the app has taken over.
  expect(largestPaints).toEqual([
    {
      startTime: firstContentfulPaint,
      tag: 'P',
      text: 'Select Daphnia Magna above to choose how many bottles you need and enter your delivery details.',
      connected: true,
    },
  ]);
  expect(html).toContain('above to choose how many bottles you need and enter your delivery details.</p>');
});

test('/success, reached from the payment with the main script cached, paints its prerendered card first, and its largest paint stays', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: /Daphnia Magna/ }).click();
  await fillDeliveryDetails(page, {
    name: 'Ada Paintfirst',
    email: 'ada.paintfirst@example.com',
    address: '3 Mill Lane\nLeeds',
    postcode: 'LS1 4DY',
  });
  const payment = await openPaymentTab(page, context);
  await payment.setViewportSize(LIGHTHOUSE_MOBILE);
  await payWithCard(payment, '4242 4242 4242 4242', '£14.70');
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  await expect(payment.getByRole('heading', { name: /Payment Successful!/ })).toBeVisible();
  const html = await (await payment.request.get(payment.url())).text();

  const { firstContentfulPaint, entryScriptRequested, largestPaints } = await timeline(payment);

  expect(firstContentfulPaint).toBeGreaterThan(0);
  expect(entryScriptRequested).toBeGreaterThan(firstContentfulPaint ?? Number.POSITIVE_INFINITY);
  // The prerendered "checking" card is the largest paint, at the first paint: the paid view replaces
  // its text (a new state, by design) and nothing it paints later is larger.
  expect(largestPaints).toHaveLength(1);
  expect(largestPaints[0]?.startTime).toBe(firstContentfulPaint);
  expect(html).toContain('<div class="payment-status">');
});

test('a press on the product card before the app has started is not lost: it is pressed again once the app listens', async ({
  page,
}) => {
  // The main script held back: the prerendered card is on screen, nothing listens to it yet.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  await page.getByRole('button', { name: /Daphnia Magna/ }).click();
  release();

  await expect(page.getByLabel('Full Name *')).toBeVisible();
  await expect(page.getByRole('button', { name: /Daphnia Magna/ })).toHaveAttribute('aria-pressed', 'true');
});
