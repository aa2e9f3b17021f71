import { createContext, type ReactNode, use, useMemo } from 'react';
import { type ApiClient, createApiClient } from './api-client';
import { useAppConfig } from './app-context';

const ApiClientContext = createContext<ApiClient | null>(null);

/** The shop's API client, built from the configuration above it (AppConfigProvider). */
export function ApiClientProvider({ children }: { children: ReactNode }) {
  const config = useAppConfig();
  const api = useMemo(() => createApiClient(config), [config]);
  return <ApiClientContext value={api}>{children}</ApiClientContext>;
}

export function useApiClient(): ApiClient {
  const api = use(ApiClientContext);
  if (!api) throw new Error('useApiClient must be used inside <ApiClientProvider>');
  return api;
}
