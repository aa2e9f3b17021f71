import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { addDays, firstComingDispatchDay, formatDispatchDate } from '../../shared/dispatch';
import { expect as baseExpect, test } from './support/fixtures';
import { signIn } from './support/merchant';
import { seedOrder, seedOrderWithPage } from './support/seed-order';

// The merchant's actions on a 360 × 800 phone, against the whole local stack: each asks before it
// emails, its result stays in view after the view reloads, long words wrap, a search runs again,
// and an order's actions are within two phone screens.

const PHONE = { width: 360, height: 800 };
// The admin API's first answers can take seconds on a loaded 2-core machine.
const expect = baseExpect.configure({ timeout: 20_000 });

test.describe.configure({ mode: 'serial' });

async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** How far below the page's top an element ends, in CSS pixels, wherever the page is scrolled. */
async function bottomOnPage(locator: Locator): Promise<number> {
  return locator.evaluate((element) => element.getBoundingClientRect().bottom + window.scrollY);
}

async function findOrders(page: Page, text: string) {
  await page.getByRole('link', { name: 'Orders & requests', exact: true }).click();
  await page.getByLabel('Search').fill(text);
  await page.getByRole('button', { name: 'Show' }).click();
  return page.getByRole('list', { name: 'Orders and requests found' });
}

test('a bulk dispatch asks first, and its result stays in view after the week reloads emptied', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const ada = { name: `Ada Bulk${run}`, email: `ada.${run}@example.com` };
  const bea = { name: `Bea Bulk${run}`, email: `bea.${run}@example.com` };
  const adaRef = (await seedOrder(stack, ada)).reference;
  const beaRef = (await seedOrder(stack, bea)).reference;
  await page.setViewportSize(PHONE);
  await signIn(page);

  await page.getByRole('checkbox', { name: `Choose ${adaRef} (${ada.name})` }).check();
  await page.getByRole('checkbox', { name: `Choose ${beaRef} (${bea.name})` }).check();
  await page.getByRole('button', { name: 'Mark 2 dispatched' }).click();
  // The question names who is emailed (the list's order is the API's).
  const question = page.getByText(
    /^Mark 2 orders dispatched\? Each customer is emailed that it is on its way: /,
  );
  await expect(question).toBeInViewport();
  await expect(question).toContainText(`${ada.name} (${ada.email})`);
  await expect(question).toContainText(`${bea.name} (${bea.email})`);
  // Asked, not sent.
  expect(await stack.emailsTo(ada.email)).toHaveLength(0);
  await page.getByRole('button', { name: 'Mark 2 dispatched and email' }).click();

  const summary = page.getByText('2 orders marked dispatched.', { exact: true });
  await expect(summary).toBeInViewport();
  // The week reloaded without them: their rows are gone, the result is still there and in view.
  await expect(page.getByRole('link', { name: adaRef })).toHaveCount(0);
  await expect(page.getByRole('link', { name: beaRef })).toHaveCount(0);
  await page.waitForTimeout(1000);
  await expect(summary).toBeInViewport();
  await expect(
    page.getByText(`${adaRef} marked dispatched; dispatch email sent to ${ada.email}.`),
  ).toBeInViewport();
  await expect.poll(async () => (await stack.emailsTo(ada.email)).length).toBe(1);
  await expect.poll(async () => (await stack.emailsTo(bea.email)).length).toBe(1);
  expect(await scrollWidth(page)).toBe(360);

  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(summary).toHaveCount(0);
});

test('a 45-character email leaves the page 360 px wide after an action, and Show twice lists again', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const ivy = { name: `Ivy Longmail${run}`, email: `ivy.verylongaddress.${run}@example-shop.com` };
  expect(ivy.email).toHaveLength(45);
  const ivyRef = (await seedOrder(stack, ivy)).reference;
  await page.setViewportSize(PHONE);
  await signIn(page);

  // The same search twice: listed both times, never left "Loading…".
  const found = await findOrders(page, `Longmail${run}`);
  await expect(found.getByRole('link', { name: ivyRef })).toBeVisible();
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(found.getByRole('link', { name: ivyRef })).toBeVisible();
  await expect(page.getByText('Loading…')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: '1 result' })).toBeVisible();

  await found.getByRole('checkbox', { name: `Choose ${ivyRef} (${ivy.name})` }).check();
  await page.getByRole('button', { name: 'Mark 1 dispatched' }).click();
  await page.getByRole('button', { name: 'Mark 1 dispatched and email' }).click();
  const line = page.getByText(`${ivyRef} marked dispatched; dispatch email sent to ${ivy.email}.`);
  await expect(line).toBeInViewport();
  expect(await scrollWidth(page)).toBe(360);

  // Its order's screen, the email in its details and its history: still 360 px.
  await found.getByRole('link', { name: ivyRef }).click();
  await expect(page.getByRole('heading', { name: `Order ${ivyRef}` })).toBeVisible();
  await expect(page.getByRole('link', { name: ivy.email })).toBeVisible();
  expect(await scrollWidth(page)).toBe(360);
});

