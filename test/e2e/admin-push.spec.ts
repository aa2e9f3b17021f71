import { pushesFor, testSubscription } from '../support/push-subscriber';
import { fillDeliveryDetails, openPaymentTab, payWithCard } from './support/customer';
import { expect as baseExpect, test } from './support/fixtures';
import { signIn } from './support/merchant';
import { STACK_ENV } from './support/stack';

// The merchant's notifications (ADR 0056) on a 360 × 800 phone, against the whole stack (local or
// rehearsed): notifications turned on in /admin, a customer pays, and the push reaches the device
// encrypted to its own keys, carrying the order's reference and /admin?order=….
//
// Headless Chromium has no push service to subscribe at (no network here, and no FCM in headless):
// the permission is granted through the context, and an init script replaces
// PushManager.subscribe with one that returns a subscription at the push-service stand-in whose
// ECDH key pair and auth secret the test holds, so the test decrypts what the shop sent, as the
// browser would. Everything else (the click, the permission prompt's answer, the worker's
// registration, the admin routes, the webhook's push) is the real thing.

const PHONE = { width: 360, height: 800 };
// The admin API's first answers can take seconds on a loaded 2-core machine.
const expect = baseExpect.configure({ timeout: 20_000 });

test('a paid order reaches the merchant’s phone as a push it can read: reference and /admin?order=…', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(180_000);
  const pushUrl = process.env[STACK_ENV.push] ?? '';
  expect(pushUrl).not.toBe('');
  const device = testSubscription(pushUrl);
  await context.grantPermissions(['notifications']);
  await context.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      // The stand-in subscription the page's PushManager hands out (see the note above).
      let current: PushSubscription | null = null;
      const subscription = {
        endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      } as unknown as PushSubscription;
      PushManager.prototype.subscribe = async function subscribe() {
        current = subscription;
        return subscription;
      };
      PushManager.prototype.getSubscription = async function getSubscription() {
        return current;
      };
    },
    { endpoint: device.endpoint, p256dh: device.p256dh, auth: device.auth },
  );

  // The merchant turns notifications on, on the phone.
  await page.setViewportSize(PHONE);
  await signIn(page);
  await page.getByRole('link', { name: 'Shop & capacity' }).click();
  await page.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(page.getByText('Notifications are on for this device.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Turn off notifications' })).toBeVisible();

  // A customer, elsewhere, buys 6 bottles.
  const customer = await browser.newContext();
  const shop = await customer.newPage();
  await shop.goto(new URL('/', page.url()).href);
  await shop.getByRole('button', { name: /Daphnia Magna/ }).click();
  await shop.getByRole('button', { name: /increase/i }).click();
  await fillDeliveryDetails(shop, {
    name: 'Pat Pusher',
    email: 'pat.push@example.com',
    address: '1 High Street\nLondon',
    postcode: 'SW1A 1AA',
  });
  const payment = await openPaymentTab(shop, customer);
  await payWithCard(payment, '4242 4242 4242 4242', '£24.45');
  await payment.waitForURL(/\/success\?session_id=cs_test_/);
  const paidAt = Date.now();
  const reference = (new URL(payment.url()).searchParams.get('session_id') ?? '').slice(-12);

  // One push, within 10 s of the payment, read with the device's own keys.
  await expect.poll(async () => (await pushesFor(pushUrl, device.id)).length, { timeout: 10_000 }).toBe(1);
  expect(Date.now() - paidAt).toBeLessThan(10_000);
  const [push] = await pushesFor(pushUrl, device.id);
  const message = JSON.parse(device.decrypt(push?.body ?? '')) as Record<string, unknown>;
  expect(message).toMatchObject({
    kind: 'order',
    title: 'New order',
    reference,
    url: `/admin?order=${reference}`,
  });
  expect(String(message.body)).toMatch(new RegExp(`^${reference}: 6 bottles, £24\\.45, dispatch `));
  await customer.close();

  // The URL the notification opens shows that order. Moved to in the page (history and popstate,
  // as a router hears it): the session kept across a reload is ADR 0055's, not this test's.
  await page.evaluate((url) => {
    history.pushState(null, '', url);
    dispatchEvent(new PopStateEvent('popstate'));
  }, String(message.url));
  await expect(page.getByRole('heading', { name: `Order ${reference}` })).toBeVisible();
});
