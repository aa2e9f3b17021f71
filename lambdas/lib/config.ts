import * as z from 'zod/mini';
import { STAGE_SETTINGS } from '../../shared/stage-config';
import { ENGLISH_MESSAGES } from './zod-messages';

/** A setting is missing or malformed: thrown at cold start, naming every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The only place the lambdas read configuration, once per cold start; everything else gets typed values. */
export function parseEnv<T extends z.ZodMiniType>(schema: T, env: Env): z.output<T> {
  const result = schema.safeParse(env, ENGLISH_MESSAGES);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`),
  );
}

const optionalText = z.pipe(
  z.optional(z.string()),
  z.transform((value: string | undefined) =>
    value === undefined || value.trim() === '' ? undefined : value.trim(),
  ),
);

/** Port of the Parameters and Secrets extension a function reads its secrets through (default 2773). */
export const extensionPort = z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(65_535)));

/** Where the Stripe SDK goes and how its keys are found. */
export const stripeEnvSchema = z.object({
  /** Secrets Manager id of `{ "stripeSecretKey": "rk_..." }`, this function's key: the deployed way. */
  STRIPE_SECRET_ID: optionalText,
  /** Secrets Manager id of `{ "stripeWebhookSecret": "whsec_..." }`: set for the webhook alone. */
  STRIPE_WEBHOOK_SECRET_ID: optionalText,
  /** Port of the Parameters and Secrets extension the secrets are read through (default 2773). */
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: extensionPort,
  /** Local development only, when no STRIPE_SECRET_ID is set. */
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** e.g. http://localhost:12111 for the simulator; absent means api.stripe.com. */
  STRIPE_API_BASE: z.optional(z.url({ protocol: /^https?$/ })),
  STRIPE_LIVEMODE: z.pipe(
    z.enum(['true', 'false'], { error: 'must be "true" or "false"' }),
    z.transform((v: 'true' | 'false') => v === 'true'),
  ),
});
export type StripeEnv = z.output<typeof stripeEnvSchema>;

/**
 * This deployment's marker in Stripe metadata (`<stack>-<stage>`), so deployments sharing a Stripe account
 * ignore each other's sessions. Required: without one it would take others' sessions for its own.
 */
const shopId = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/));

/**
 * The table and sender for create-checkout (settings, and requests in requests mode); the stage's settings
 * are checked with the schemas and limits synthesis used (shared/stage-config.ts).
 */
const shopTableAndEmailEnv = {
  ORDERS_TABLE_NAME: z.string().check(z.minLength(1)),
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  SES_ENDPOINT: z.optional(z.url()),
  SES_FROM_ADDRESS: STAGE_SETTINGS.senderEmail,
  MERCHANT_EMAIL: STAGE_SETTINGS.merchantEmail,
  SES_CONFIGURATION_SET: optionalText,
  /** Every email's header (shared/stage-config.ts: "Live Aquatics" when unset). */
  SHOP_NAME: STAGE_SETTINGS.shopName,
  SELLER_NAME: STAGE_SETTINGS.sellerName,
  SELLER_ADDRESS: STAGE_SETTINGS.sellerAddress,
  SELLER_EMAIL: STAGE_SETTINGS.sellerEmail,
  SELLER_COMPANY_NUMBER: STAGE_SETTINGS.sellerCompanyNumber,
  SELLER_VAT_NUMBER: STAGE_SETTINGS.sellerVatNumber,
};

/**
 * Open-Meteo's API (weather/open-meteo.ts): the free or the commercial host, or the local stand-in. The key
 * is a secret: only its Secrets Manager id is set here.
 */
export const forecastEnvSchema = z.object({
  // Unset: Open-Meteo's free endpoint (non-commercial use); a deployed stage sets its own.
  FORECAST_API_URL: z._default(z.url({ protocol: /^https?$/ }), 'https://api.open-meteo.com'),
  /** Secrets Manager id of `{ "openMeteoApiKey": "..." }`; absent on the free API and locally. */
  FORECAST_API_KEY_SECRET_ID: optionalText,
  /** `commercial`: the stage trades, so a key that cannot be read is shown and alarmed (ADR 0045). */
  FORECAST_PLAN: STAGE_SETTINGS.forecastPlan,
  /** The extension the key is read through, as the Stripe keys are (default 2773). */
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: extensionPort,
});
export type ForecastEnv = z.output<typeof forecastEnvSchema>;

/** The shop's public origin, without a trailing slash: payment pages' return addresses, emails' links. */
const siteUrl = z.pipe(
  z.url({ protocol: /^https?$/ }),
  z.transform((url: string) => url.replace(/\/+$/, '')),
);

/**
 * The order page's secret (docs/decisions/0037-order-page-link.md), sealing every order email's link:
 * deployed, a Secrets Manager id read through the extension; locally the value. Optional for emailers (an
 * email without the link is still right); the order page's own function requires one.
 */
const orderPageSecretEnv = {
  ORDER_PAGE_SECRET_ID: optionalText,
  ORDER_PAGE_SECRET: optionalText,
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: extensionPort,
};
export type OrderPageSecretEnv = z.output<z.ZodMiniObject<typeof orderPageSecretEnv>>;

/**
 * Web Push (ADR 0056): deployed, the VAPID key secret's id; locally, the pair; neither, no pushes.
 * PUSH_LOCAL_ORIGIN (local only) is the push stand-in's http origin, the one non-https endpoint allowed.
 */
const pushEnv = {
  VAPID_SECRET_ID: optionalText,
  VAPID_PUBLIC_KEY: optionalText,
  VAPID_PRIVATE_KEY: optionalText,
  PUSH_LOCAL_ORIGIN: z.optional(z.url({ protocol: /^http$/ })),
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: extensionPort,
};
export type PushEnv = z.output<z.ZodMiniObject<typeof pushEnv>>;

/**
 * How long shop-status and create-checkout act on the settings they read, in ms: a pause reaches
 * every checkout within it. The stack never sets it (5 s); the browser suites' stacks set a short
 * one, so a spec need not wait 5 s after each settings write.
 */
const settingsMaxAgeEnv = {
  SETTINGS_MAX_AGE_MS: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(60_000)), 5_000),
};

/** create-checkout */
export const checkoutEnvSchema = z.extend(stripeEnvSchema, {
  ...shopTableAndEmailEnv,
  SITE_URL: siteUrl,
  PUBLIC_API_KEY: STAGE_SETTINGS.publicApiKey,
  DISPATCH_CUTOFF_HOURS: STAGE_SETTINGS.dispatchCutoffHours,
  SHOP_ID: shopId,
  ...pushEnv,
  ...settingsMaxAgeEnv,
});

/** checkout-status: with the table and the order page's secret it answers an order's page link (ADR 0047). */
export const statusEnvSchema = z.extend(stripeEnvSchema, {
  SHOP_ID: shopId,
  ORDERS_TABLE_NAME: optionalText,
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  ...orderPageSecretEnv,
  /** Set by the Lambda runtime (and the local stack): the table's region. */
  AWS_REGION: optionalText,
});

/** stripe-webhook and reconcile-orders */
export const fulfilmentEnvSchema = z.extend(stripeEnvSchema, {
  ...shopTableAndEmailEnv,
  /** Where a customer whose Direct Debit failed is sent to order again. */
  SITE_URL: siteUrl,
  DISPATCH_CUTOFF_HOURS: STAGE_SETTINGS.dispatchCutoffHours,
  SHOP_ID: shopId,
  ...orderPageSecretEnv,
  ...pushEnv,
  /** The reconciler's window in days (default 10: the longest delayed-payment settlement). */
  RECONCILE_LOOKBACK_DAYS: z.optional(z.coerce.number().check(z.int(), z.minimum(3), z.maximum(60))),
});

/**
 * A function's settings at run time: the stack's plus AWS_REGION (the runtime's reserved name), parsed rather
 * than left to the SDK so a missing one fails at cold start with its name.
 */
function atRunTime<T extends z.ZodMiniObject>(schema: T) {
  return z.extend(schema, { AWS_REGION: z.string().check(z.minLength(1)) });
}

export const fulfilmentRuntimeEnvSchema = atRunTime(fulfilmentEnvSchema);
export type FulfilmentEnv = z.output<typeof fulfilmentRuntimeEnvSchema>;
export const checkoutRuntimeEnvSchema = atRunTime(checkoutEnvSchema);
export type CheckoutEnv = z.output<typeof checkoutRuntimeEnvSchema>;

/** admin-api: what the CLI's commands reuse from the webhook, plus the site for payment links. */
export const adminEnvSchema = z.extend(stripeEnvSchema, {
  ...shopTableAndEmailEnv,
  ...forecastEnvSchema.shape,
  SITE_URL: siteUrl,
  DISPATCH_CUTOFF_HOURS: STAGE_SETTINGS.dispatchCutoffHours,
  SHOP_ID: shopId,
  ...orderPageSecretEnv,
  ...pushEnv,
});

/** weather-notice: the daily check that emails the merchant about orders at risk tomorrow. */
export const weatherNoticeRuntimeEnvSchema = atRunTime(
  z.object({ ...shopTableAndEmailEnv, ...forecastEnvSchema.shape, SITE_URL: siteUrl }),
);
export const adminRuntimeEnvSchema = atRunTime(adminEnvSchema);

/** admin-api's session routes: the merchant's sign-in at the user pool, and its global sign-out. */
export const adminSessionEnvSchema = z.object({
  ADMIN_SIGN_IN_URL: z.url({ protocol: /^https?$/ }),
  ADMIN_CLIENT_ID: z.string().check(z.minLength(1)),
  ADMIN_USER_POOL_ID: z.string().check(z.minLength(1)),
  SITE_URL: z.url({ protocol: /^https?$/ }),
  AWS_REGION: z.string().check(z.minLength(1)),
  /** The user-pool API's address when it is not AWS's (the local identity stand-in). */
  COGNITO_ENDPOINT: z.optional(z.url()),
});

/** shop-status: it reads the settings item and the dispatch days' capacity, nothing else. */
export const shopStatusEnvSchema = z.object({
  ORDERS_TABLE_NAME: z.string().check(z.minLength(1)),
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  DISPATCH_CUTOFF_HOURS: STAGE_SETTINGS.dispatchCutoffHours,
  ...settingsMaxAgeEnv,
});

export const shopStatusRuntimeEnvSchema = atRunTime(shopStatusEnvSchema);

/** order-page: an order's page and address correction; a standing order's changes call Stripe (ADR 0059). */
export const orderPageEnvSchema = z.extend(stripeEnvSchema, {
  ...shopTableAndEmailEnv,
  SITE_URL: siteUrl,
  DISPATCH_CUTOFF_HOURS: STAGE_SETTINGS.dispatchCutoffHours,
  ...orderPageSecretEnv,
  SHOP_ID: shopId,
});
export const orderPageRuntimeEnvSchema = atRunTime(orderPageEnvSchema);
