import type { OrderPageSecretEnv } from './config';
import { readSecretString } from './secrets-extension';

/**
 * The order page's secret: from Secrets Manager through the extension when ORDER_PAGE_SECRET_ID is
 * set (deployed), else ORDER_PAGE_SECRET (local), else undefined (the caller decides if it may do
 * without). A secret that cannot be read throws SecretUnavailableError: nothing is guessed.
 */
export async function loadOrderPageSecret(env: OrderPageSecretEnv): Promise<string | undefined> {
  if (env.ORDER_PAGE_SECRET_ID) {
    return readSecretString(env.ORDER_PAGE_SECRET_ID, { port: env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT });
  }
  return env.ORDER_PAGE_SECRET;
}