test("an order's actions are within two phone screens, the address folded and asked about before it emails", async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const joe = { name: `Joe Fold${run}`, email: `joe.${run}@example.com` };
  // A week after the coming dispatch day, whatever today is: its address can still be corrected.
  const day = addDays(firstComingDispatchDay(new Date()), 7);
  const { reference: joeRef } = await seedOrderWithPage(stack, day, {
    ...joe,
    address: '4 Track Row\nYork',
    postcode: 'YO1 7HH',
  });
  await page.setViewportSize(PHONE);
  await signIn(page);

  await (await findOrders(page, `Fold${run}`)).getByRole('link', { name: joeRef }).click();
  await expect(page.getByRole('heading', { name: `Order ${joeRef}` })).toBeVisible();
  await expect(page.getByLabel('New address')).toHaveCount(0);
  // Every action of a paid order, the last one included, ends within 1,600 px.
  for (const name of ['Mark dispatched', 'Refund £0.00', 'Refund…', 'Correct the address', 'Revoke link…']) {
    expect(await bottomOnPage(page.getByRole('button', { name, exact: true }))).toBeLessThanOrEqual(1600);
  }
  expect(await scrollWidth(page)).toBe(360);

  await page.getByRole('button', { name: 'Correct the address' }).click();
  await page.getByLabel('New address').fill(`8 Fold Lane ${run}\nYork`);
  await page.getByRole('button', { name: 'Correct delivery details' }).click();
  await expect(
    page.getByText(
      `Change the delivery details of ${joeRef} to 8 Fold Lane ${run}, York, YO1 7HH, 07700 900123? ${joe.name} (${joe.email}) is emailed the new details.`,
    ),
  ).toBeInViewport();
  expect(await stack.emailsTo(joe.email)).toHaveLength(0);
  await page.getByRole('button', { name: 'Confirm and email' }).click();
  const result = page.getByText(
    `Delivery details of ${joeRef} corrected. Confirmation email sent to ${joe.email}.`,
  );
  await expect(result).toBeInViewport();
  await expect(page.getByLabel('New address')).toHaveCount(0);
  await expect.poll(async () => (await stack.emailsTo(joe.email)).length).toBe(1);
  expect(await scrollWidth(page)).toBe(360);
});

test('a Click & Drop export previews what it would do and sends nothing before Confirm', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const cy = { name: `Cy Preview${run}`, email: `cy.${run}@example.com` };
  const cyRef = (await seedOrder(stack, cy)).reference;
  await page.setViewportSize(PHONE);
  await signIn(page);

  await findOrders(page, `Preview${run}`);
  const csv = `"Order reference","Recipient name","Tracking number"\r\n"${cyRef}","${cy.name}","JX 1234 5678 9GB"\r\n`;
  await page.getByLabel('Choose the Click & Drop export').setInputFiles({
    name: 'click-and-drop-export.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(page.getByRole('list', { name: 'What each row would do' })).toContainText(
    `Line 2: ${cyRef} ${cy.name} (${cy.email}), JX123456789GB: marked dispatched and emailed`,
  );
  await page.waitForTimeout(1000);
  expect(await stack.emailsTo(cy.email)).toHaveLength(0);
  await page.getByRole('button', { name: 'Import and send 1 email…' }).click();
  await expect(
    page.getByText('Mark 1 order dispatched and correct 0 numbers: 1 customer is emailed.'),
  ).toBeInViewport();
  expect(await stack.emailsTo(cy.email)).toHaveLength(0);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByText('1 order matched: 1 marked dispatched, 1 email sent. 0 rows not matched.'),
  ).toBeInViewport();
  await expect.poll(async () => (await stack.emailsTo(cy.email)).length).toBe(1);
  expect(await scrollWidth(page)).toBe(360);
});

test('an early dispatch names the planned day and goes only on Confirm', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const kim = { name: `Kim Early${run}`, email: `kim.${run}@example.com` };
  // A week after the coming dispatch day, whatever today is.
  const day = addDays(firstComingDispatchDay(new Date()), 7);
  const dayText = formatDispatchDate(day, { today: day });
  const { reference } = await seedOrderWithPage(stack, day, {
    ...kim,
    address: '5 Early Row\nYork',
    postcode: 'YO1 7HH',
  });
  await page.setViewportSize(PHONE);
  await signIn(page);

  const found = await findOrders(page, `Early${run}`);
  await found.getByRole('checkbox', { name: `Choose ${reference} (${kim.name})` }).check();
  await page.getByRole('button', { name: 'Mark 1 dispatched' }).click();
  await page.getByRole('button', { name: 'Mark 1 dispatched and email' }).click();
  await expect(page.getByText(`1 order is planned for ${dayText}: dispatch it now?`)).toBeInViewport();
  await expect(page.getByText('0 orders marked dispatched. 1 refused: nothing done to it.')).toBeVisible();
  await page.waitForTimeout(1000);
  expect(await stack.emailsTo(kim.email)).toHaveLength(0);

  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('1 order marked dispatched.', { exact: true })).toBeInViewport();
  await expect.poll(async () => (await stack.emailsTo(kim.email)).length).toBe(1);
  expect(await scrollWidth(page)).toBe(360);
});
