/// <reference types="vite/client" />

// Put in by vite.config.ts (and, for the tests, vitest.config.ts): the stage's settings the site
// is built with, checked at build time; read once, in web/src/config.ts.
declare const __SITE_CONFIG__: import('../../shared/stage-config').SiteConfig;
