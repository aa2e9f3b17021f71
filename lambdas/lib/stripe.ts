import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import Stripe from 'stripe';
import * as z from 'zod/mini';
import { ConfigError, type StripeEnv } from './config';

export interface StripeSecrets {
  secretKey: string;
  webhookSecret: string | undefined;
}

const secretDocumentSchema = z.object({
  stripeSecretKey: z.string().check(z.startsWith('sk_')),
  stripeWebhookSecret: z.optional(z.string().check(z.startsWith('whsec_'))),
});

/**
 * The Stripe keys, read once per cold start: from Secrets Manager when deployed (never from the
 * template or plain environment variables), from the environment in local development.
 */
export async function loadStripeSecrets(env: StripeEnv): Promise<StripeSecrets> {
  if (env.STRIPE_SECRET_ID) {
    const raw = await getSecret(env.STRIPE_SECRET_ID, { transform: 'json' });
    const parsed = secretDocumentSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ConfigError([
        `${env.STRIPE_SECRET_ID}: secret must be JSON with stripeSecretKey (sk_...) and stripeWebhookSecret (whsec_...)`,
      ]);
    }
    return { secretKey: parsed.data.stripeSecretKey, webhookSecret: parsed.data.stripeWebhookSecret };
  }
  if (!env.STRIPE_SECRET_KEY)
    throw new ConfigError(['STRIPE_SECRET_ID or STRIPE_SECRET_KEY: one must be set']);
  return { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET };
}

/** Kept below API Gateway's 30 s and the functions' own timeouts, so a slow Stripe becomes a clean 502. */
export const STRIPE_TIMEOUT_MS = 8_000;

/**
 * The one way the lambdas build a Stripe client. `apiBase` points the real SDK at the local
 * simulator; our code never otherwise knows which Stripe it talks to.
 */
export function createStripeClient(
  secretKey: string,
  options: { apiBase?: string | undefined; timeoutMs?: number; maxNetworkRetries?: number } = {},
): Stripe {
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  return new Stripe(secretKey, {
    timeout: options.timeoutMs ?? STRIPE_TIMEOUT_MS,
    // The SDK retries with the same idempotency key, so a retry can never create a second session.
    maxNetworkRetries: options.maxNetworkRetries ?? 1,
    appInfo: { name: 'live-aquatics-shop' },
    ...(base && {
      host: base.hostname,
      port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}
