import { expect as baseExpect, test } from './support/fixtures';
import { signIn } from './support/merchant';
import { seedOrder } from './support/seed-order';

// The installable admin offline (ADR 0055), on a 360 × 800 phone against the whole stack (local,
// or the rehearsal's CloudFront behaviours): after one visit the week opens offline, marked as the
// service worker's copy, and an action says it needs the network instead of trying.

const expect = baseExpect.configure({ timeout: 20_000 });
test.use({ viewport: { width: 360, height: 800 } });

test('offline, /admin opens on the last week it loaded, marked; an action says it needs the network', async ({
  page,
  context,
  stack,
}) => {
  await seedOrder(stack, { name: 'Offline Week', email: 'offline-week@example.com' });
  await signIn(page);
  await expect(page.getByText('Offline Week').first()).toBeVisible();
  // The worker is registered by the admin page itself and claims it.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // Once controlled, a load stores the shell and the week's answers.
  await page.reload();
  await expect(page.getByText('Offline Week').first()).toBeVisible();
  await expect(page.getByText(/^Offline: showing the week as of/)).toHaveCount(0);

  await context.setOffline(true);
  // setOffline does not reach the service worker's own fetches (microsoft/playwright#2311): cut them too.
  await context.route('**', (route) =>
    route.request().serviceWorker() === null ? route.fallback() : route.abort('internetdisconnected'),
  );
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This week' })).toBeVisible();
  await expect(page.getByText(/^Offline: showing the week as of \w+day \d+ \w+ at \d\d:\d\d$/)).toBeVisible();
  await expect(page.getByText('Offline Week').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Merchant sign-in' })).toHaveCount(0);

  await page.getByLabel('New dispatch day').fill('2099-01-05');
  await page.getByRole('button', { name: 'Delay the day' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByText(
      'You are offline: this needs the network. Try again once you are online; pressing again is safe, as nothing is done twice.',
    ),
  ).toBeVisible();
  await context.setOffline(false);
});
