import { useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { ADMIN_PAGE_PATH } from '../../../shared/admin-config';
import { AdminPage } from '../features/admin/public';
import { ErrorBoundary } from './error-boundary';
import type { PrerenderedPage } from './pages';
import { RootLayout } from './root-layout';

/** The admin's "Loading the admin…" shell in the build, loading its own entry (web/src/admin-main.tsx). */
export const ADMIN_PAGE: PrerenderedPage = { key: ADMIN_PAGE_PATH, file: 'admin.html', url: ADMIN_PAGE_PATH };

/** A shop page reached from the admin (footer links): the admin's bundle has none, so the server serves it. */
function ShopPage() {
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    window.location.replace(`${pathname}${search}${hash}`);
  }, [pathname, search, hash]);
  return null;
}

/** `/admin` with the shop's layout; the shop's routes do not know the admin, so no shop page loads it. */
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
