import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  jsonResponse,
  requestOf,
  stubFetch,
  stubShopStatus,
  stubWindowOpen,
} from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

const CHECKOUT_URL = 'https://checkout.stripe.test/c/pay/cs_test_a1B2c3D4e5F6g7H8';

function howOften() {
  return screen.getByRole('group', { name: 'How often?' });
}

function choice(name: 'Once' | 'Every week' | 'Every 2 weeks') {
  return within(howOften()).getByRole('radio', { name });
}

/** Fixes the clock (Date only: the page's timers stay real) at a London instant. */
function at(instant: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(instant));
}

async function prepareOrder(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Daphnia Magna' }));
  await user.type(screen.getByLabelText('Full Name *'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Email *'), 'ada@example.com');
  await user.type(screen.getByLabelText('Delivery Address *'), '1 Test Street');
  await user.type(screen.getByLabelText('Postcode *'), 'SW1A 1AA');
}

async function submittedBody(user: UserEvent): Promise<string | undefined> {
  const fetchMock = stubFetch(jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }));
  stubWindowOpen();
  await user.click(screen.getByRole('button', { name: 'Secure Checkout with Stripe' }));
  await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
  return requestOf(fetchMock).body;
}

describe('order page: how often (standing orders, issue 50)', () => {
  it('offers Once, Every week and Every 2 weeks once the product is chosen, Once by default', async () => {
    const { user } = renderApp('/');
    expect(screen.queryByRole('group', { name: 'How often?' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Daphnia Magna' }));

    const radios = within(howOften()).getAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['once', 'weekly', 'fortnightly']);
    expect(choice('Once')).toBeChecked();
    expect(choice('Every week')).not.toBeChecked();
    expect(choice('Every 2 weeks')).not.toBeChecked();
    expect(screen.queryByText(/a delivery/)).not.toBeInTheDocument();
  });

  it('sends the spec\'s one-off body, without "repeat", when Once is left chosen', async () => {
    const { user } = renderApp('/');
    await prepareOrder(user);

    const body = await submittedBody(user);

    expect(body).toBe(
      JSON.stringify({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '',
        address: '1 Test Street',
        postcode: 'SW1A 1AA',
        quantity: 3,
        subtotal: 9.75,
        shipping: 4.95,
        total: 14.7,
      }),
    );
  });

  it('with Every 2 weeks, shows the price each time and sends repeat "fortnightly"', async () => {
    at('2026-12-07T10:00:00Z');
    const { user } = renderApp('/');
    await prepareOrder(user);

    await user.click(choice('Every 2 weeks'));

    expect(howOften()).toHaveTextContent('£14.70 a delivery (3 bottles at £3.25 and £4.95 delivery)');
    expect(howOften()).toHaveTextContent(
      "£14.70 every 2 weeks by card: paid today at checkout, then every other Monday, each time before that delivery's packing cut-off.",
    );
    const body = await submittedBody(user);
    expect(JSON.parse(body ?? '{}')).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '',
      address: '1 Test Street',
      postcode: 'SW1A 1AA',
      quantity: 3,
      subtotal: 9.75,
      shipping: 4.95,
      total: 14.7,
      repeat: 'fortnightly',
    });
  });

  it('sends no repeat after going back to Once', async () => {
    const { user } = renderApp('/');
    await prepareOrder(user);
    await user.click(choice('Every week'));

    await user.click(choice('Once'));

    expect(screen.queryByText(/a delivery/)).not.toBeInTheDocument();
    expect(JSON.parse((await submittedBody(user)) ?? '{}')).not.toHaveProperty('repeat');
  });

  it('says for Every week, on a Sunday after the cut-off, the cost, the payments, the first deliveries and how to stop', async () => {
    // Sunday 13 December 2026, 15:00 in London: past the cut-off for Monday 14 December.
    at('2026-12-13T15:00:00Z');
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Daphnia Magna' }));
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));

    await user.click(choice('Every week'));

    const live = howOften().querySelector('[aria-live="polite"]');
    expect(live).toHaveTextContent(
      "£24.45 a delivery (6 bottles at £3.25 and £4.95 delivery)£24.45 every week by card: paid today at checkout, then every Sunday, each time before that delivery's packing cut-off.",
    );
    const deliveries = within(howOften()).getByRole('list', { name: 'Your first deliveries:' });
    expect(
      within(deliveries)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Paid today, dispatched Monday 21 December',
      'Paid Sunday 20 December, dispatched Tuesday 29 December',
      'Paid Sunday 27 December, dispatched Monday 4 January 2027',
    ]);
    expect(howOften()).toHaveTextContent(
      'To skip a delivery, pause or stop your standing order, reply to your confirmation email or email hello@live-aquatics.test.',
    );
    expect(within(howOften()).getByRole('link', { name: 'hello@live-aquatics.test' })).toHaveAttribute(
      'href',
      'mailto:hello@live-aquatics.test',
    );
    // Managing it online is not built yet: nothing promises it.
    expect(howOften()).not.toHaveTextContent(/online|order's page|this page/i);
  });

  it('follows the quantity: 9 bottles every week', async () => {
    at('2026-12-07T10:00:00Z');
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Daphnia Magna' }));
    await user.click(choice('Every week'));

    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));

    expect(howOften()).toHaveTextContent('£34.20 a delivery (9 bottles at £3.25 and £4.95 delivery)');
    expect(howOften()).toHaveTextContent(
      '£34.20 every week by card: paid today at checkout, then every Monday',
    );
  });

  it('can be chosen with the keyboard alone: Tab into the group, arrows to move', async () => {
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Daphnia Magna' }));
    choice('Once').focus();

    await user.keyboard('{ArrowDown}');
    expect(choice('Every week')).toBeChecked();
    expect(choice('Every week')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(choice('Every 2 weeks')).toBeChecked();
    expect(screen.getByText(/every other/)).toBeInTheDocument();
  });

  it('is not offered while the shop takes order requests: a standing order needs a payment page', async () => {
    stubShopStatus({ mode: 'requests' });
    stubFetch();
    const { user } = renderApp('/');
    await screen.findByRole('button', { name: 'Send order request' });

    await user.click(screen.getByRole('button', { name: 'Daphnia Magna' }));

    expect(screen.getByLabelText('Full Name *')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'How often?' })).not.toBeInTheDocument();
  });
});
