import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../helpers/render-app';

describe('404 page', () => {
  it('says the page was not found, links home and logs the path', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderApp('/no-such-page?x=1');

    // Its code loads on demand (404.html preloads it in the browser).
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    // Logged from an effect, which may run a moment after the heading is on screen under load.
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(
        '404 Error: User attempted to access non-existent route:',
        '/no-such-page',
      ),
    );

    await user.click(screen.getByRole('link', { name: 'Return to Home' }));

    expect(screen.getByRole('heading', { name: 'Live Aquatics Order' })).toBeInTheDocument();
  });
});
