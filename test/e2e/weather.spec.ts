import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { toOrderItem } from '../../lambdas/domain/checkout/paid-checkout';
import { dispatchDayKey, dispatchSortKey } from '../../lambdas/domain/storage/orders-table';
import {
  addDays,
  addWorkingDays,
  expectedArrivalDate,
  firstComingDispatchDay,
  formatDispatchDate,
  type IsoDate,
} from '../../shared/dispatch';
import { quoteOrder } from '../../shared/pricing';
import { expectAccessible } from './support/customer';
import { expect, type Stack, test } from './support/fixtures';
import { signIn } from './support/merchant';
import { docsPicture } from './support/pictures';
import { STACK_ENV } from './support/stack';

// The weather check of the coming dispatch day on a 360 × 800 phone, against the whole local stack
// and its Open-Meteo stand-in. Earlier in the week than the evening two days before that day, the
// stack runs the weather check (only it) on a clock set to that evening (global-setup.ts,
// LOCAL_WEATHER_NOW's option). Other specs' orders share the day: each is asserted by its reference,
// at postcode areas no other spec uses (Inverness, Truro, Lerwick), and counted on from theirs.

const PHONE = { width: 360, height: 800 };
const FORECAST_URL = process.env[STACK_ENV.forecast] ?? '';
const INVERNESS = { latitude: 57.48, longitude: -4.22 };

/** The weather clock the stack runs on: the set evening, or now. */
function weatherNow(): Date {
  const set = process.env[STACK_ENV.weatherNow];
  return set ? new Date(set) : new Date();
}

async function setForecast(body: object): Promise<void> {
  const response = await fetch(`${FORECAST_URL}/__set`, { method: 'POST', body: JSON.stringify(body) });
  expect(response.status).toBe(204);
}

