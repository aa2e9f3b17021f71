import type { ReactNode } from 'react';
import { type AppConfig, config as defaultConfig } from '../config';
import { AppConfigProvider } from '../lib/app-context';

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
  return <AppConfigProvider config={config}>{children}</AppConfigProvider>;
}
