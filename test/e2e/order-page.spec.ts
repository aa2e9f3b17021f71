import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '@playwright/test';
import { orderKey } from '../../lambdas/domain/storage/orders-table';
import {
  addDays,
  dispatchDayOfWeekOf,
  firstComingDispatchDay,
  formatDispatchDate,
  type IsoDate,
  isWorkingDay,
  londonDate,
} from '../../shared/dispatch';
import { expectAccessible, fillDeliveryDetails, openPaymentTab, payWithCard } from './support/customer';
import { expect, type Stack, test } from './support/fixtures';
import { signIn } from './support/merchant';
import { seedOrderWithPage } from './support/seed-order';

// The customer's order page (issue 32) on a 360 × 800 phone, against the whole local stack on the
// real clock. Other specs share the stack: this one moves only a day no other spec uses.

const PHONE = { width: 360, height: 800 };

test.describe.configure({ mode: 'serial' });

/** The order page's link in the newest email to `address` that has one. */
async function orderPageLink(stack: Stack, address: string, subject: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const emails = (await stack.emailsTo(address)).filter((email) => subject.test(email.subject));
      const html = emails.at(-1)?.body.html ?? '';
      link = new RegExp(`${stack.shopUrl}/order/[A-Za-z0-9_-]+`).exec(html)?.[0];
      return link;
    })
    .toBeDefined();
  return link ?? '';
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

async function storedOrder(stack: Stack, sessionId: string): Promise<Record<string, unknown>> {
  const { Item } = await DynamoDBDocumentClient.from(stack.dynamo).send(
    new GetCommand({ TableName: stack.tableName, Key: { pk: orderKey(sessionId) } }),
  );
  if (!Item) throw new Error(`no order ${sessionId}`);
  return Item;
}

test('the confirmation links to the order page: the planned day, a correction before the cut-off (order, history, dispatch CSV), then the Royal Mail link', async ({
  page,
  context,
  stack,
}) => {
  test.setTimeout(180_000);
  const run = randomUUID().slice(0, 8);
  const ivy = { name: `Ivy Page${run}`, email: `ivy.${run}@example.com` };
  await page.goto('/');
  await page.getByRole('button', { name: /Daphnia Magna/ }).click();
  await fillDeliveryDetails(page, { ...ivy, address: '3 Wrong Row\nYork', postcode: 'YO1 7HH' });
  const payment = await openPaymentTab(page, context);
  await payWithCard(payment, '4242 4242 4242 4242', '£14.70');
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  const sessionId = new URL(payment.url()).searchParams.get('session_id') ?? '';
  const reference = sessionId.slice(-12);
  await payment.close();

  // The confirmation email's "View your order" opens the page: the reference and the planned day.
  const link = await orderPageLink(stack, ivy.email, /./);
  const day = String((await storedOrder(stack, sessionId)).dispatchDate);
  const dayText = formatDispatchDate(day, { today: londonDate(new Date()) });
  await page.setViewportSize(PHONE);
  await page.goto(link);
  await expect(page.locator('.reference__value')).toHaveText(reference);
  const progress = page.getByRole('region', { name: 'Progress' });
  await expect(progress).toContainText(`Dispatch planned for ${dayText}`);
  await expect(page.getByText('Total paid').locator('xpath=following-sibling::dd[1]')).toHaveText('£14.70');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
  await expectAccessible(page);
  await noSidewaysScroll(page);

  // Corrected before the cut-off: the page confirms it, and one short email says so too.
  const details = page.getByRole('region', { name: 'Delivery details' });
  await details.getByRole('button', { name: 'Correct delivery details' }).click();
  const form = details.getByRole('form', { name: 'Correct delivery details' });
  await form.getByLabel('Delivery Address *').fill(`7 Right Row ${run}\nYork`);
  await form.getByLabel('Postcode *').fill('yo1 9ab');
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Save delivery details' }).click();
  await expect(
    details.getByText('Your delivery details are updated. We have emailed you a confirmation.'),
  ).toBeVisible();
  await expect(
    details.getByText('Postcode', { exact: true }).locator('xpath=following-sibling::dd[1]'),
  ).toHaveText('YO1 9AB');
  await expectAccessible(page);
  await expect.poll(async () => (await stack.emailsTo(ivy.email)).length).toBe(2);
  const stored = await storedOrder(stack, sessionId);
  expect([stored.deliveryAddress, stored.postcode]).toEqual([`7 Right Row ${run}\nYork`, 'YO1 9AB']);

  // The merchant sees it in the order's history, and the day's Click & Drop file carries it: the
  // file of the order's own day (other specs' orders may make another day the week's next), asked
  // of the admin API with the merchant's token, as the week's "Click & Drop CSV" button asks it.
  const bearer = page.waitForRequest(
    (request) =>
      request.url().includes('/functions/v1/admin/') && request.headers().authorization !== undefined,
  );
  await signIn(page);
  const authorization = (await bearer).headers().authorization ?? '';
  const file = await page.request.get(`/functions/v1/admin/dispatch-csv?date=${day}`, {
    headers: { authorization, accept: 'text/csv' },
  });
  expect(file.status()).toBe(200);
  const csv = await file.text();
  const row = csv.split(/\r?\n/).find((line) => line.includes(ivy.name)) ?? '';
  expect(row).toContain(`7 Right Row ${run}`);
  expect(row).toContain('YO1 9AB');
  expect(row).not.toContain('3 Wrong Row');

  // A new page load: the session's cookie keeps the merchant signed in (ADR 0055).
  await page.goto(`/admin?order=${reference.toLowerCase()}`);
  await expect(page.getByRole('heading', { name: `Order ${reference}` })).toBeVisible();
  const history = page.locator('.card').filter({ has: page.getByRole('heading', { name: 'History' }) });
  await expect(history).toContainText(
    `address-corrected (address: 3 Wrong Row, York YO1 7HH → 7 Right Row ${run}, York YO1 9AB) by customer`,
  );

  // Dispatched with a tracking number: the page links it to Royal Mail, with the arrival advice.
  await page.getByLabel('Tracking number (optional)').fill('AB123456789GB');
  await page.getByRole('button', { name: 'Mark dispatched' }).click();
  // Paid after the week's cut-off, the order is planned for a later week: dispatching it asks first.
  if (day > firstComingDispatchDay(new Date())) {
    await expect(
      page.getByText(`1 order is planned for ${formatDispatchDate(day, { today: day })}: dispatch it now?`),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Confirm' }).click();
  }
  await expect(page.getByText(`${reference} marked dispatched`, { exact: false })).toBeVisible();
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'On its way' })).toBeVisible();
  const track = page.getByRole('link', { name: 'Track AB123456789GB with Royal Mail (opens in a new tab)' });
  await expect(track).toHaveAttribute(
    'href',
    'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
  );
  await expect(track).toHaveAttribute('rel', 'noreferrer');
  await expect(page.getByRole('region', { name: 'When your parcel arrives' })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Correct delivery details' })).toHaveCount(0);
  await expectAccessible(page);
  await noSidewaysScroll(page);

  // A tampered token: the plain 404 page, and the API's plain 404, with nothing of the order.
  const token = link.slice(link.lastIndexOf('/') + 1);
  const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
  await page.goto(`/order/${tampered}`);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText(reference);
  await expect(page.locator('body')).not.toContainText(ivy.name);
  const api = await page.request.get(`/functions/v1/order-page?token=${tampered}`);
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({ error: 'Not found.' });
  await expectAccessible(page);
});

