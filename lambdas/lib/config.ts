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

/**
 * Parses environment variables with a zod schema, once per cold start. This is the only place
 * the lambdas read configuration; everything else receives typed values.
 */
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
 * SHOP_ID: this deployment's marker in Stripe metadata (`<stack>-<stage>`, set by the stack), so
 * deployments sharing a Stripe account ignore each other's sessions. Required: a deployment
 * without one would take every other deployment's sessions for its own.
 */
const shopId = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/));

/**
 * The orders table and the sender of the shop's own emails, for create-checkout: it reads the
 * shop's settings (pause, requests mode) and, in requests mode, records requests and emails them.
 * The stage's settings among them are checked with the stage's own schemas and limits
 * (shared/stage-config.ts), the ones synthesis checked the context with.
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
 * Where the weather check asks for forecasts (Open-Meteo's API, lambdas/domain/weather/open-meteo.ts):
 * https://api.open-meteo.com, or https://customer-api.open-meteo.com with a commercial key, or the
 * local stand-in. The key, when there is one, is a secret: only its Secrets Manager id is set here.
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
 * The order page's secret (docs/decisions/0037-order-page-link.md), which seals the links every
 * order email carries: deployed, the id of a Secrets Manager secret read through the extension;
 * locally, the value itself. Optional for the emailing functions (an email without the link is
 * still the right email); the order page's own function requires one.
 */
const orderPageSecretEnv = {
  ORDER_PAGE_SECRET_ID: optionalText,
  ORDER_PAGE_SECRET: optionalText,
};
export type OrderPageSecretEnv = {
  ORDER_PAGE_SECRET_ID?: string | undefined;
  ORDER_PAGE_SECRET?: string | undefined;
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT?: number | undefined;
};

/**
 * The merchant's Web Push notifications (ADR 0056): deployed, the id of the stage's VAPID key
 * secret, read through the extension; locally, the pair itself. Neither: no pushes, the emails
 * still go. PUSH_LOCAL_ORIGIN (local stacks only) is the push-service stand-in's http origin, the
 * one non-https endpoint a subscription may name.
 */
const pushEnv = {
  VAPID_SECRET_ID: optionalText,
  VAPID_PUBLIC_KEY: optionalText,
  VAPID_PRIVATE_KEY: optionalText,
  PUSH_LOCAL_ORIGIN: z.optional(z.url({ protocol: /^http$/ })),
};
export type PushEnv = {
  VAPID_SECRET_ID?: string | undefined;
  VAPID_PUBLIC_KEY?: string | undefined;
  VAPID_PRIVATE_KEY?: string | undefined;
  PUSH_LOCAL_ORIGIN?: string | undefined;
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT?: number | undefined;
};

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

/**
 * checkout-status. With the table and the order page's secret it answers a placed order's page
 * link (ADR 0047); without them, the status alone.
 */
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
 * What stripe-webhook and reconcile-orders parse: the settings the stack sets (above, which
 * test/infra holds to the template) plus AWS_REGION, which the Lambda runtime sets (a reserved
 * name no stack may set) and the local stack sets. Parsed rather than left to the SDK's own
 * lookup, so a missing one fails at cold start with its name, like every other setting.
 */
export const fulfilmentRuntimeEnvSchema = z.extend(fulfilmentEnvSchema, {
  AWS_REGION: z.string().check(z.minLength(1)),
});
export type FulfilmentEnv = z.output<typeof fulfilmentRuntimeEnvSchema>;

/** create-checkout at run time: what the stack sets, plus what the runtime sets (see fulfilmentRuntimeEnvSchema). */
export const checkoutRuntimeEnvSchema = z.extend(checkoutEnvSchema, {
  AWS_REGION: z.string().check(z.minLength(1)),
});
export type CheckoutEnv = z.output<typeof checkoutRuntimeEnvSchema>;

/**
 * admin-api: the operator's actions behind sign-in, so what the CLI's commands reuse from the
 * webhook (table, sender, seller, cut-off, marker) plus the site for payment links.
 */
export const adminEnvSchema = z.extend(stripeEnvSchema, {
  ...shopTableAndEmailEnv,
  ...forecastEnvSchema.shape,
  SITE_URL: siteUrl,
  DISPATCH_CUTOFF_HOURS: STAGE_SETTINGS.dispatchCutoffHours,
  SHOP_ID: shopId,
  ...orderPageSecretEnv,
  ...pushEnv,
});

/**
 * weather-notice: the daily check that emails the merchant when an order of tomorrow's dispatch is
 * at risk (the table, the sender, the forecast, the site for the link to the week).
 */
export const weatherNoticeEnvSchema = z.object({
  ...shopTableAndEmailEnv,
  ...forecastEnvSchema.shape,
  SITE_URL: siteUrl,
});

/** weather-notice at run time. */
export const weatherNoticeRuntimeEnvSchema = z.extend(weatherNoticeEnvSchema, {
  AWS_REGION: z.string().check(z.minLength(1)),
});

/** admin-api at run time. */
export const adminRuntimeEnvSchema = z.extend(adminEnvSchema, {
  AWS_REGION: z.string().check(z.minLength(1)),
});

/** shop-status: it reads the settings item and the dispatch days' capacity, nothing else. */
export const shopStatusEnvSchema = z.object({
  ORDERS_TABLE_NAME: z.string().check(z.minLength(1)),
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  DISPATCH_CUTOFF_HOURS: STAGE_SETTINGS.dispatchCutoffHours,
  ...settingsMaxAgeEnv,
});

/** shop-status at run time. */
export const shopStatusRuntimeEnvSchema = z.extend(shopStatusEnvSchema, {
  AWS_REGION: z.string().check(z.minLength(1)),
});

/**
 * order-page: the customer's page of one order, and its correction of the delivery details; and a
 * standing order's page, whose changes call Stripe with the fulfilment key (ADR 0059).
 */
export const orderPageEnvSchema = z.extend(stripeEnvSchema, {
  ...shopTableAndEmailEnv,
  SITE_URL: siteUrl,
  DISPATCH_CUTOFF_HOURS: STAGE_SETTINGS.dispatchCutoffHours,
  ...orderPageSecretEnv,
  SHOP_ID: shopId,
});

/** order-page at run time. */
export const orderPageRuntimeEnvSchema = z.extend(orderPageEnvSchema, {
  AWS_REGION: z.string().check(z.minLength(1)),
});
