import { createContext, type ReactNode, use } from 'react';
import type { AppConfig } from '../config';

const AppConfigContext = createContext<AppConfig | null>(null);

/**
 * Makes the configuration available to the tree. Passing it in (rather than importing it
 * everywhere) lets tests run the real app against another origin or with a public key, without
 * touching the build environment. The shop's API client is beside it (api-context.tsx), so the
 * admin, which has its own, carries none of the shop's requests.
 */
export function AppConfigProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  return <AppConfigContext value={config}>{children}</AppConfigContext>;
}

export function useAppConfig(): AppConfig {
  const config = use(AppConfigContext);
  if (!config) throw new Error('useAppConfig must be used inside <AppConfigProvider>');
  return config;
}
