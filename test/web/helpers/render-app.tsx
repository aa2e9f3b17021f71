import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router-dom';
import { AppProvider } from '../../../web/src/app/provider';
import { appRoutes } from '../../../web/src/app/routes';
import type { AppConfig } from '../../../web/src/config';

export const TEST_CONFIG: AppConfig = {
  apiOrigin: 'https://api.shop.test',
  publicKey: undefined,
  dispatchCutoffHours: 36,
};

interface RenderAppOptions {
  config?: AppConfig;
  routes?: RouteObject[];
}

/** The real app (providers and routes) in a memory router, starting at `path`. */
export function renderApp(path = '/', { config = TEST_CONFIG, routes = appRoutes }: RenderAppOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProvider config={config}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, user, router };
}
