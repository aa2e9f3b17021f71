import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_API, ADMIN_BASE_ROUTES, signedInAdmin, stubAdminNetwork } from '../../helpers/admin-network';
import { jsonResponse, stubLocationAssign } from '../../helpers/fake-browser';

// The admin's standing orders (issue 50): listed with their next delivery and payment, paused
// ones saying by whom, and a cancel that asks first and says what was emailed.

function standingOrder(overrides: Record<string, unknown> = {}) {
  return {
    subscriptionId: 'sub_ann0000001',
    reference: 'sub_ann0000001'.slice(-12),
    status: 'active',
    customerName: 'Ann Fry',
    customerEmail: 'ann@example.com',
    bottles: 3,
    repeat: 'weekly',
    totalPence: 1470,
    nextDelivery: '2026-12-14',
    nextPaymentAt: '2026-12-12T10:00:00.000Z',
    createdAt: '2026-12-05T10:00:00.000Z',
    ...overrides,
  };
}

const BOB = standingOrder({
  subscriptionId: 'sub_bob0000002',
  reference: 'b0b0000002',
  status: 'paused',
  pausedBy: ['shop'],
  customerName: 'Bob Guppy',
  customerEmail: 'bob@example.com',
  bottles: 6,
  repeat: 'fortnightly',
  totalPence: 2445,
  nextDelivery: undefined,
  nextPaymentAt: undefined,
});

beforeEach(() => {
  stubLocationAssign();
});

describe('the admin: standing orders', () => {
  it('lists each with bottles, repeat, price, next delivery and payment; a paused one says by whom', async () => {
    const calls = stubAdminNetwork({
      ...ADMIN_BASE_ROUTES,
      [`GET ${ADMIN_API}/standing-orders`]: () => jsonResponse({ standingOrders: [standingOrder(), BOB] }),
    });
    signedInAdmin('/admin?view=standing');

    const list = await screen.findByRole('list', { name: 'Standing orders' }, { timeout: 5000 });
    const [ann, bob] = within(list).getAllByRole('listitem');
    if (ann === undefined || bob === undefined) throw new Error('two standing orders');
    expect(within(ann).getByRole('heading', { name: 'Ann Fry active' })).toBeVisible();
    expect(within(ann).getByText('3 bottles every week · £14.70 a delivery')).toBeVisible();
    expect(within(ann).getByText('Monday 14 December')).toBeVisible();
    expect(within(ann).getByText(/^Sat 12 Dec( 2026)?, 10:00$/)).toBeVisible();
    expect(within(bob).getByText('6 bottles every 2 weeks · £24.45 a delivery')).toBeVisible();
    expect(within(bob).getByText('None coming')).toBeVisible();
    expect(within(bob).getByText("by the shop's pause: no payment taken")).toBeVisible();
    expect(screen.getByRole('link', { name: 'Standing orders' })).toHaveAttribute('aria-current', 'page');
    // Sorted by next delivery, as the merchant plans the week.
    expect(calls.find((call) => call.url.includes('/standing-orders'))?.url).toContain('sort=next');
  });

  it('cancels one after asking, says the email went, and lists again', async () => {
    let cancelled = false;
    const calls = stubAdminNetwork({
      ...ADMIN_BASE_ROUTES,
      [`GET ${ADMIN_API}/standing-orders`]: () =>
        jsonResponse({
          standingOrders: [
            standingOrder(
              cancelled ? { status: 'cancelled', nextDelivery: undefined, nextPaymentAt: undefined } : {},
            ),
          ],
        }),
      [`POST ${ADMIN_API}/standing-orders/cancel`]: () => {
        cancelled = true;
        return jsonResponse({
          changed: true,
          email: 'sent',
          standingOrder: standingOrder({ status: 'cancelled', cancelledAt: '2026-12-07T09:00:00.000Z' }),
        });
      },
    });
    const { user } = signedInAdmin('/admin?view=standing');

    await user.click(await screen.findByRole('button', { name: 'Cancel standing order' }, { timeout: 5000 }));
    expect(
      screen.getByText(
        "Cancel Ann Fry's standing order? No more payments or deliveries; ann@example.com is emailed once. A delivery already paid still goes.",
      ),
    ).toBeVisible();
    expect(calls.filter((call) => call.method === 'POST' && call.url.endsWith('/cancel'))).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Cancel it' }));

    expect(
      await screen.findByText(
        'Cancelled: no more payments or deliveries for Ann Fry. Email sent to ann@example.com.',
      ),
    ).toBeVisible();
    const posts = calls.filter(
      (call) => call.method === 'POST' && call.url.endsWith('/standing-orders/cancel'),
    );
    expect(posts.map((call) => JSON.parse(call.body))).toEqual([{ subscriptionId: 'sub_ann0000001' }]);
    expect(await screen.findByRole('heading', { name: 'Ann Fry cancelled' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Cancel standing order' })).toBeNull();
  });

  it('says when there are none', async () => {
    stubAdminNetwork({
      ...ADMIN_BASE_ROUTES,
      [`GET ${ADMIN_API}/standing-orders`]: () => jsonResponse({ standingOrders: [] }),
    });
    signedInAdmin('/admin?view=standing');

    expect(await screen.findByText('No standing orders.', {}, { timeout: 5000 })).toBeVisible();
  });
});
