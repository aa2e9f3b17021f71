import { type ReactNode, useMemo } from 'react';
import { type AppConfig, config as defaultConfig } from '../config';
import { AppServicesProvider } from '../lib/app-context';

/**
 * What the admin's routes rely on: the configuration alone. The admin calls its API through its
 * own client (features/admin/admin-api.ts) and shows no toasts, so its build carries none of the
 * shop's checkout requests.
 */
export function AdminProvider({
  config = defaultConfig,
  children,
}: {
  config?: AppConfig;
  children: ReactNode;
}) {
  const services = useMemo(() => ({ config }), [config]);
  return <AppServicesProvider services={services}>{children}</AppServicesProvider>;
}
