import { screen } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../helpers/render-app';

function Broken(): never {
  throw new Error('boom');
}

describe('error page', () => {
  it('shows "Unexpected Application Error!" when a page throws while rendering, and logs the error', () => {
    // React reports the caught error on the console too; keep the test output clean.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});

    renderApp('/broken', { routes: <Route path="/broken" element={<Broken />} /> });

    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(consoleError).toHaveBeenCalledWith(
      'Unexpected application error:',
      expect.objectContaining({ message: 'boom' }),
      expect.any(String),
    );
  });

  it('leaves the error page when the customer follows "Return to Home"', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderApp('/broken', { routes: <Route path="/broken" element={<Broken />} /> });

    await user.click(screen.getByRole('link', { name: 'Return to Home' }));

    expect(screen.getByRole('heading', { name: 'Live Aquatics Order' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Unexpected Application Error!' })).not.toBeInTheDocument();
  });
});
