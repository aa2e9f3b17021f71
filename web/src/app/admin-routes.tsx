import { useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { ADMIN_PAGE_PATH } from '../../../shared/admin-config';
import { AdminPage } from '../features/admin/public';
import { ErrorBoundary } from './error-boundary';
import type { PrerenderedPage } from './pages';
import { RootLayout } from './root-layout';

/**
 * The admin's HTML in the build: its "Loading the admin…" shell, written like the shop's pages
 * (vite.config.ts) but loading the admin's own entry, web/src/admin-main.tsx. Apart from the shop's
 * PRERENDERED_PAGES, which the shop's entry carries.
 */
export const ADMIN_PAGE: PrerenderedPage = { key: ADMIN_PAGE_PATH, file: 'admin.html', url: ADMIN_PAGE_PATH };

/**
 * An address of the shop reached from the admin (the footer's policy links): the admin's bundle
 * holds none of the shop's pages, so the browser loads it from the server, as if it were typed.
 */
function ShopPage() {
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    window.location.replace(`${pathname}${search}${hash}`);
  }, [pathname, search, hash]);
  return null;
}

/**
 * `/admin` with the shop's layout and error boundary: what the admin's entry renders. The shop's
 * routes (routes.tsx) do not know the admin, so nothing of it is in any shop page's first load.
 */
export function AdminRoutes() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname}>
      <RootLayout>
        <Routes>
          <Route path={ADMIN_PAGE_PATH} element={<AdminPage />} />
          <Route path="*" element={<ShopPage />} />
        </Routes>
      </RootLayout>
    </ErrorBoundary>
  );
}
