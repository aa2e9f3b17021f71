import type { ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { OrderPage } from '../features/order/order-page';
import { ContactPage, PrivacyPage, TermsPage } from '../features/policies/policy-page';
import { policyPaths } from '../features/policies/policy-paths';
import { SuccessPage } from '../features/success/success-page';
import { ErrorBoundary } from './error-boundary';
import { paths } from './paths';
import { RootLayout } from './root-layout';
import { NotFoundPage } from './routes/not-found';

/**
 * Every page of the app, with the layout and the error boundary around them. The declarative
 * `<Routes>` rather than a data router: the app loads nothing before rendering, and the data
 * router adds about 16 KiB gzip to the first load. `children` adds routes (tests use it).
 */
export function AppRoutes({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname}>
      <RootLayout>
        <Routes>
          <Route path={paths.home} element={<OrderPage />} />
          <Route path={paths.success} element={<SuccessPage />} />
          <Route path={policyPaths.privacy} element={<PrivacyPage />} />
          <Route path={policyPaths.terms} element={<TermsPage />} />
          <Route path={policyPaths.contact} element={<ContactPage />} />
          {children}
          <Route path={paths.notFound} element={<NotFoundPage />} />
        </Routes>
      </RootLayout>
    </ErrorBoundary>
  );
}
