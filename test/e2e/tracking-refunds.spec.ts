import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectAccessible, fillDeliveryDetails, openPaymentTab, payWithCard } from './support/customer';
import { expect, type Stack, test } from './support/fixtures';
import { signIn } from './support/merchant';
import { seedOrder as seedPaidOrder } from './support/seed-order';
import { stackUrls } from './support/stack';

// Tracking numbers and part refunds on a 360 × 800 phone, against the whole local stack.

const PHONE = { width: 360, height: 800 };

test.describe.configure({ mode: 'serial' });

/** A paid order of 3 bottles on the next dispatch day; its reference. */
async function seedOrder(stack: Stack, customer: { name: string; email: string }): Promise<string> {
  return (await seedPaidOrder(stack, customer)).reference;
}

async function findOrders(page: Page, text: string) {
  await page.getByRole('link', { name: 'Orders & requests', exact: true }).click();
  await page.getByLabel('Search').fill(text);
  await page.getByRole('button', { name: 'Show' }).click();
  return page.getByRole('list', { name: 'Orders and requests found' });
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** The simulator's charge of a PaymentIntent, read with the local secret key. */
async function amountRefunded(paymentIntentId: string): Promise<number> {
  const simulator = stackUrls().simulator;
  const headers = { Authorization: 'Bearer sk_test_local_simulator' };
  const intent = (await (
    await fetch(`${simulator}/v1/payment_intents/${paymentIntentId}`, { headers })
  ).json()) as {
    latest_charge: string;
  };
  const charge = (await (
    await fetch(`${simulator}/v1/charges/${intent.latest_charge}`, { headers })
  ).json()) as {
    amount_refunded: number;
  };
  return charge.amount_refunded;
}

test('tracking: two numbers in one bulk dispatch, one corrected after dispatch, a Click & Drop export imported', async ({
  page,
  stack,
}) => {
  test.setTimeout(90_000);
  const run = randomUUID().slice(0, 8);
  const ada = { name: `Ada Trk${run}`, email: `ada.${run}@example.com` };
  const bea = { name: `Bea Trk${run}`, email: `bea.${run}@example.com` };
  const cy = { name: `Cy Trk${run}`, email: `cy.${run}@example.com` };
  const adaRef = await seedOrder(stack, ada);
  const beaRef = await seedOrder(stack, bea);
  const cyRef = await seedOrder(stack, cy);

  await signIn(page);
  await page.setViewportSize(PHONE);

  // Two orders chosen, each with its own number (one typed spaced, as labels print it).
  const found = await findOrders(page, `Trk${run}`);
  await found.getByRole('checkbox', { name: `Choose ${adaRef} (${ada.name})` }).check();
  await found.getByRole('checkbox', { name: `Choose ${beaRef} (${bea.name})` }).check();
  await found.getByLabel(`Tracking number for ${adaRef}`).fill('ab 1234 5678 9gb');
  await found.getByLabel(`Tracking number for ${beaRef}`).fill('CD987654321GB');
  await expectAccessible(page);
  await noSidewaysScroll(page);
  await page.getByRole('button', { name: 'Mark 2 dispatched' }).click();
  await page.getByRole('button', { name: 'Mark 2 dispatched and email' }).click();
  await expect(
    page.getByText(
      `${adaRef} marked dispatched (tracking AB123456789GB); dispatch email sent to ${ada.email}.`,
      { exact: false },
    ),
  ).toBeVisible();
  await expect(
    page.getByText(`${beaRef} marked dispatched (tracking CD987654321GB)`, { exact: false }),
  ).toBeVisible();
  await expect.poll(async () => (await stack.emailsTo(ada.email)).length).toBe(1);
  const [adaEmail] = await stack.emailsTo(ada.email);
  expect(adaEmail?.body.html).toContain(
    'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
  );

  // Bea's number corrected on her order's page: one short update email.
  await found.getByRole('link', { name: beaRef }).click();
  const dispatch = page.getByRole('form', { name: 'Dispatch' });
  await expect(dispatch).toContainText('tracking CD987654321GB');
  await dispatch.getByLabel('Correct tracking number').fill('CD987654320GB');
  await expectAccessible(page);
  await noSidewaysScroll(page);
  await dispatch.getByRole('button', { name: 'Save tracking number' }).click();
  await expect(
    page.getByText(`Tracking number of ${beaRef} is now CD987654320GB. Update email sent to ${bea.email}.`),
  ).toBeVisible();
  await expect
    .poll(async () => (await stack.emailsTo(bea.email)).map((e) => e.subject))
    .toEqual([
      expect.stringContaining('is on its way'),
      expect.stringMatching(new RegExp(`tracking number for order ${beaRef}$`, 'i')),
    ]);

  // Click & Drop's export: Cy's row matches, a row of another shop's order does not.
  await findOrders(page, `Trk${run}`);
  const csv = `\uFEFF"Order number","Order reference","Recipient name","Tracking number"\r\n"1","${cyRef.toLowerCase()}","${cy.name}","JX 1234 5678 9GB"\r\n"2","NOTOURS${run}","Someone Else","JX123456780GB"\r\n`;
  await page.getByLabel('Choose the Click & Drop export').setInputFiles({
    name: 'click-and-drop-export.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  // Choosing the file previews it and sends nothing; the import goes on Confirm.
  await page.getByRole('button', { name: 'Import and send 1 email…' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByText('1 order matched: 1 marked dispatched, 1 email sent. 1 row not matched.'),
  ).toBeVisible();
  await expect(page.getByRole('list', { name: 'Rows not matched' })).toContainText(`Line 3 (NOTOURS${run})`);
  await expectAccessible(page);
  await noSidewaysScroll(page);
  await expect.poll(async () => (await stack.emailsTo(cy.email)).length).toBe(1);
  expect((await stack.emailsTo(cy.email))[0]?.body.text).toContain('JX123456789GB');
});

test('a part refund of 2 of 6 bottles, then a bottle and the delivery: the charge refunded by exactly their sum', async ({
  page,
  context,
  stack,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const dee = { name: 'Dee Partrefund', email: `dee.${run}@example.com` };
  await page.goto('/');
  await page.getByRole('button', { name: /Daphnia Magna/ }).click();
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await fillDeliveryDetails(page, { ...dee, address: '6 Refund Row\nYork', postcode: 'YO1 7HH' });
  const payment = await openPaymentTab(page, context);
  await payWithCard(payment, '4242 4242 4242 4242', '£24.45');
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  const reference = (new URL(payment.url()).searchParams.get('session_id') ?? '').slice(-12);
  await payment.close();

  await signIn(page);
  await page.setViewportSize(PHONE);
  // Opened by its address: a new page load, and the session's cookie keeps the merchant signed in.
  await page.goto(`/admin?order=${reference.toLowerCase()}`);
  await expect(page.getByRole('heading', { name: `Order ${reference}` })).toBeVisible();
  const dashboard = await page
    .getByRole('link', { name: 'Open in the Stripe Dashboard' })
    .getAttribute('href');
  const paymentIntentId = /\/(pi_[A-Za-z0-9]+)$/.exec(dashboard ?? '')?.[1] ?? '';
  expect(paymentIntentId).not.toBe('');

  const form = page.getByRole('form', { name: `Refund part of ${reference}` });
  await form.getByLabel('Bottles to refund').selectOption('2');
  await form.getByLabel('Reason').selectOption('doa');
  await form.getByRole('button', { name: 'Refund £6.50' }).click();
  await expect(
    form.getByText(`Refund £6.50 to ${dee.name}? Stripe sends it back to their card.`),
  ).toBeVisible();
  await expectAccessible(page);
  await noSidewaysScroll(page);
  await form.getByRole('button', { name: 'Confirm refund of £6.50' }).click();
  await expect(
    page.getByText(
      new RegExp(`^£6\\.50 refunded to ${dee.name} \\(re_.*\\); £6\\.50 of £24\\.45 refunded in all\\.`),
    ),
  ).toBeVisible();
  await expect(page.getByText('Refunded in part', { exact: true })).toBeVisible();

  await form.getByLabel('Bottles to refund').selectOption('1');
  await form.getByLabel(/Refund the delivery too/).check();
  await form.getByLabel('Reason').selectOption('other');
  await form.getByRole('button', { name: 'Refund £8.20' }).click();
  await form.getByRole('button', { name: 'Confirm refund of £8.20' }).click();
  await expect(
    page.getByText(
      new RegExp(`^£8\\.20 refunded to ${dee.name} \\(re_.*\\); £14\\.70 of £24\\.45 refunded in all\\.`),
    ),
  ).toBeVisible();
  await expectAccessible(page);

  expect(await amountRefunded(paymentIntentId)).toBe(1470);
  await expect
    .poll(
      async () =>
        (await stack.emailsTo(dee.email)).filter((e) => /refunded for order/.test(e.subject)).length,
    )
    .toBe(2);
  // The history shows both, by the merchant; the order itself stands (paid).
  await expect(page.getByText(/partly-refunded \(£6\.50 for 2 bottles, doa/)).toBeVisible();
  await expect(page.getByText(/partly-refunded \(£8\.20 for 1 bottle and the delivery, other/)).toBeVisible();
});
