import { lazy, type ReactNode, Suspense } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { OrderPage } from '../features/order/order-page';
import { paths, policyPaths } from '../lib/paths';
import { ErrorBoundary } from './error-boundary';
import { RootLayout } from './root-layout';

// The policy pages (mostly wording) load on demand: every other page's first load is about
// 2 KiB gzip lighter. Their HTML is prerendered, so they still paint before their script.
const policyPages = () => import('../features/policies/policy-page');
const PrivacyPage = lazy(() => policyPages().then((pages) => ({ default: pages.PrivacyPage })));
const TermsPage = lazy(() => policyPages().then((pages) => ({ default: pages.TermsPage })));
const ContactPage = lazy(() => policyPages().then((pages) => ({ default: pages.ContactPage })));
// The success and 404 pages too: their HTML files preload their chunks beside the main one
// (vite.config.ts), so they arrive in the same round trip while the order page's first load is lighter.
const NotFoundPage = lazy(() =>
  import('../components/layout/not-found').then((page) => ({ default: page.NotFoundPage })),
);
// The customer's order page too, with its checks and zod: none of it is in `/`'s first load.
const OrderStatusPage = lazy(() =>
  import('../features/order-status/order-status-page').then((page) => ({ default: page.OrderStatusPage })),
);
const SuccessPage = lazy(() =>
  import('../features/success/success-page').then((page) => ({ default: page.SuccessPage })),
);

/**
 * Every page with the layout and error boundary. Declarative `<Routes>`: a data router adds about
 * 16 KiB gzip to the first load. `children` adds routes (tests).
 */
export function AppRoutes({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname}>
      <RootLayout>
        {/* While a page's chunk loads, hydration keeps the prerendered HTML on screen. */}
        <Suspense fallback={null}>
          <Routes>
            <Route path={paths.home} element={<OrderPage />} />
            <Route path={paths.success} element={<SuccessPage />} />
            <Route path={paths.order} element={<OrderStatusPage />} />
            <Route path={policyPaths.privacy} element={<PrivacyPage />} />
            <Route path={policyPaths.terms} element={<TermsPage />} />
            <Route path={policyPaths.contact} element={<ContactPage />} />
            {children}
            <Route path={paths.notFound} element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </RootLayout>
    </ErrorBoundary>
  );
}
