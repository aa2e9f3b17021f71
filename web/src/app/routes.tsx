import type { RouteObject } from 'react-router-dom';
import { OrderPage } from '../features/order/order-page';
import { SuccessPage } from '../features/success/success-page';
import { paths } from './paths';
import { RootLayout } from './root-layout';
import { ErrorPage } from './routes/error-page';
import { NotFoundPage } from './routes/not-found';

/** The layout route: it owns the error page, so a failure in any child is caught here. */
export const rootRoute = {
  element: <RootLayout />,
  errorElement: <ErrorPage />,
  children: [
    { path: paths.home, element: <OrderPage /> },
    { path: paths.success, element: <SuccessPage /> },
    { path: paths.notFound, element: <NotFoundPage /> },
  ],
} satisfies RouteObject;

export const appRoutes: RouteObject[] = [rootRoute];
