import { LOCAL_STAGE_SETTINGS, siteConfigOf } from '../../shared/stage-config';

// What vite.config.ts puts into a build (`__SITE_CONFIG__`): the web's tests run as the local
// stage's site, as `npm start` serves it.
Object.assign(globalThis, { __SITE_CONFIG__: siteConfigOf(LOCAL_STAGE_SETTINGS) });
