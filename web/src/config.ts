import { type AppConfig, parseSettings, withPageOrigin } from './config-check';

export type { AppConfig } from './config-check';
export { parseConfig } from './config-check';

/**
 * The app's configuration, read once. A browser build carries the settings as vite.config.ts
 * checked them (`__WEB_SETTINGS__`), not the checks: they would be first-load code answering the
 * same question on every visit. Where nothing was built in (tests, prerendering in Node) they are
 * checked here. Components get the result through AppProvider so tests can pass their own. At
 * build time there is no page origin; nothing rendered there uses the API origin.
 */
export const config: AppConfig = withPageOrigin(
  typeof __WEB_SETTINGS__ === 'undefined' ? parseSettings(import.meta.env) : __WEB_SETTINGS__,
  typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
);
