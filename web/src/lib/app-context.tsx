import { createContext, type ReactNode, use, useMemo } from 'react';
import type { AppConfig } from '../config';
import { type ApiClient, createApiClient } from './api-client';

interface AppServices {
  config: AppConfig;
  api: ApiClient;
}

const AppServicesContext = createContext<AppServices | null>(null);

/**
 * Makes the configuration and the API client built from it available to the tree. Passing the
 * config in (rather than importing it everywhere) lets tests run the real app against another
 * origin or with a public key, without touching the build environment.
 */
export function AppServicesProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  const services = useMemo(() => ({ config, api: createApiClient(config) }), [config]);
  return <AppServicesContext value={services}>{children}</AppServicesContext>;
}

function useAppServices(): AppServices {
  const services = use(AppServicesContext);
  if (!services) throw new Error('useAppServices must be used inside <AppServicesProvider>');
  return services;
}

export function useApiClient(): ApiClient {
  return useAppServices().api;
}

export function useAppConfig(): AppConfig {
  return useAppServices().config;
}
