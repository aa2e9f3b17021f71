import { z } from 'zod';
import { DEFAULT_DISPATCH_CUTOFF_HOURS } from '../../shared/dispatch';

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
export function parseEnv<T extends z.ZodType>(schema: T, env: Env): z.output<T> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`),
  );
}

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** Where the Stripe SDK goes and how its keys are found. */
export const stripeEnvSchema = z.object({
  /** Secrets Manager id of `{ "stripeSecretKey", "stripeWebhookSecret" }`: the deployed way. */
  STRIPE_SECRET_ID: optionalText,
  /** Local development only, when no STRIPE_SECRET_ID is set. */
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** e.g. http://localhost:12111 for the simulator; absent means api.stripe.com. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  STRIPE_LIVEMODE: z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .transform((v) => v === 'true'),
});
export type StripeEnv = z.output<typeof stripeEnvSchema>;

const dispatchCutoffHours = z.coerce
  .number()
  .min(0)
  .max(24 * 6)
  .optional()
  .transform((value) => value ?? DEFAULT_DISPATCH_CUTOFF_HOURS);

/** create-checkout */
export const checkoutEnvSchema = stripeEnvSchema.extend({
  SITE_URL: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, '')),
  PUBLIC_API_KEY: optionalText,
  DISPATCH_CUTOFF_HOURS: dispatchCutoffHours,
});
export type CheckoutEnv = z.output<typeof checkoutEnvSchema>;

/** checkout-status */
export const statusEnvSchema = stripeEnvSchema;

/** stripe-webhook and reconcile-orders */
export const fulfilmentEnvSchema = stripeEnvSchema.extend({
  ORDERS_TABLE_NAME: z.string().min(1),
  DYNAMODB_ENDPOINT: z.url().optional(),
  SES_ENDPOINT: z.url().optional(),
  SES_FROM_ADDRESS: z.email(),
  MERCHANT_EMAIL: z.email(),
  SES_CONFIGURATION_SET: optionalText,
  SELLER_NAME: z.string().min(1),
  SELLER_ADDRESS: z.string().min(1),
  SELLER_EMAIL: z.email(),
  SELLER_COMPANY_NUMBER: optionalText,
  SELLER_VAT_NUMBER: optionalText,
  DISPATCH_CUTOFF_HOURS: dispatchCutoffHours,
});

/**
 * What stripe-webhook and reconcile-orders parse: the settings the stack sets (above, which
 * test/infra holds to the template) plus AWS_REGION, which the Lambda runtime sets (a reserved
 * name no stack may set) and the local stack sets. Parsed rather than left to the SDK's own
 * lookup, so a missing one fails at cold start with its name, like every other setting.
 */
export const fulfilmentRuntimeEnvSchema = fulfilmentEnvSchema.extend({ AWS_REGION: z.string().min(1) });
export type FulfilmentEnv = z.output<typeof fulfilmentRuntimeEnvSchema>;
