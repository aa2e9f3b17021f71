import { expectAccessible, fillDeliveryDetails, openPaymentTab, payWithCard } from './support/customer';
import { expect, test } from './support/fixtures';

test('a customer chooses Every week, pays on the payment page and lands on the success page', async ({
  page,
  context,
  stack,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Daphnia Magna' }).click();
  const howOften = page.getByRole('group', { name: 'How often?' });
  await expect(howOften.getByRole('radio', { name: 'Once' })).toBeChecked();
  // By keyboard, as radio buttons are used: focus the group's chosen one, then an arrow.
  await howOften.getByRole('radio', { name: 'Once' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(howOften.getByRole('radio', { name: 'Every week' })).toBeChecked();
  await expect(howOften).toContainText('£14.70 a delivery (3 bottles at £3.25 and £4.95 delivery)');
  await expect(howOften).toContainText(
    /£14\.70 every week by card: paid today at checkout, then every \w+day/,
  );
  await fillDeliveryDetails(page, {
    name: 'Wendy Weekly',
    email: 'wendy.weekly@example.com',
    address: '7 Canal Side, Leeds',
    postcode: 'LS1 4AP',
  });
  await expectAccessible(page);

  const checkout = page.waitForRequest('**/functions/v1/create-checkout');
  const payment = await openPaymentTab(page, context);
  expect((await checkout).postDataJSON()).toMatchObject({ quantity: 3, total: 14.7, repeat: 'weekly' });
  await payWithCard(payment, '4242 4242 4242 4242', '£14.70');

  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  const sessionId = new URL(payment.url()).searchParams.get('session_id') ?? '';
  await expect(payment.getByRole('heading', { level: 1 })).toContainText('Payment Successful!');
  await expect.poll(async () => (await stack.emailsTo('wendy.weekly@example.com')).length).toBe(1);
  // The first delivery is the first invoice's order: the page gives the reference its email gives.
  const [confirmation] = await stack.emailsTo('wendy.weekly@example.com');
  const reference = /order (\w+) confirmed/.exec(confirmation?.subject ?? '')?.[1] ?? '';
  expect(reference).toMatch(/^\w{12}$/);
  expect(reference).not.toBe(sessionId.slice(-12));
  await expect(payment.getByText(reference, { exact: true })).toBeVisible();
});
