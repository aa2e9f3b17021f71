import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import {
  type Location,
  MemoryRouter,
  type NavigateFunction,
  useLocation,
  useNavigate,
} from 'react-router-dom';
import { AdminProvider } from '../../../web/src/app/admin-provider';
import { AdminRoutes } from '../../../web/src/app/admin-routes';
import { AppProvider } from '../../../web/src/app/provider';
import { AppRoutes } from '../../../web/src/app/routes';
import type { AppConfig } from '../../../web/src/config';

export const TEST_CONFIG: AppConfig = {
  apiOrigin: 'https://api.shop.test',
  publicKey: undefined,
  dispatchCutoffHours: 36,
  // The spec's texts, as a stage that sets no claims of its own builds them.
  claims: {
    trialRunNotice: 'This is a trial run.',
    promotion: { referencePence: 1200, wording: '£9.75 for 3 bottles' },
  },
};

interface RenderAppOptions {
  config?: AppConfig;
  /** Extra `<Route>` elements, added before the 404 route. */
  routes?: ReactNode;
}

interface RouterHandle {
  location: Location | undefined;
  navigate: NavigateFunction | undefined;
}

/** Reports the router's current location and navigate function to the test, rendering nothing. */
function RouterProbe({ handle }: { handle: RouterHandle }) {
  handle.location = useLocation();
  handle.navigate = useNavigate();
  return null;
}

/** The real app (providers, error boundary and routes) in a memory router, starting at `path`. */
export function renderApp(path = '/', { config = TEST_CONFIG, routes }: RenderAppOptions = {}) {
  return renderRoutes(path, <AppRoutes>{routes}</AppRoutes>, AppProvider, config);
}

/** The merchant's admin as its own entry renders it (web/src/admin-main.tsx), starting at `path`. */
export function renderAdmin(path = '/admin', { config = TEST_CONFIG }: { config?: AppConfig } = {}) {
  return renderRoutes(path, <AdminRoutes />, AdminProvider, config);
}

/** `routes` inside the providers of their entry (the shop's, or the admin's), as the build renders them. */
function renderRoutes(
  path: string,
  routes: ReactNode,
  Providers: typeof AppProvider | typeof AdminProvider,
  config: AppConfig,
) {
  const user = userEvent.setup();
  const handle: RouterHandle = { location: undefined, navigate: undefined };
  const view = render(
    <Providers config={config}>
      <MemoryRouter initialEntries={[path]}>
        <RouterProbe handle={handle} />
        {routes}
      </MemoryRouter>
    </Providers>,
  );
  const router = {
    /** Where the app is now, e.g. after a redirect. */
    get location(): Location {
      if (!handle.location) throw new Error('The router has not rendered');
      return handle.location;
    },
    /** Navigates as a link in the app would. */
    async navigate(to: string): Promise<void> {
      if (!handle.navigate) throw new Error('The router has not rendered');
      await handle.navigate(to);
    },
  };
  return { ...view, user, router };
}
