import type { SESClient } from '@aws-sdk/client-ses';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ordersTable } from '../../lib/aws';
import { type Env, type FulfilmentEnv, fulfilmentRuntimeEnvSchema, parseEnv } from '../../lib/config';
import { stdoutMetricsWriter } from '../../lib/metrics';
import { loadOrderPageSecret } from '../../lib/order-page-secret';
import { createSesClient } from '../../lib/ses-client';
import { createStripeClient, loadStripeSecrets, type StripeSecrets } from '../../lib/stripe';
import { pushSenderFromEnv } from '../../lib/web-push';
import { shopEmailIdentity } from '../emails/send-email';
import { orderPageKeys, orderPageLinks } from '../order-page-token';
import { capacityStoreFromTable } from '../storage/capacity-table';
import { createOrdersRepository } from '../storage/orders-repository';
import { readShopSettings } from '../storage/settings-store';
import type { FulfilmentDeps } from './fulfil-checkout';

export interface FulfilmentRuntime {
  config: FulfilmentEnv;
  secrets: StripeSecrets;
  deps: FulfilmentDeps;
  /** The AWS clients inside `deps`, for tests that inject faults into them. */
  clients: { documentClient: DynamoDBDocumentClient; ses: SESClient };
}

/**
 * Configuration, secrets and clients of the webhook and the reconciler, built once per cold
 * start (each handler wraps this in initOnce). The only place their environment is read.
 */
export async function loadFulfilmentRuntime(env: Env): Promise<FulfilmentRuntime> {
  const config = parseEnv(fulfilmentRuntimeEnvSchema, env);
  const secrets = await loadStripeSecrets(config);
  const orderPageSecret = await loadOrderPageSecret(config);
  const table = ordersTable(config);
  const ses = createSesClient({ region: config.AWS_REGION, endpoint: config.SES_ENDPOINT });
  return {
    config,
    secrets,
    clients: { documentClient: table.client, ses },
    deps: {
      stripe: createStripeClient(secrets.secretKey, { apiBase: config.STRIPE_API_BASE }),
      orders: createOrdersRepository(table.client, table.tableName),
      // Consistent, and not cached: a pause written a moment ago must flag the order it races.
      shopSettings: () => readShopSettings(table, true),
      capacity: capacityStoreFromTable(table),
      table,
      siteUrl: config.SITE_URL,
      ...shopEmailIdentity(ses, config),
      merchantEmail: config.MERCHANT_EMAIL,
      cutoffHours: config.DISPATCH_CUTOFF_HOURS,
      shopId: config.SHOP_ID,
      metrics: stdoutMetricsWriter,
      // Loaded on the first push, not at cold start: a missing VAPID secret never stops an order.
      pushSender: pushSenderFromEnv(config),
      ...(orderPageSecret !== undefined && {
        orderPage: orderPageLinks(config.SITE_URL, orderPageKeys(orderPageSecret)),
      }),
      now: () => new Date(),
    },
  };
}
