import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../helpers/fake-browser';
import { renderAdmin, renderApp } from '../helpers/render-app';

// The admin and the shop are two entries (ADR 0033): each router knows only its own pages, and
// a link from one to the other loads the page from the server, which serves each its own HTML.

describe("the admin's entry", () => {
  it("loads a shop page reached from the admin's footer from the server, as if it were typed", async () => {
    vi.stubGlobal('fetch', async () => jsonResponse({ signInUrl: 'https://auth.shop.test', clientId: 'c' }));
    const replace = vi.fn<(url: string) => void>();
    vi.stubGlobal('location', { ...window.location, replace });
    const { user, router } = renderAdmin('/admin');
    expect(await screen.findByRole('heading', { name: 'Merchant sign-in' })).toBeVisible();

    await user.click(screen.getByRole('link', { name: 'Privacy notice' }));

    expect(router.location.pathname).toBe('/privacy');
    await waitFor(() => expect(replace).toHaveBeenCalledWith('/privacy'));
    expect(screen.queryByRole('heading', { name: 'Merchant sign-in' })).toBeNull();
  });
});

describe("the shop's routes", () => {
  it('do not know /admin: the shop alone would show its 404 page there', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/admin');

    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  });
});
