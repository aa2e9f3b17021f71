import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  jsonResponse,
  requestOf,
  shopStatusReads,
  stubFetch,
  stubLocationAssign,
  stubShopStatus,
  stubWindowOpen,
} from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

function productCard() {
  return screen.getByRole('button', { name: 'Daphnia Magna' });
}

function checkoutButton() {
  return screen.getByRole('button', { name: 'Secure Checkout with Stripe' });
}

async function fillOrder(user: UserEvent) {
  await user.click(productCard());
  await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
  await user.type(screen.getByLabelText('Full Name *'), 'Rita Request');
  await user.type(screen.getByLabelText('Email *'), 'rita@example.com');
  await user.type(screen.getByLabelText('Delivery Address *'), '2 Pond Lane, Leeds');
  await user.type(screen.getByLabelText('Postcode *'), 'LS1 4AP');
}

/** The tab comes back into view: the browser fires both, in either order. */
function returnToTab() {
  fireEvent(document, new Event('visibilitychange'));
  fireEvent(window, new Event('focus'));
}

/** Nothing on the page promises a dispatch day or says when to order by. */
function expectNoDispatchPromise() {
  expect(screen.queryByText(/Order by|for dispatch on|We dispatch on Mondays/)).not.toBeInTheDocument();
}

describe('the order page and the shop mode the merchant set: paused', () => {
  it('offers no form: the merchant message says why, the card is shown but cannot be chosen, no dispatch promise', async () => {
    stubShopStatus({ mode: 'paused', message: 'Frozen ponds: back on 4 January.' });
    stubFetch();
    renderApp('/');

    const banner = await screen.findByText('Frozen ponds: back on 4 January.');
    expect(screen.getByRole('heading', { name: 'We are not taking orders at the moment' })).toBeVisible();
    expect(banner.closest('[role="status"]')).not.toBeNull();
    // Above the form: the banner comes before the product card in the document.
    const card = productCard();
    expect(banner.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(card).toBeDisabled();
    expect(within(card).getByText('Unavailable')).toBeInTheDocument();
    expect(within(card).getByText('£9.75 for 3 bottles')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Checkout' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Checkout|order request/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expectNoDispatchPromise();
  });

  it('hides an order already started, and gives it back as typed when the shop reopens', async () => {
    stubFetch();
    const { user } = renderApp('/');
    await fillOrder(user);
    expect(screen.getByText('6 bottles')).toBeInTheDocument();

    stubShopStatus({ mode: 'paused', message: 'Back on Monday.' });
    act(() => returnToTab());

    expect(await screen.findByText('Back on Monday.')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: /How many bottles/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Full Name *')).not.toBeInTheDocument();
    expect(productCard()).toHaveAttribute('aria-pressed', 'false');
    expectNoDispatchPromise();

    stubShopStatus({ mode: 'open' });
    act(() => returnToTab());

    expect(await screen.findByLabelText('Full Name *')).toHaveValue('Rita Request');
    expect(screen.getByText('6 bottles')).toBeInTheDocument();
    expect(productCard()).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByText('Back on Monday.')).not.toBeInTheDocument();
  });

  it('says why even when the merchant left no message', async () => {
    stubShopStatus({ mode: 'paused' });
    stubFetch();
    renderApp('/');

    expect(
      await screen.findByRole('heading', { name: 'We are not taking orders at the moment' }),
    ).toBeVisible();
    expect(productCard()).toBeDisabled();
  });
});

describe('the order page and the shop mode the merchant set: a resume is picked up without a reload', () => {
  it('opens the form when the tab regains focus after the merchant resumed', async () => {
    stubShopStatus({ mode: 'paused', message: 'Frozen ponds: back on 4 January.' });
    stubFetch();
    renderApp('/');
    await waitFor(() => expect(productCard()).toBeDisabled());

    stubShopStatus({ mode: 'open' });
    act(() => {
      fireEvent(window, new Event('focus'));
    });

    await waitFor(() => expect(productCard()).toBeEnabled());
    expect(checkoutButton()).toBeEnabled();
    expect(screen.queryByText('Frozen ponds: back on 4 January.')).not.toBeInTheDocument();
    expect(within(productCard()).getByText('Select')).toBeInTheDocument();
  });

  it('opens the form when the tab becomes visible again', async () => {
    stubShopStatus({ mode: 'paused' });
    stubFetch();
    renderApp('/');
    await waitFor(() => expect(productCard()).toBeDisabled());

    stubShopStatus({ mode: 'open' });
    act(() => {
      fireEvent(document, new Event('visibilitychange'));
    });

    await waitFor(() => expect(productCard()).toBeEnabled());
  });

  it('reads once when focus and visibility arrive together, and not at all while the tab is hidden', async () => {
    stubShopStatus({ mode: 'paused' });
    stubFetch();
    renderApp('/');
    await waitFor(() => expect(productCard()).toBeDisabled());
    expect(shopStatusReads()).toBe(1);

    act(() => returnToTab());
    await waitFor(() => expect(shopStatusReads()).toBe(2));

    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => {
      fireEvent(document, new Event('visibilitychange'));
    });
    await new Promise((wait) => setTimeout(wait, 50));
    expect(shopStatusReads()).toBe(2);
  });

  it('keeps the last answer when a later read fails: a paused shop does not look open', async () => {
    stubShopStatus({ mode: 'paused', message: 'Back on Monday.' });
    stubFetch();
    renderApp('/');
    await waitFor(() => expect(productCard()).toBeDisabled());

    stubShopStatus({ error: 'Service unavailable' }, 503);
    act(() => returnToTab());
    await waitFor(() => expect(shopStatusReads()).toBe(2));
    await new Promise((wait) => setTimeout(wait, 50));

    expect(productCard()).toBeDisabled();
    expect(screen.getByText('Back on Monday.')).toBeInTheDocument();
  });
});

describe('the order page and the shop mode the merchant set: requests', () => {
  it('asks for a request in its own words: no Stripe, no payment, the merchant confirms by email first', async () => {
    stubShopStatus({ mode: 'requests', message: 'Orders are taken as requests this week.' });
    stubFetch();
    renderApp('/');

    expect(await screen.findByText('Orders are taken as requests this week.')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'We are taking order requests' })).toBeVisible();
    const button = screen.getByRole('button', { name: 'Send order request' });
    expect(button).toBeEnabled();
    expect(button).not.toHaveTextContent(/Stripe|pay/i);
    const checkout = screen.getByRole('region', { name: 'Checkout' });
    expect(checkout).toHaveTextContent(
      'Nothing is charged now: we will email you to confirm your order and send a secure payment link.',
    );
    expect(checkout).not.toHaveTextContent("Stripe's secure page");
    expect(checkout).not.toHaveTextContent('new tab');
  });

  it('opens no tab, and the Order-received view shows the request reference beside the order', async () => {
    stubShopStatus({ mode: 'requests' });
    const fetchMock = stubFetch(jsonResponse({ status: 'received', reference: 'R0123456789A' }));
    const { open } = stubWindowOpen();
    const { user } = renderApp('/');
    await screen.findByRole('button', { name: 'Send order request' });
    await fillOrder(user);

    await user.click(screen.getByRole('button', { name: 'Send order request' }));

    const heading = await screen.findByRole('heading', {
      name: 'Thank You! Your order request has been received',
    });
    expect(open).not.toHaveBeenCalled();
    expect(requestOf(fetchMock).url).toBe('https://api.shop.test/functions/v1/create-checkout');
    const view = heading.closest('section');
    if (!view) throw new Error('the Order-received view has no section');
    expect(within(view).getByText('Request Reference').nextElementSibling).toHaveTextContent('R0123456789A');
    expect(within(view).getByText('Bottles').nextElementSibling).toHaveTextContent('6 × 250ml');
    expect(within(view).getByText('Total').nextElementSibling).toHaveTextContent('£24.45');
    expect(view).toHaveTextContent(
      'We will contact you at rita@example.com to confirm your delivery details.',
    );
    expect(view).toHaveTextContent(
      'Nothing has been charged: once we confirm your order, we will email you a secure payment link.',
    );
  });

  it('goes to a payment page in this tab when the shop reopened meanwhile, still opening no new tab', async () => {
    stubShopStatus({ mode: 'requests' });
    const url = 'https://checkout.stripe.test/c/pay/cs_test_reopened';
    stubFetch(jsonResponse({ url, sessionId: 'cs_test_reopened' }));
    const { open } = stubWindowOpen();
    const assign = stubLocationAssign();
    const { user } = renderApp('/');
    await screen.findByRole('button', { name: 'Send order request' });
    await fillOrder(user);

    await user.click(screen.getByRole('button', { name: 'Send order request' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(url));
    expect(open).not.toHaveBeenCalled();
  });

  it('shows the heading without a message too', async () => {
    stubShopStatus({ mode: 'requests' });
    stubFetch();
    renderApp('/');

    expect(await screen.findByRole('heading', { name: 'We are taking order requests' })).toBeVisible();
  });
});

describe('the order page and the shop mode the merchant set: open', () => {
  it('open, or a status that cannot be read: no banner, the payment wording, the button enabled', async () => {
    stubShopStatus({ mode: 'closed-for-good' });
    stubFetch();
    renderApp('/');

    // Give the page's read time to land before checking nothing changed.
    await waitFor(() => expect(shopStatusReads()).toBe(1));
    await new Promise((wait) => setTimeout(wait, 50));
    expect(screen.queryByRole('heading', { name: /We are not taking orders|order requests/ })).toBeNull();
    expect(checkoutButton()).toBeEnabled();
    expect(productCard()).toBeEnabled();
    expect(screen.getByRole('region', { name: 'Checkout' })).toHaveTextContent(
      "You will pay on Stripe's secure page, which opens in a new tab.",
    );
  });
});
