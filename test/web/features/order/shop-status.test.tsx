import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch, stubShopStatus } from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

function checkoutButton() {
  return screen.getByRole('button', { name: 'Secure Checkout with Stripe' });
}

describe('the order page and the shop mode the merchant set', () => {
  it('paused: shows the merchant message above the form and disables the checkout button', async () => {
    stubShopStatus({ mode: 'paused', message: 'Frozen ponds: back on 4 January.' });
    stubFetch();
    renderApp('/');

    const banner = await screen.findByText('Frozen ponds: back on 4 January.');
    expect(screen.getByRole('heading', { name: 'We are not taking orders at the moment' })).toBeVisible();
    expect(banner.closest('[role="status"]')).not.toBeNull();
    expect(checkoutButton()).toBeDisabled();
    // Above the form: the banner comes before the product card in the document.
    const card = screen.getByRole('button', { name: 'Daphnia Magna' });
    expect(banner.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('requests mode: shows the message and keeps the button enabled', async () => {
    stubShopStatus({ mode: 'requests', message: 'Orders are taken as requests this week.' });
    stubFetch();
    renderApp('/');

    expect(await screen.findByText('Orders are taken as requests this week.')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'We are taking order requests' })).toBeVisible();
    expect(checkoutButton()).toBeEnabled();
  });

  it('open, or a status that cannot be read: no banner, the button enabled', async () => {
    stubShopStatus({ mode: 'closed-for-good' });
    stubFetch();
    renderApp('/');

    // Give the page's read time to land before checking nothing changed.
    await waitFor(() => expect(checkoutButton()).toBeEnabled());
    await new Promise((wait) => setTimeout(wait, 50));
    expect(screen.queryByRole('heading', { name: /We are not taking orders|order requests/ })).toBeNull();
    expect(checkoutButton()).toBeEnabled();
  });
});
