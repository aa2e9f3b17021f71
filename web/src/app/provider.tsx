import type { ReactNode } from 'react';
import { ToastProvider } from '../components/toast/toast-provider';
import { type AppConfig, config as defaultConfig } from '../config';
import { AppServicesProvider } from '../lib/app-context';

/** Everything the routes rely on: configuration, the API client and toasts. */
export function AppProvider({
  config = defaultConfig,
  children,
}: {
  config?: AppConfig;
  children: ReactNode;
}) {
  return (
    <AppServicesProvider config={config}>
      <ToastProvider>{children}</ToastProvider>
    </AppServicesProvider>
  );
}
