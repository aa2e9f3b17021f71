import type { Node } from 'constructs';
import { z } from 'zod';

/*
 * The shop's deployment settings, read once from CDK context (cdk.json "context", or
 * `--context key=value` on the command line) and validated before any construct is built.
 * Values from the command line always arrive as strings, so booleans and numbers accept their
 * string spellings too.
 */

/** A context value that was set to an empty string counts as not set. */
const blankToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const requiredText = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) =>
  z.preprocess(blankToUndefined, z.string().trim().min(1).max(max).optional());

const emailAddress = z.email({ error: 'expected an email address like orders@shop.example' });

const booleanFlag = z.union([z.boolean(), z.stringbool()], {
  error: 'expected true or false',
});

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    error: 'expected a DNS name like shop.example.co.uk',
  });

/** CloudFront only accepts ACM certificates from us-east-1, whatever region the stack is in. */
const cloudFrontCertificateArn = z
  .string()
  .trim()
  .regex(/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]+$/, {
    error: 'expected an ACM certificate ARN in us-east-1 (CloudFront only uses certificates from us-east-1)',
  });

const shopConfigSchema = z
  .object({
    /** Short name of this deployment; part of the stack name, so one account can hold several. */
    stage: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9-]{0,19}$/, {
        error: 'expected lower-case letters, digits and dashes, e.g. prod',
      }),
    /** The From address of every email (verified in SES by this stack). */
    senderEmail: emailAddress,
    /** Where "new order" notices go. */
    merchantEmail: emailAddress,
    /** Where alarms go; defaults to the merchant's address. */
    alarmEmail: z.preprocess(blankToUndefined, emailAddress.optional()),
    sellerName: requiredText(200),
    sellerAddress: requiredText(500),
    sellerEmail: emailAddress,
    sellerCompanyNumber: optionalText(20),
    sellerVatNumber: optionalText(20),
    /** The Stripe mode of this deployment: events of the other mode are rejected by the webhook. */
    stripeLivemode: booleanFlag,
    /** Hours before the start of dispatch day after which an order goes to the next week. */
    dispatchCutoffHours: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(168).default(36)),
    /** Optional public bearer the page sends to create-checkout; not a secret, so it may live in context. */
    publicApiKey: optionalText(200),
    /** Custom domain of the shop; needs `certificateArn`. */
    domainName: z.preprocess(blankToUndefined, hostname.optional()),
    certificateArn: z.preprocess(blankToUndefined, cloudFrontCertificateArn.optional()),
    /** Route 53 public hosted zone of `domainName`: when set, the stack writes the alias and DKIM records. */
    hostedZoneId: optionalText(32),
    hostedZoneName: z.preprocess(blankToUndefined, hostname.optional()),
    /**
     * Reserve Lambda concurrency per function. New AWS accounts may have a total quota of only 10,
     * which leaves nothing to reserve: set false there until the quota is raised.
     */
    reservedConcurrency: z.preprocess(blankToUndefined, booleanFlag.default(true)),
    /** The Vite build to deploy, relative to the repository root. */
    webBuildDir: z.preprocess(blankToUndefined, z.string().trim().min(1).default('dist/web')),
  })
  .superRefine((config, ctx) => {
    if (config.domainName !== undefined && config.certificateArn === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['certificateArn'],
        message: 'is required when domainName is set',
      });
    }
    if (config.certificateArn !== undefined && config.domainName === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['domainName'],
        message: 'is required when certificateArn is set',
      });
    }
    const zoneKeys = [config.hostedZoneId, config.hostedZoneName].filter((v) => v !== undefined).length;
    if (zoneKeys === 1) {
      ctx.addIssue({
        code: 'custom',
        path: [config.hostedZoneId === undefined ? 'hostedZoneId' : 'hostedZoneName'],
        message: 'hostedZoneId and hostedZoneName go together',
      });
    }
    if (zoneKeys === 2 && config.domainName === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['domainName'],
        message: 'is required when a hosted zone is set',
      });
    }
    if (
      config.domainName !== undefined &&
      config.hostedZoneName !== undefined &&
      config.domainName !== config.hostedZoneName &&
      !config.domainName.endsWith(`.${config.hostedZoneName}`)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['hostedZoneName'],
        message: `must be ${config.domainName} or a parent of it`,
      });
    }
  });

/** Validated deployment settings of one shop stack. */
export type ShopConfig = z.output<typeof shopConfigSchema>;

/** The context keys the shop reads; anything else in the context is CDK's own. */
export const SHOP_CONFIG_KEYS: readonly (keyof ShopConfig)[] = shopConfigSchema.keyof().options;

/** Raised when the context is missing a setting or has an invalid one; the message names each key. */
export class ShopConfigError extends Error {
  override readonly name = 'ShopConfigError';
}

/**
 * Validates raw settings (as found in CDK context) and returns the typed config.
 * @throws ShopConfigError naming every missing or invalid key and how to set it.
 */
export function parseShopConfig(raw: Readonly<Record<string, unknown>>): ShopConfig {
  const result = shopConfigSchema.safeParse(raw);
  if (result.success) {
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.map(String).join('.') || '(context)';
    const missing = issue.code !== 'custom' && raw[key] === undefined;
    return missing ? `  - ${key}: missing` : `  - ${key}: ${issue.message}`;
  });
  throw new ShopConfigError(
    [
      'Invalid shop configuration in CDK context:',
      ...problems,
      'Set these in the "context" block of cdk.json, or pass --context <key>=<value> (see docs/deploy.md).',
    ].join('\n'),
  );
}

/** Reads the shop's keys from the construct tree's context (cdk.json plus --context) and validates them. */
export function readShopConfig(node: Node): ShopConfig {
  const raw: Record<string, unknown> = {};
  for (const key of SHOP_CONFIG_KEYS) {
    raw[key] = node.tryGetContext(key);
  }
  return parseShopConfig(raw);
}
