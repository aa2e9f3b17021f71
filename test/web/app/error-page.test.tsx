import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { rootRoute } from '../../../web/src/app/routes';
import { renderApp } from '../helpers/render-app';

function Broken(): never {
  throw new Error('boom');
}

describe('error page', () => {
  it('shows "Unexpected Application Error!" when a route throws while rendering', () => {
    // React and the router report the caught error on the console; keep the test output clean.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const routes = [
      { ...rootRoute, children: [...rootRoute.children, { path: '/broken', element: <Broken /> }] },
    ];

    renderApp('/broken', { routes });

    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(consoleError).toHaveBeenCalledWith(
      'Unexpected application error:',
      expect.objectContaining({ message: 'boom' }),
    );
  });
});