/** A paid order of 3 bottles for `day` at `postcode`, written as fulfilment writes it; its reference. */
async function seedOrder(
  stack: Stack,
  day: IsoDate,
  customer: { name: string; email: string },
  postcode: string,
): Promise<string> {
  // Upper-case hex: the reference reads the same wherever the page shows it.
  const sessionId = `cs_test_${randomUUID().replace(/-/g, '').slice(0, 24).toUpperCase()}`;
  const paidAt = new Date(`${addDays(day, -3)}T10:00:00Z`);
  const mapped = toOrderItem(
    {
      sessionId,
      paymentIntentId: undefined,
      livemode: false,
      quote: quoteOrder(3),
      currency: 'gbp',
      customer: { ...customer, phone: '07700 900123', address: '2 Frost Lane', postcode },
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
  return mapped.reference;
}

test.describe('the weather check in /admin', () => {
  // Both stacks (npm start's and the rehearsal's) start the forecast stand-in: without it, fail.
  test.beforeAll(() => {
    expect(FORECAST_URL, 'the stack started no forecast stand-in').not.toBe('');
  });
  test.afterEach(async () => {
    await setForecast({ delayMs: 0 });
  });

  test('a frost at one customer’s place for two days: only that order at risk, and the delay skips the frosty next day', async ({
    page,
    stack,
  }) => {
    test.setTimeout(180_000);
    const now = weatherNow();
    const day = firstComingDispatchDay(now);
    const next = addWorkingDays(day, 1);
    const fineDay = addWorkingDays(day, 2);
    const run = randomUUID().slice(0, 8);
    const frosty = { name: `Fay Frost${run}`, email: `fay.${run}@example.com` };
    const mild = { name: `Mo Mild${run}`, email: `mo.${run}@example.com` };
    // −5 °C in Inverness on the dispatch day and the working day after (the old delay's target).
    for (const date of new Set([day, expectedArrivalDate(day), next]))
      await setForecast({ ...INVERNESS, date, min: -5, max: 2 });
    const atRisk = await seedOrder(stack, day, frosty, 'IV2 3AA');
    const fine = await seedOrder(stack, day, mild, 'TR1 2AA');

    await signIn(page);
    await page.setViewportSize(PHONE);
    const heading = `Weather for ${formatDispatchDate(day)}`;
    const card = page.getByRole('form', { name: heading });
    const list = card.getByRole('list', { name: heading });
    await expect(list).toBeVisible({ timeout: 20_000 });

    // The order at risk names its customer (a link to the order), its reason and where the delay takes it.
    const weekday = (date: string) => formatDispatchDate(date).split(' ')[0];
    const why = `${formatDispatchDate(fineDay)}: −5 °C in Inverness on ${weekday(day)} morning; ${weekday(next)} at risk too: −5 °C in Inverness on ${weekday(next)} morning; ${weekday(fineDay)} fine`;
    await expect(list.getByRole('listitem').filter({ hasText: atRisk })).toHaveText(
      `At risk ${frosty.name} (${atRisk}): −5 °C in Inverness on ${weekday(day)} morning Delay: ${why}`,
    );
    await expect(list.getByRole('link', { name: frosty.name })).toHaveAttribute(
      'href',
      `/admin?order=${atRisk}`,
    );
    await expect(list.getByRole('listitem').filter({ hasText: fine })).toHaveText(
      `Fine ${mild.name} (${fine}): 6 °C to 12 °C in Truro`,
    );
    await expect(card.getByRole('alert')).toHaveCount(0);
    await expectAccessible(page);
    // The README's picture of the week's weather check (merchant-phone.spec.ts takes the week's).
    await card.screenshot({ path: docsPicture('admin-weather-360.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The delay takes every order at risk of the day (only this spec makes any), past the frosty next day.
    const fineText = formatDispatchDate(fineDay);
    await card.getByRole('button', { name: `Delay the 1 order at risk to ${fineText}` }).click();
    await expect(card).toContainText(
      `Email 1 customer that their order moves: ${frosty.name} to ${fineText}?`,
    );
    await card.getByRole('button', { name: 'Confirm' }).click();
    await expect(
      card.getByText(
        `1 order at risk moved from ${formatDispatchDate(day)}; 1 delay email sent to the customers.`,
      ),
    ).toBeVisible({ timeout: 20_000 });
    const moved = card.getByRole('list', { name: 'Moved' });
    await expect(moved).toHaveText(`Moved ${frosty.name} (${atRisk}): ${why}`);
    await expect(moved).toBeInViewport();

    // Its customer has one delay email, for the fine day; the other order stays, fine, and emailed nothing.
    await expect
      .poll(async () => (await stack.emailsTo(frosty.email)).map((email) => email.subject), {
        timeout: 10_000,
      })
      .toEqual([expect.stringContaining(`new dispatch date for order ${atRisk}: ${fineText}`)]);
    expect(await stack.emailsTo(mild.email)).toEqual([]);
    // The card checks the day again once the delay is done; the result stays until dismissed.
    await expect(list.getByRole('listitem').filter({ hasText: fine })).toHaveText(
      `Fine ${mild.name} (${fine}): 6 °C to 12 °C in Truro`,
      { timeout: 20_000 },
    );
    await expect(list.getByRole('listitem').filter({ hasText: atRisk })).toHaveCount(0);
    await expect(moved).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    await card.getByRole('button', { name: 'Dismiss' }).click();
    await expect(moved).toHaveCount(0);
  });

  test('a forecast provider that times out leaves the week working and says so', async ({ page, stack }) => {
    test.setTimeout(120_000);
    const day = firstComingDispatchDay(weatherNow());
    const run = randomUUID().slice(0, 8);
    // Lerwick's forecast is not cached yet: it must be asked for, and the answer comes too late.
    const slow = { name: `Sid Slow${run}`, email: `sid.${run}@example.com` };
    const unseen = await seedOrder(stack, day, slow, 'ZE1 0AA');
    await setForecast({ delayMs: 5_000 });

    await signIn(page);
    await page.setViewportSize(PHONE);
    const heading = `Weather for ${formatDispatchDate(day)}`;
    const card = page.getByRole('form', { name: heading });
    await expect(card.getByRole('alert')).toHaveText(
      'Could not see the forecast for some orders, so they are not checked. Try again later.',
      { timeout: 20_000 },
    );
    await expect(
      card.getByRole('list', { name: heading }).getByRole('listitem').filter({ hasText: unseen }),
    ).toHaveText(`Unknown ${slow.name} (${unseen}): Could not see the forecast for Lerwick`);
    // The rest of the week is there and works.
    await expect(page.getByRole('heading', { name: /^To dispatch on / })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Shop & capacity', exact: true })).toBeEnabled();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});
