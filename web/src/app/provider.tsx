import type { ReactNode } from 'react';
import { ToastProvider } from '../components/toast/toast-provider';
import { type AppConfig, config as defaultConfig } from '../config';
import { ApiClientProvider } from '../lib/api-context';
import { AppConfigProvider } from '../lib/app-context';

/** Everything the shop's routes rely on: configuration, the API client and toasts. */
export function AppProvider({
  config = defaultConfig,
  children,
}: {
  config?: AppConfig;
  children: ReactNode;
}) {
  return (
    <AppConfigProvider config={config}>
      <ApiClientProvider>
        <ToastProvider>{children}</ToastProvider>
      </ApiClientProvider>
    </AppConfigProvider>
  );
}
