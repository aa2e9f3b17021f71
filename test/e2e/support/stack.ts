/** Environment variables through which the global setup tells the test workers where the stack runs. */
export const STACK_ENV = {
  shop: 'E2E_SHOP_URL',
  dynamo: 'E2E_DYNAMODB_URL',
  ses: 'E2E_SES_URL',
  simulator: 'E2E_SIMULATOR_URL',
  /** The orders table's name: the local shop's, or the one the rehearsed template gives it. */
  table: 'E2E_ORDERS_TABLE',
  /** Where the shop sends the merchant's new-order notices: the stage's MERCHANT_EMAIL. */
  merchantEmail: 'E2E_MERCHANT_EMAIL',
  /** The Open-Meteo stand-in (POST /__set); unset where the stack has none. */
  forecast: 'E2E_FORECAST_URL',
  /** The secret the stack seals order page links with: the local shop's, or the rehearsal's generated one. */
  orderPageSecret: 'E2E_ORDER_PAGE_SECRET',
  /** The weather check's clock when not the real one (ISO), else empty. */
  weatherNow: 'E2E_WEATHER_NOW',
  /** The push-service stand-in the merchant's devices subscribe at (GET /pushes). */
  push: 'E2E_PUSH_URL',
} as const;

/**
 * How long the browser suites' stacks (global setup, own-stack.ts) let the functions keep the
 * shop's settings (SETTINGS_MAX_AGE_MS; 5 s when deployed), and so how long a browser keeps
 * shop-status's answer (its max-age, 0 s here).
 */
export const STACK_SETTINGS_MAX_AGE_MS = 250;

/** Waits just past the stack's settings cache after a settings write: every function then reads it afresh. */
export function waitOutSettingsCache(): Promise<void> {
  return new Promise((wait) => setTimeout(wait, STACK_SETTINGS_MAX_AGE_MS + 100));
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the browser tests run through \`npm run test:e2e\`.`);
  return value;
}

/** The running local stack's addresses, read in a test worker. */
export function stackUrls(): {
  shop: string;
  dynamo: string;
  ses: string;
  simulator: string;
  table: string;
  merchantEmail: string;
  orderPageSecret: string;
} {
  return {
    shop: required(STACK_ENV.shop),
    dynamo: required(STACK_ENV.dynamo),
    ses: required(STACK_ENV.ses),
    simulator: required(STACK_ENV.simulator),
    table: required(STACK_ENV.table),
    merchantEmail: required(STACK_ENV.merchantEmail),
    orderPageSecret: required(STACK_ENV.orderPageSecret),
  };
}
