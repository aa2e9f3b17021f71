import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch, stubWindowOpen } from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

const SESSION_ID = 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqR';
const CHECKOUT_URL = `https://checkout.stripe.test/c/pay/${SESSION_ID}`;

async function fillOrder(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Daphnia Magna' }));
  await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
  await user.type(screen.getByLabelText('Full Name *'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Email *'), 'ada@example.com');
  await user.type(screen.getByLabelText('Phone Number (Optional)'), '0161 496 0000');
  await user.type(screen.getByLabelText('Delivery Address *'), '1 Test Street');
  await user.type(screen.getByLabelText('Postcode *'), 'SW1A 1AA');
}

function paidStatus() {
  return jsonResponse({
    status: 'paid',
    reference: 'i9J0kLmNoPqR',
    bottles: 6,
    total: 2445,
    dispatchDate: '2026-11-30',
  });
}

describe('order page: details kept', () => {
  it('restores the form in the same tab after Cancel or Back from the payment page', async () => {
    const first = renderApp('/');
    await fillOrder(first.user);
    first.unmount();

    // The payment page's Cancel (or Back) loads the shop again in this tab.
    renderApp('/');

    expect(screen.getByRole('button', { name: 'Daphnia Magna' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('6 bottles')).toBeInTheDocument();
    expect(screen.getByLabelText('Full Name *')).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Email *')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Phone Number (Optional)')).toHaveValue('0161 496 0000');
    expect(screen.getByLabelText('Delivery Address *')).toHaveValue('1 Test Street');
    expect(screen.getByLabelText('Postcode *')).toHaveValue('SW1A 1AA');
  });

  it('ignores a saved form it cannot trust', () => {
    sessionStorage.setItem(
      'live-aquatics:order-form',
      JSON.stringify({ selected: true, quantity: 1000, details: { name: 42, email: 'x@example.com' } }),
    );

    renderApp('/');

    expect(screen.getByText('3 bottles')).toBeInTheDocument();
    expect(screen.getByLabelText('Full Name *')).toHaveValue('');
    expect(screen.getByLabelText('Email *')).toHaveValue('x@example.com');
  });
});

describe('order page: after the payment succeeds in the other tab', () => {
  it('shows the order as placed with its reference, and a new order takes "Place another order"', async () => {
    stubFetch(jsonResponse({ url: CHECKOUT_URL, sessionId: SESSION_ID }), paidStatus());
    const { tab } = stubWindowOpen();
    const shop = renderApp('/');
    await fillOrder(shop.user);
    await shop.user.click(screen.getByRole('button', { name: 'Secure Checkout with Stripe' }));
    await waitFor(() => expect(tab.location.href).toBe(CHECKOUT_URL));

    // The payment tab lands on the success page, which tells the shop tab.
    const paymentTab = renderApp(`/success?session_id=${SESSION_ID}`);
    expect(
      await within(paymentTab.container).findByRole('heading', { name: /Payment Successful!/ }),
    ).toBeInTheDocument();

    const shopView = within(shop.container);
    expect(await shopView.findByRole('heading', { name: 'Your order is placed' })).toBeInTheDocument();
    expect(shopView.getByText('i9J0kLmNoPqR')).toBeInTheDocument();
    expect(shopView.queryByRole('button', { name: 'Secure Checkout with Stripe' })).not.toBeInTheDocument();
    expect(sessionStorage.getItem('live-aquatics:order-form')).toBeNull();

    await shop.user.click(shopView.getByRole('button', { name: 'Place another order' }));

    const card = shopView.getByRole('button', { name: 'Daphnia Magna' });
    expect(card).toHaveAttribute('aria-pressed', 'false');
    expect(card).toHaveFocus();
    await shop.user.click(card);
    expect(shopView.getByLabelText('Full Name *')).toHaveValue('');
  });

  it('keeps the form when a payment it did not open succeeds', async () => {
    stubFetch(paidStatus());
    const shop = renderApp('/');
    await fillOrder(shop.user);

    const other = renderApp(`/success?session_id=${SESSION_ID}`);
    await within(other.container).findByRole('heading', { name: /Payment Successful!/ });

    // Give a stray message time to arrive: nothing changes.
    await new Promise((done) => setTimeout(done, 50));
    expect(within(shop.container).getByLabelText('Full Name *')).toHaveValue('Ada Lovelace');
  });
});

describe('success page: a payment not completed', () => {
  it('links back to the payment page this browser opened, while the session is open', async () => {
    stubFetch(jsonResponse({ url: CHECKOUT_URL, sessionId: SESSION_ID }));
    stubWindowOpen();
    const shop = renderApp('/');
    await fillOrder(shop.user);
    await shop.user.click(screen.getByRole('button', { name: 'Secure Checkout with Stripe' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Secure Checkout with Stripe' })).toBeEnabled(),
    );
    shop.unmount();

    stubFetch(
      jsonResponse({
        status: 'open',
        reference: 'i9J0kLmNoPqR',
        bottles: 6,
        total: 2445,
        dispatchDate: '2026-11-30',
      }),
    );
    renderApp(`/success?session_id=${SESSION_ID}`);

    await screen.findByRole('heading', { name: 'Payment not completed' });
    expect(screen.getByRole('link', { name: 'Return to the payment page' })).toHaveAttribute(
      'href',
      CHECKOUT_URL,
    );
    expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
  });
});

describe('order page: a payment held for review in the other tab', () => {
  it('shows the payment received and being checked, never a live form or "placed"', async () => {
    stubFetch(
      jsonResponse({ url: CHECKOUT_URL, sessionId: SESSION_ID }),
      jsonResponse({
        status: 'in_review',
        reference: 'i9J0kLmNoPqR',
        bottles: 6,
        total: 2445,
        dispatchDate: '2026-11-30',
      }),
    );
    const { tab } = stubWindowOpen();
    const shop = renderApp('/');
    await fillOrder(shop.user);
    await shop.user.click(screen.getByRole('button', { name: 'Secure Checkout with Stripe' }));
    await waitFor(() => expect(tab.location.href).toBe(CHECKOUT_URL));

    renderApp(`/success?session_id=${SESSION_ID}`);

    const shopView = within(shop.container);
    expect(
      await shopView.findByRole('heading', { name: 'Payment received, we are checking your order' }),
    ).toBeInTheDocument();
    expect(shopView.getByText(/You do not need to pay again/)).toBeInTheDocument();
    expect(shopView.queryByText('Your order is placed')).not.toBeInTheDocument();
    expect(shopView.queryByRole('button', { name: 'Secure Checkout with Stripe' })).not.toBeInTheDocument();
  });
});

describe('order page: a Direct Debit still with the bank, seen in the other tab', () => {
  it('shows the order placed and waiting for the bank, never a live form or "we have received your payment"', async () => {
    stubFetch(
      jsonResponse({ url: CHECKOUT_URL, sessionId: SESSION_ID }),
      jsonResponse({
        status: 'unpaid',
        reference: 'i9J0kLmNoPqR',
        bottles: 6,
        total: 2445,
        dispatchDate: '2026-11-30',
      }),
    );
    const { tab } = stubWindowOpen();
    const shop = renderApp('/');
    await fillOrder(shop.user);
    await shop.user.click(screen.getByRole('button', { name: 'Secure Checkout with Stripe' }));
    await waitFor(() => expect(tab.location.href).toBe(CHECKOUT_URL));

    renderApp(`/success?session_id=${SESSION_ID}`);

    const shopView = within(shop.container);
    const heading = await shopView.findByRole('heading', {
      name: 'Your order is placed, waiting for your bank',
    });
    const view = heading.closest('section');
    if (!view) throw new Error('the view has no section');
    expect(view).toHaveTextContent(
      'Your bank is processing your payment, which can take a few working days. You do not need to order again: we will email you as soon as it clears.',
    );
    expect(within(view).getByText('Order Reference').nextElementSibling).toHaveTextContent('i9J0kLmNoPqR');
    expect(shopView.queryByText(/We have received your payment/)).not.toBeInTheDocument();
    expect(shopView.queryByRole('button', { name: 'Secure Checkout with Stripe' })).not.toBeInTheDocument();
  });
});
