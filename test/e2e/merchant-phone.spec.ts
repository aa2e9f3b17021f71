import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { addWorkingDays, formatDispatchDate } from '../../shared/dispatch';
import { expectAccessible } from './support/customer';
import { expect as baseExpect, test } from './support/fixtures';
import { signIn } from './support/merchant';
import { docsPicture } from './support/pictures';
import { seedOrder } from './support/seed-order';

// The merchant's week on a 360 × 800 phone, against the whole local stack: no screen scrolls
// sideways, every target is at least 44 × 44 px, the navigation keeps to the top 120 px, and the
// capacity table shows its Left column. Its pictures are the docs' (docs/operations.md).

const PHONE = { width: 360, height: 800 };
// The admin API's first answers can take seconds on a loaded 2-core machine.
const expect = baseExpect.configure({ timeout: 20_000 });

/** Targets allowed under 44 px, each with why. */
const EXCEPTIONS: { selector: string; reason: string }[] = [
  {
    selector: '.site-footer a',
    reason:
      "the shop's footer, the same on every page: links inside its sentences (WCAG 2.5.8's inline exception)",
  },
];

test.describe.configure({ mode: 'serial' });

/** What a phone must hold on this screen: nothing sideways, no small target, a short navigation. */
async function expectFitsPhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const small = await page.evaluate(
    (exceptions) => {
      const found: string[] = [];
      const seen = new Set<Element>();
      for (const control of document.querySelectorAll('a[href], button, input, select, textarea, summary')) {
        // A control inside its label is tapped through the label: the label is the target.
        const target = control.closest('label') ?? control;
        if (seen.has(target) || exceptions.some((selector) => target.matches(selector))) continue;
        seen.add(target);
        const box = target.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || getComputedStyle(target).visibility === 'hidden') continue;
        if (box.width < 44 || box.height < 44) {
          const name = (target.getAttribute('aria-label') ?? target.textContent ?? '').trim().slice(0, 40);
          found.push(
            `${target.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`,
          );
        }
      }
      return found;
    },
    EXCEPTIONS.map((exception) => exception.selector),
  );
  expect(small).toEqual([]);
  // Everything above the screen's own content: the site's header, the navigation, the address, Sign out.
  const top = await page.locator('.admin-view').first().boundingBox();
  expect(top?.y ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(120);
  await expectAccessible(page);
}

test('week, order, capacity and requests fit a 360 px phone, with targets of 44 px', async ({
  page,
  stack,
}) => {
  // Four screens, each measured and checked by axe: minutes on a loaded 2-core machine.
  test.setTimeout(240_000);
  const run = randomUUID().slice(0, 8);
  const ivy = await seedOrder(stack, { name: `Ivy Phone${run}`, email: `ivy.${run}@example.com` });
  const joe = await seedOrder(stack, { name: `Joe Phone${run}`, email: `joe.${run}@example.com` });
  await page.setViewportSize(PHONE);
  await signIn(page);

  await expect(page.getByRole('link', { name: ivy.reference })).toBeVisible();
  await expect(page.getByRole('link', { name: joe.reference })).toBeVisible();
  await expectFitsPhone(page);
  await page.screenshot({ path: docsPicture('admin-week-360.png'), fullPage: true });

  await page.getByRole('link', { name: ivy.reference }).click();
  await expect(page.getByRole('heading', { name: `Order ${ivy.reference}` })).toBeVisible();
  await expect(page.getByText(`Ivy Phone${run}`, { exact: true })).toBeVisible();
  await expectFitsPhone(page);
  await page.screenshot({ path: docsPicture('admin-order-360.png'), fullPage: true });

  await page.getByRole('link', { name: 'Shop & capacity' }).click();
  const table = page.getByRole('table', { name: 'Bottles per dispatch day' });
  await expect(table).toBeVisible();
  // The weather thresholds' form loads apart: it too must fit before the screen is judged.
  await expect(page.getByRole('button', { name: 'Set thresholds' })).toBeVisible();
  await expectFitsPhone(page);
  // The Left column, the one that matters, is on screen in full, for every day, with nothing to scroll.
  const left = await table.getByRole('columnheader', { name: 'Left' }).boundingBox();
  expect((left?.x ?? PHONE.width) + (left?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  const cells = await table.locator('tbody tr td:last-child').all();
  expect(cells.length).toBeGreaterThan(0);
  for (const cell of cells) {
    const box = await cell.boundingBox();
    expect((box?.x ?? PHONE.width) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  }
  expect(await table.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await page.screenshot({ path: docsPicture('admin-capacity-360.png'), fullPage: true });

  await page.getByRole('link', { name: 'Orders & requests', exact: true }).click();
  await page.getByLabel('Status').selectOption('requested');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByRole('heading', { name: /results?$/ })).toBeVisible();
  await expectFitsPhone(page);
});

test('the delay on a phone asks first and keeps its result until dismissed', async ({ page, stack }) => {
  // Four screens, each measured and checked by axe: minutes on a loaded 2-core machine.
  test.setTimeout(240_000);
  const run = randomUUID().slice(0, 8);
  const { dispatchDate: from } = await seedOrder(stack, {
    name: `Kit Delay${run}`,
    email: `kit.${run}@example.com`,
  });
  const to = addWorkingDays(from, 1);
  const toText = formatDispatchDate(to, { today: to });
  await page.setViewportSize(PHONE);
  await signIn(page);

  await page.getByLabel('New dispatch day').fill(to);
  await page.getByRole('button', { name: 'Delay the day' }).click();
  await expect(
    page.getByText(new RegExp(`^Email \\d+ customers? that their order moves to ${toText}\\?$`)),
  ).toBeVisible();
  await expectFitsPhone(page);
  await page.getByRole('button', { name: 'Confirm' }).click();

  const result = page.getByText(
    new RegExp(`order\\(s\\) moved from .* to ${toText}; \\d+ delay email\\(s\\) sent`),
  );
  await expect(result).toBeVisible();
  await expect.poll(async () => (await stack.emailsTo(`kit.${run}@example.com`)).length).toBe(1);
  // The week reloads with the day emptied: the result stays.
  await page.waitForTimeout(1000);
  await expect(result).toBeVisible();
  await expectFitsPhone(page);
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(result).toHaveCount(0);

  // The delay closed the day: opened again, so the specs after this one can sell it.
  await page.getByRole('link', { name: 'Shop & capacity' }).click();
  await page
    .getByLabel('Day', { exact: true })
    .selectOption({ label: formatDispatchDate(from, { today: from }) });
  await page.getByLabel('Bottles', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Set capacity' }).click();
  await expect(page.getByText(/: no limit\. No emails sent\.$/)).toBeVisible();
});
