import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shopStatusReads, stubFetch, stubShopStatus } from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

// The dispatch note when the merchant limits the bottles per dispatch day: shop-status names the
// first day with room, and the page promises that day, not the calendar's full one.

afterEach(() => {
  vi.useRealTimers();
});

/** Wednesday 18 November 2026: the calendar's day is Monday 23 November (cut-off Saturday noon). */
function onWednesday18November() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-18T12:00:00Z'));
}

const checkout = () => screen.getByRole('region', { name: 'Checkout' });

describe('the dispatch note and the days with room', () => {
  it('the calendar day is full: the note names the next day with room, and when most orders arrive', async () => {
    onWednesday18November();
    stubShopStatus({ mode: 'open', dispatchDate: '2026-11-30' });
    stubFetch();
    renderApp('/');

    await waitFor(() =>
      expect(checkout()).toHaveTextContent(
        'Monday 23 November is fully booked: orders placed now are dispatched on Monday 30 November. Most orders arrive the next day, Tuesday 1 December.',
      ),
    );
    expect(checkout()).not.toHaveTextContent('for dispatch on Monday 23 November');
  });

  it('no day with room for 8 weeks: the note says so, and promises no day', async () => {
    onWednesday18November();
    stubShopStatus({ mode: 'open', dispatchDate: null });
    stubFetch();
    renderApp('/');

    await waitFor(() =>
      expect(checkout()).toHaveTextContent(
        'Every dispatch day for the next 8 weeks is fully booked. Please check back soon.',
      ),
    );
    expect(checkout()).not.toHaveTextContent('for dispatch on');
  });

  it.each([
    ['the calendar day has room', { mode: 'open', dispatchDate: '2026-11-23' }],
    ['the shop sets no limits', { mode: 'open' }],
    ['a malformed day', { mode: 'open', dispatchDate: 'next Monday' }],
  ])('%s: the calendar plan', async (_case, status) => {
    onWednesday18November();
    stubShopStatus(status);
    stubFetch();
    renderApp('/');

    await waitFor(() => expect(shopStatusReads()).toBe(1));
    expect(checkout()).toHaveTextContent(
      'Order by 12:00 on Saturday 21 November for dispatch on Monday 23 November. Most orders arrive the next day, Tuesday 24 November.',
    );
  });
});
