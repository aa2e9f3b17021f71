import { createContext, type ReactNode, use } from 'react';
import type { AppConfig } from '../config';
import type { ApiClient } from './api-client';

/** The shop's pages get the API client too; the admin calls its API through its own (admin-api.ts). */
interface AppServices {
  config: AppConfig;
  api?: ApiClient | undefined;
}

const AppServicesContext = createContext<AppServices | null>(null);

/**
 * Makes the configuration, and the API client built from it, available to the tree. Passing them
 * in (rather than importing them everywhere) lets tests run the real app against another origin or
 * with a public key, without touching the build environment; and the admin's build, which passes
 * no client, carries none of the shop's requests.
 */
export function AppServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <AppServicesContext value={services}>{children}</AppServicesContext>;
}

function useAppServices(): AppServices {
  const services = use(AppServicesContext);
  if (!services) throw new Error('useAppServices must be used inside <AppServicesProvider>');
  return services;
}

export function useApiClient(): ApiClient {
  const { api } = useAppServices();
  // Only the shop's pages have one (AppProvider); the admin (AdminProvider) has its own.
  if (!api) throw new Error('No API client');
  return api;
}

export function useAppConfig(): AppConfig {
  return useAppServices().config;
}