/** The first working day after the coming dispatch day that checkout does not sell (a Tuesday). */
function comingMovedToDay(now: Date): IsoDate {
  let day = addDays(firstComingDispatchDay(now), 1);
  while (!isWorkingDay(day) || dispatchDayOfWeekOf(day) === day) day = addDays(day, 1);
  return day;
}

/** A working day six weeks back: no other spec's orders are on it, and its cut-off is long past. */
function pastDay(today: IsoDate): IsoDate {
  let day = addDays(today, -42);
  while (!isWorkingDay(day)) day = addDays(day, -1);
  return day;
}

test('past the cut-off the page says to contact the seller and a correction is refused; after a delay it shows the new day and why', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const from = pastDay(londonDate(new Date()));
  // The days as the page words them: the year only when it is not that of the payment (three days before).
  const today = addDays(from, -3);
  const tuesday = comingMovedToDay(new Date());
  const run = randomUUID().slice(0, 8);
  const ned = { name: `Ned Late${run}`, email: `ned.${run}@example.com` };
  const { reference, token } = await seedOrderWithPage(stack, from, {
    ...ned,
    address: '9 Late Row\nLeeds',
    postcode: 'LS1 4AP',
  });

  await page.setViewportSize(PHONE);
  await page.goto(`/order/${token}`);
  await expect(page.getByRole('region', { name: 'Progress' })).toContainText(
    `Dispatch planned for ${formatDispatchDate(from, { today })}`,
  );
  const details = page.getByRole('region', { name: 'Delivery details' });
  await expect(details).toContainText(
    `We are packing your order, so these can no longer be changed here. To change anything, please contact the seller at`,
  );
  await expect(details.getByRole('button')).toHaveCount(0);
  await expectAccessible(page);
  // Asked anyway, as a page left open past the cut-off would: refused in words, nothing changed.
  const refused = await page.request.post('/functions/v1/order-page/address', {
    data: { token, address: '1 Other Row\nLeeds', postcode: 'LS1 4AP', phone: '' },
  });
  expect(refused.status()).toBe(409);
  expect((await refused.json()) as unknown).toEqual({
    error: expect.stringContaining('please contact the seller'),
  });

  // The merchant delays the day (no other spec's orders are on it) for a supply problem.
  await signIn(page);
  await expect(
    page.getByRole('heading', { name: `Next dispatch: ${formatDispatchDate(from, { today })}` }),
  ).toBeVisible({ timeout: 20_000 });
  const delay = page.locator('form').filter({ has: page.getByRole('heading', { name: /^Delay / }) });
  await delay.getByLabel('New dispatch day').fill(tuesday);
  await delay.getByLabel('Reason').selectOption('supply');
  await delay.getByRole('button', { name: 'Delay the day' }).click();
  await delay.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(/1 order\(s\) moved from .* 1 delay email\(s\) sent/)).toBeVisible({
    timeout: 20_000,
  });

  // The delay email links to the same page, which now shows the new day, and why.
  const link = await orderPageLink(stack, ned.email, /./);
  expect(link).toBe(`${stack.shopUrl}/order/${token}`);
  await page.goto(link);
  await expect(page.locator('.reference__value')).toHaveText(reference);
  const progress = page.getByRole('region', { name: 'Progress' });
  await expect(progress).toContainText(`Dispatch moved to ${formatDispatchDate(tuesday, { today })}`);
  await expect(progress).toContainText('because of a problem with the supply of live cultures');
  await expect(progress).toContainText(`Dispatch planned for ${formatDispatchDate(tuesday, { today })}`);
  await expectAccessible(page);
  await noSidewaysScroll(page);
});
