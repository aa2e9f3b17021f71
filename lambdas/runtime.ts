import type { SESClient } from '@aws-sdk/client-ses';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import type { SellerDetails } from './domain/emails/common';
import { type EmailSender, shopEmailIdentity } from './domain/emails/send-email';
import type { FulfilmentDeps } from './domain/fulfilment/fulfil-checkout';
import {
  type OrderPageKeys,
  type OrderPageLinks,
  orderPageKeys,
  orderPageLinks,
} from './domain/order-page-token';
import { capacityStoreFromTable } from './domain/storage/capacity-table';
import { createOrdersRepository } from './domain/storage/orders-repository';
import type { ShopTable } from './domain/storage/orders-table';
import { readShopSettings } from './domain/storage/settings-store';
import { loadForecastSource } from './domain/weather/forecast-source';
import type { ForecastSource } from './domain/weather/open-meteo';
import { ordersTable } from './lib/aws';
import {
  type Env,
  type ForecastEnv,
  type FulfilmentEnv,
  fulfilmentRuntimeEnvSchema,
  type OrderPageSecretEnv,
  parseEnv,
  type StripeEnv,
} from './lib/config';
import { stdoutMetricsWriter } from './lib/metrics';
import { loadOrderPageSecret } from './lib/order-page-secret';
import { createSesClient } from './lib/ses-client';
import type { StripeSecrets } from './lib/stripe';
import { pushSenderFromEnv } from './lib/web-push';

// The one module that builds the Lambdas' clients and dependencies from their parsed environment
// (ADR 0051): the handlers call these once per cold start (initOnce) and pass what they get to the
// domain, which never builds a client. Stripe alone loads through import(): its SDK does not
// tree-shake, and the order page and the weather notice never call it.

/**
 * The orders table (every record of the shop) on its document client: lib/aws's, which the
 * handlers that load nothing else (shop-status, checkout-status, the checkout's gate) import alone.
 */
export const shopTable: (config: Parameters<typeof ordersTable>[0]) => ShopTable = ordersTable;

/** What a Lambda that emails needs: the shop's sender (SES), the seller's details and the merchant's address. */
export interface ShopEmail {
  sender: EmailSender;
  seller: SellerDetails;
  merchantEmail: string;
}

type ShopEmailEnv = Parameters<typeof shopEmailIdentity>[1] & {
  AWS_REGION: string;
  SES_ENDPOINT?: string | undefined;
  MERCHANT_EMAIL: string;
};

/** The shop's sender on its own SES client (or `ses`), with the seller and the merchant's address. */
export function shopEmail(config: ShopEmailEnv, ses: SESClient = sesClient(config)): ShopEmail {
  return { ...shopEmailIdentity(ses, config), merchantEmail: config.MERCHANT_EMAIL };
}

function sesClient(config: { AWS_REGION: string; SES_ENDPOINT?: string | undefined }): SESClient {
  return createSesClient({ region: config.AWS_REGION, endpoint: config.SES_ENDPOINT });
}

/** The order page's keys and the links every order email carries; undefined without a secret. */
export async function orderPages(
  config: OrderPageSecretEnv & { SITE_URL: string },
): Promise<{ keys: OrderPageKeys; links: OrderPageLinks } | undefined> {
  const secret = await loadOrderPageSecret(config);
  if (secret === undefined) return undefined;
  const keys = orderPageKeys(secret);
  return { keys, links: orderPageLinks(config.SITE_URL, keys) };
}

/** The Stripe keys and the client built on them (read as loadStripeSecrets reads them). */
export async function stripeRuntime(config: StripeEnv): Promise<{ stripe: Stripe; secrets: StripeSecrets }> {
  const { createStripeClient, loadStripeSecrets } = await import('./lib/stripe');
  const secrets = await loadStripeSecrets(config);
  return { stripe: createStripeClient(secrets.secretKey, { apiBase: config.STRIPE_API_BASE }), secrets };
}

/** Where forecasts come from (Open-Meteo, with the stage's key when it has one). */
export const forecastSource: (config: ForecastEnv) => Promise<ForecastSource> = loadForecastSource;

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
  const [{ stripe, secrets }, pages] = await Promise.all([stripeRuntime(config), orderPages(config)]);
  const table = shopTable(config);
  const ses = sesClient(config);
  return {
    config,
    secrets,
    clients: { documentClient: table.client, ses },
    deps: {
      stripe,
      orders: createOrdersRepository(table.client, table.tableName),
      // Consistent, and not cached: a pause written a moment ago must flag the order it races.
      shopSettings: () => readShopSettings(table, true),
      capacity: capacityStoreFromTable(table),
      table,
      siteUrl: config.SITE_URL,
      ...shopEmail(config, ses),
      cutoffHours: config.DISPATCH_CUTOFF_HOURS,
      shopId: config.SHOP_ID,
      metrics: stdoutMetricsWriter,
      // Loaded on the first push, not at cold start: a missing VAPID secret never stops an order.
      pushSender: pushSenderFromEnv(config),
      ...(pages !== undefined && { orderPage: pages.links }),
      now: () => new Date(),
    },
  };
}
