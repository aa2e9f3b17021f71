import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Locator } from '@playwright/test';
import { toOrderItem } from '../../lambdas/domain/checkout/paid-checkout';
import { dispatchDayKey, dispatchSortKey } from '../../lambdas/domain/storage/orders-table';
import {
  addDays,
  dispatchDayOfWeekOf,
  firstComingDispatchDay,
  formatDispatchDate,
  type IsoDate,
  isWorkingDay,
  londonDate,
} from '../../shared/dispatch';
import { quoteOrder } from '../../shared/pricing';
import { expectAccessible } from './support/customer';
import { expect, type Stack, test } from './support/fixtures';
import { signIn } from './support/merchant';

// A delay on a 360 × 800 phone, against the whole local stack on the real clock, as the other
// specs run. Three orders of 6 bottles left on a working day two weeks back are the day the week
// packs first; the merchant delays them to the first coming Tuesday-like day (a working day after
// the coming dispatch day that is not one itself: Tuesday 1 December in the week of 28 November
// 2026). A past day, so no other spec's orders are on it and no coming day is closed by the delay.

const PHONE = { width: 360, height: 800 };

/** The first working day on or before `day`. */
function workingDayOnOrBefore(day: IsoDate): IsoDate {
  let result = day;
  while (!isWorkingDay(result)) result = addDays(result, -1);
  return result;
}

/** The first working day after the coming dispatch day that checkout does not sell. */
function comingMovedToDay(now: Date): IsoDate {
  let day = addDays(firstComingDispatchDay(now), 1);
  while (!isWorkingDay(day) || dispatchDayOfWeekOf(day) === day) day = addDays(day, 1);
  return day;
}

/** A paid order of 6 bottles dated for `day`, written as fulfilment writes it; its reference. */
async function seedOrder(stack: Stack, day: IsoDate, customer: { name: string; email: string }) {
  const sessionId = `cs_test_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const paidAt = new Date(`${addDays(day, -3)}T10:00:00Z`);
  const mapped = toOrderItem(
    {
      sessionId,
      paymentIntentId: undefined,
      livemode: false,
      quote: quoteOrder(6),
      currency: 'gbp',
      customer: { ...customer, phone: '07700 900123', address: '9 Week Row\nLeeds', postcode: 'LS1 4AP' },
      promisedDispatchDate: day,
      checkoutCreatedAt: paidAt,
    },
    { now: paidAt, paidAt, cutoffHours: 36 },
  );
  const item = {
    ...mapped,
    dispatchDate: day,
    gsi1pk: dispatchDayKey(day),
    gsi1sk: dispatchSortKey('paid', mapped.paidAt, mapped.reference),
  };
  const stored = Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined));
  await DynamoDBDocumentClient.from(stack.dynamo).send(
    new PutCommand({ TableName: stack.tableName, Item: stored }),
  );
  return mapped.reference.toUpperCase();
}

/** The orders and bottles the week lists on `dayText` before this spec moves any there (none: 0). */
async function tuesdayCounts(later: Locator, dayText: string): Promise<{ orders: number; bottles: number }> {
  if ((await later.count()) === 0) return { orders: 0, bottles: 0 };
  const item = later.getByRole('listitem').filter({ hasText: dayText });
  if ((await item.count()) === 0) return { orders: 0, bottles: 0 };
  const match = /(\d+) orders?, (\d+) bottles?/.exec((await item.textContent()) ?? '');
  if (!match) throw new Error(`unreadable counts for ${dayText}`);
  return { orders: Number(match[1]), bottles: Number(match[2]) };
}

test('a delay moves 3 orders to a Tuesday: the week and the capacity table show it; a dispatched order’s page agrees with itself', async ({
  page,
  stack,
}) => {
  test.setTimeout(180_000);
  const now = new Date();
  const today = londonDate(now);
  const from = workingDayOnOrBefore(addDays(today, -14));
  const tuesday = comingMovedToDay(now);
  const tuesdayText = formatDispatchDate(tuesday, { today });
  const run = randomUUID().slice(0, 8);
  const references = [];
  for (const n of [1, 2, 3]) {
    references.push(
      await seedOrder(stack, from, { name: `Wes Week${run}${n}`, email: `wes.${run}.${n}@example.com` }),
    );
  }

  await signIn(page);
  await page.setViewportSize(PHONE);
  await expect(
    page.getByRole('heading', { name: `Next dispatch: ${formatDispatchDate(from, { today })}` }),
  ).toBeVisible({ timeout: 20_000 });

  // Other specs of the run may have moved orders to the same Tuesday already: count on from theirs.
  const later = page.getByRole('region', { name: 'Later days with orders' });
  const before = await tuesdayCounts(later, tuesdayText);
  const expected = `${before.orders + 3} orders, ${before.bottles + 18} bottles`;

  const delay = page.locator('form').filter({ has: page.getByRole('heading', { name: /^Delay / }) });
  await delay.getByLabel('New dispatch day').fill(tuesday);
  await delay.getByRole('button', { name: 'Delay the day' }).click();
  await expect(delay).toContainText(`Email 3 customers that their order moves to ${tuesdayText}?`);
  await delay.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(/3 order\(s\) moved from .* 3 delay email\(s\) sent/)).toBeVisible({
    timeout: 20_000,
  });

  // The Tuesday is in the week, with its orders and bottles (3 and 18 more), and links to them.
  await expect(later.getByRole('listitem').filter({ hasText: tuesdayText })).toHaveText(
    `${tuesdayText}: ${expected}`,
    { timeout: 20_000 },
  );
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // The capacity table has the Tuesday too, though checkout never sells it.
  await page.getByRole('link', { name: 'Shop & capacity', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(`^${tuesdayText}`) })).toContainText(expected, {
    timeout: 20_000,
  });

  // One moved order dispatched from its page: its Emails list says the dispatch email went.
  // (Through the page's own links: the sign-in lives in the page, not in storage.)
  await page.getByRole('link', { name: 'This week', exact: true }).click();
  await page
    .getByRole('region', { name: 'Later days with orders' })
    .getByRole('link', { name: tuesdayText })
    .click();
  await page.getByRole('link', { name: references[0] ?? '' }).click();
  await page.getByRole('button', { name: 'Mark dispatched' }).click();
  // Moved to the Tuesday after the coming Monday, the order is planned later than the day the
  // merchant packs for: the page asks, naming the Tuesday, before dispatching it early.
  await expect(
    page.getByText(
      `1 order is planned for ${formatDispatchDate(tuesday, { today: tuesday })}: dispatch it now?`,
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(`${references[0]} marked dispatched.`, { exact: false })).toBeVisible();
  const emails = page.locator('.card').filter({ has: page.getByRole('heading', { name: 'Emails' }) });
  await expect(emails.getByRole('listitem').filter({ hasText: /^Dispatch:/ })).toHaveText(/^Dispatch: sent /);
  await expect(emails).not.toContainText('Dispatch: pending');
  await expectAccessible(page);
});
