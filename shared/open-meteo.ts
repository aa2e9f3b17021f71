// Open-Meteo as the shop's weather check, the stack's secret and doctor all name it: its hosts and
// the key's place in the stage's secret.

/** JSON key of the Open-Meteo secret: `{ "openMeteoApiKey": "..." }` (docs/deploy-reference.md, npm run setup). */
export const OPEN_METEO_KEY_JSON_KEY = 'openMeteoApiKey';

/** Open-Meteo's free host, and the host its commercial keys are for (open-meteo.com/en/pricing). */
export const OPEN_METEO_FREE_URL = 'https://api.open-meteo.com';
export const OPEN_METEO_COMMERCIAL_URL = 'https://customer-api.open-meteo.com';
