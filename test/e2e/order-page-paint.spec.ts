import { randomUUID } from 'node:crypto';
import { addDays, dispatchDayOfWeekOf, firstComingDispatchDay } from '../../shared/dispatch';
import { expect, test } from './support/fixtures';
import { seedOrderWithPage } from './support/seed-order';

// What Lighthouse's LCP of /order measures, on its mobile screen: the largest paint must be one
// of the prerendered HTML, still on the page once the order has arrived, not a part of the order's
// view painted after the script and the API (which then counts them all into the paint).

const LIGHTHOUSE_MOBILE = { width: 412, height: 823 };
const INTRO =
  'Your order from payment to your door: its dispatch day, any change to it, and its tracking once it is on its way. The link to this page opens your order, so please keep it to yourself.';

interface Paint {
  tag: string | undefined;
  text: string | undefined;
  connected: boolean;
  size: number;
}

test('the order page’s largest paint is its prerendered text, which stays once the order has arrived', async ({
  page,
  stack,
}) => {
  const day = dispatchDayOfWeekOf(addDays(firstComingDispatchDay(new Date()), 7));
  const run = randomUUID().slice(0, 8);
  const { token } = await seedOrderWithPage(stack, day, {
    name: `Lia Paint${run}`,
    email: `lia.${run}@example.com`,
    address: '12 Canal Street\nManchester',
    postcode: 'M1 3HE',
  });

  await page.setViewportSize(LIGHTHOUSE_MOBILE);
  await page.goto(`/order/${token}`);
  await expect(page.getByRole('region', { name: 'Progress' })).toBeVisible();
  // Two frames and a task: the order's view has painted and its paint has been reported.
  await page.evaluate(
    () =>
      new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 200)))),
  );
  const paints = await page.evaluate(
    () =>
      new Promise<Paint[]>((resolve) => {
        new PerformanceObserver((list) =>
          resolve(
            list.getEntries().map((entry) => {
              const { element, size } = entry as LargestContentfulPaint;
              return {
                tag: element?.tagName,
                text: element?.textContent ?? undefined,
                connected: element?.isConnected ?? false,
                size,
              };
            }),
          ),
        ).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  const shifts = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) =>
          resolve(
            list
              .getEntries()
              .reduce(
                (sum, entry) => sum + ('value' in entry && typeof entry.value === 'number' ? entry.value : 0),
                0,
              ),
          ),
        ).observe({ type: 'layout-shift', buffered: true });
        // No shift at all reports no entry: nothing is buffered to call back with.
        setTimeout(() => resolve(0), 500);
      }),
  );

  const largest = paints.at(-1);
  expect(largest).toMatchObject({ tag: 'P', text: INTRO, connected: true });
  expect(await (await page.request.get(`/order/${token}`)).text()).toContain(INTRO);
  // The footer stays below the fold while the order's view replaces the "loading" card.
  expect(shifts).toBe(0);
});
