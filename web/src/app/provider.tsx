import { type ReactNode, useMemo } from 'react';
import { ToastProvider } from '../components/toast/toast-provider';
import { type AppConfig, config as defaultConfig } from '../config';
import { createApiClient } from '../lib/api-client';
import { AppServicesProvider } from '../lib/app-context';

/** Everything the shop's routes rely on: configuration, the API client and toasts. */
export function AppProvider({
  config = defaultConfig,
  children,
}: {
  config?: AppConfig;
  children: ReactNode;
}) {
  const services = useMemo(() => ({ config, api: createApiClient(config) }), [config]);
  return (
    <AppServicesProvider services={services}>
      <ToastProvider>{children}</ToastProvider>
    </AppServicesProvider>
  );
}
