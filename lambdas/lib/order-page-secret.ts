import type { OrderPageSecretEnv } from './config';
import { readSecretString } from './secrets-extension';

/**
 * Through the extension when ORDER_PAGE_SECRET_ID is set, else ORDER_PAGE_SECRET, else undefined (the caller
 * decides). An unreadable secret throws: nothing is guessed.
 */
export async function loadOrderPageSecret(env: OrderPageSecretEnv): Promise<string | undefined> {
  if (env.ORDER_PAGE_SECRET_ID) {
    return readSecretString(env.ORDER_PAGE_SECRET_ID, { port: env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT });
  }
  return env.ORDER_PAGE_SECRET;
}
