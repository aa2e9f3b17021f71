import Stripe from 'stripe';
import * as z from 'zod/mini';
import { ConfigError, type StripeEnv } from './config';
import { type ExtensionOptions, readSecretString } from './secrets-extension';

export interface StripeSecrets {
  secretKey: string;
  webhookSecret: string | undefined;
}

/** Secret or restricted keys; deployed functions should get restricted ones (`rk_`, docs/deploy.md). */
const STRIPE_KEY_PATTERN = /^(sk|rk)_(live|test)_[A-Za-z0-9]+$/;
const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=]+$/;

const keyDocumentSchema = z.object({
  stripeSecretKey: z.string().check(z.regex(STRIPE_KEY_PATTERN)),
  // The one-secret layout of earlier deployments kept the signing secret beside the key.
  stripeWebhookSecret: z.optional(z.string().check(z.regex(WEBHOOK_SECRET_PATTERN))),
});
const webhookDocumentSchema = z.object({
  stripeWebhookSecret: z.string().check(z.regex(WEBHOOK_SECRET_PATTERN)),
});

function parseDocument<T extends z.ZodMiniType>(
  schema: T,
  secretId: string,
  text: string,
  expected: string,
): z.output<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // Never echo the value: it may be a real key in the wrong shape.
    throw new ConfigError([`${secretId}: secret must be JSON ${expected}`]);
  }
  return parsed.data;
}

/** A key of the other mode would create live sessions from a test shop, or the reverse. */
function checkMode(secretKey: string, livemode: boolean, secretId: string): void {
  const keyIsLive = secretKey.includes('_live_');
  if (keyIsLive !== livemode) {
    throw new ConfigError([
      `${secretId}: holds a ${keyIsLive ? 'live' : 'test'} key but STRIPE_LIVEMODE is ${String(livemode)}`,
    ]);
  }
}

/**
 * The Stripe keys, once per cold start: deployed, from Secrets Manager through the extension on localhost
 * (never the template or plain environment), by STRIPE_SECRET_ID and STRIPE_WEBHOOK_SECRET_ID; locally, from
 * STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET. Fails closed: an unreadable secret throws, no client is built.
 */
export async function loadStripeSecrets(
  env: StripeEnv,
  extension: ExtensionOptions = {},
): Promise<StripeSecrets> {
  if (env.STRIPE_SECRET_ID) {
    const read = (secretId: string) =>
      readSecretString(secretId, { port: env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT, ...extension });
    const [keyText, webhookText] = await Promise.all([
      read(env.STRIPE_SECRET_ID),
      env.STRIPE_WEBHOOK_SECRET_ID ? read(env.STRIPE_WEBHOOK_SECRET_ID) : Promise.resolve(undefined),
    ]);
    const keyDocument = parseDocument(
      keyDocumentSchema,
      env.STRIPE_SECRET_ID,
      keyText,
      '{"stripeSecretKey": "rk_live_..."} (or sk_/rk_, live/test)',
    );
    checkMode(keyDocument.stripeSecretKey, env.STRIPE_LIVEMODE, env.STRIPE_SECRET_ID);
    const webhookSecret =
      env.STRIPE_WEBHOOK_SECRET_ID && webhookText !== undefined
        ? parseDocument(
            webhookDocumentSchema,
            env.STRIPE_WEBHOOK_SECRET_ID,
            webhookText,
            '{"stripeWebhookSecret": "whsec_..."}',
          ).stripeWebhookSecret
        : keyDocument.stripeWebhookSecret;
    return { secretKey: keyDocument.stripeSecretKey, webhookSecret };
  }
  if (!env.STRIPE_SECRET_KEY)
    throw new ConfigError(['STRIPE_SECRET_ID or STRIPE_SECRET_KEY: one must be set']);
  return { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET };
}

/** The Stripe client of a function that needs only the key (its keys read as loadStripeSecrets does). */
export async function loadStripeClient(env: StripeEnv): Promise<Stripe> {
  const { secretKey } = await loadStripeSecrets(env);
  return createStripeClient(secretKey, { apiBase: env.STRIPE_API_BASE });
}

/** Kept below API Gateway's 30 s and the functions' own timeouts, so a slow Stripe becomes a clean 502. */
export const STRIPE_TIMEOUT_MS = 8_000;

/** The one Stripe client builder; `apiBase` points the real SDK at the local simulator. */
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
