import type { Node } from 'constructs';
import { z } from 'zod';
import {
  AWS_REGION_PATTERN,
  blankToUndefined,
  PLACEHOLDER_STAGES,
  SES_IDENTITY_MODES,
  STAGE_NAME_PATTERN,
  STAGE_SETTINGS,
} from '../../shared/stage-config';

/*
 * The deployment settings, read once from CDK context and validated before any construct is built:
 * the stage's own (shared/stage-config.ts) and the keys only a deployment has. Command-line values
 * arrive as strings, so booleans and numbers accept their string spellings.
 */

const optionalText = (max: number) =>
  z.preprocess(blankToUndefined, z.string().trim().min(1).max(max).optional());

const emailAddress = z.email({ error: 'expected an email address like orders@shop.example' });

const booleanFlag = z.union([z.boolean(), z.stringbool()], {
  error: 'expected true or false',
});

/** CloudFront only accepts ACM certificates from us-east-1, whatever region the stack is in. */
const cloudFrontCertificateArn = z
  .string()
  .trim()
  .regex(/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]+$/, {
    error: 'expected an ACM certificate ARN in us-east-1 (CloudFront only uses certificates from us-east-1)',
  });

/** Documentation domains: mail to them goes nowhere, so the shop would take payments and tell nobody. */
const PLACEHOLDER_DOMAIN = /(^|\.)(example\.(com|net|org|co\.uk)|example|test|invalid|localhost)$/i;

const shopConfigSchema = z
  .object({
    /** Seller, shop name, addresses, dispatch cut-off, public key, domain: the stage's own settings. */
    ...STAGE_SETTINGS,
    /** Short name of this deployment; part of the stack name, so one account can hold several. */
    stage: z.string().trim().regex(STAGE_NAME_PATTERN, {
      error: 'expected lower-case letters, digits and dashes, e.g. prod',
    }),
    /** When set, the stacks are pinned to it; otherwise the CLI's account (CDK_DEFAULT_ACCOUNT). */
    account: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .regex(/^\d{12}$/, { error: 'expected a 12-digit AWS account id' })
        .optional(),
    ),
    /** AWS region of this stage's shop; the WAF stack is always in us-east-1 (CloudFront's region). */
    region: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .regex(AWS_REGION_PATTERN, { error: 'expected an AWS region like eu-west-2' })
        .optional(),
    ),
    /**
     * `domain`: Easy DKIM for the sender's domain; `address`: SES mails the sender a link; `existing`:
     * already verified in this account and region, so the stack creates none (identities are unique there).
     */
    sesIdentity: z.preprocess(blankToUndefined, z.enum(SES_IDENTITY_MODES).default('domain')),
    /** AWS WAF in front of CloudFront (us-east-1). Default: on, except in the dev and local stages. */
    waf: z.preprocess(blankToUndefined, booleanFlag.optional()),
    /** Monthly AWS cost budget in US dollars; the alarm address hears at 80 % actual and 100 % forecast. */
    monthlyBudgetUsd: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(100_000).default(20)),
    /** Where alarms go; defaults to the merchant's address. */
    alarmEmail: z.preprocess(blankToUndefined, emailAddress.optional()),
    /** The Stripe mode of this deployment: events of the other mode are rejected by the webhook. */
    stripeLivemode: booleanFlag,
    /** The certificate of `domainName` (a shared setting, shared/stage-config.ts). */
    certificateArn: z.preprocess(blankToUndefined, cloudFrontCertificateArn.optional()),
    /** Route 53 public hosted zone of `domainName`: when set, the stack writes the alias and DKIM records. */
    hostedZoneId: optionalText(32),
    hostedZoneName: STAGE_SETTINGS.domainName,
    /**
     * Reserve Lambda concurrency per function. Off by default: with Lambda's 100 kept unreserved, a new
     * account's quota of 10 or 50 fails the deploy. Turn on once the quota is 1,000.
     */
    reservedConcurrency: z.preprocess(blankToUndefined, booleanFlag.default(false)),
    /**
     * The SES identity Cognito sends the merchant's invitations from; unset: Cognito's own sender. Set
     * by setup once SES has verified it, since Cognito refuses an unverified identity.
     */
    cognitoSenderIdentity: z.preprocess(blankToUndefined, z.string().trim().toLowerCase().optional()),
    /** Cognito domain prefix, unique across accounts; default `live-aquatics-<stage>-<account>`. */
    cognitoDomainPrefix: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, {
          error:
            'expected lower-case letters, digits and dashes, 1 to 63, not starting or ending with a dash',
        })
        .refine((prefix) => !/aws|amazon|cognito/.test(prefix), {
          error: 'Cognito refuses a prefix containing aws, amazon or cognito',
        })
        .optional(),
    ),
  })
  .superRefine((config, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!PLACEHOLDER_STAGES.includes(config.stage)) {
      for (const key of ['senderEmail', 'merchantEmail', 'alarmEmail', 'sellerEmail'] as const) {
        const address = config[key];
        if (address !== undefined && PLACEHOLDER_DOMAIN.test(address.slice(address.lastIndexOf('@') + 1))) {
          issue(
            key,
            `${address} is a placeholder; stage ${config.stage} needs a real address (placeholders are for ${PLACEHOLDER_STAGES.join(' and ')} only)`,
          );
        }
      }
      for (const key of ['sellerName', 'sellerAddress'] as const) {
        if (/\bexample\b/i.test(config[key])) {
          issue(
            key,
            `"${config[key]}" is a placeholder; stage ${config.stage} needs the real seller details`,
          );
        }
      }
      if (config.domainName !== undefined && PLACEHOLDER_DOMAIN.test(config.domainName)) {
        issue('domainName', `${config.domainName} is a placeholder domain`);
      }
    }
    const sender = config.senderEmail.toLowerCase();
    if (
      config.cognitoSenderIdentity !== undefined &&
      config.cognitoSenderIdentity !== sender &&
      config.cognitoSenderIdentity !== sender.slice(sender.lastIndexOf('@') + 1)
    ) {
      issue('cognitoSenderIdentity', `must be the sender's address ${sender} or its domain`);
    }
    if (config.domainName !== undefined && config.certificateArn === undefined) {
      issue('certificateArn', 'is required when domainName is set');
    }
    if (config.certificateArn !== undefined && config.domainName === undefined) {
      issue('domainName', 'is required when certificateArn is set');
    }
    const zoneKeys = [config.hostedZoneId, config.hostedZoneName].filter((v) => v !== undefined).length;
    if (zoneKeys === 1) {
      issue(
        config.hostedZoneId === undefined ? 'hostedZoneId' : 'hostedZoneName',
        'hostedZoneId and hostedZoneName go together',
      );
    }
    if (zoneKeys === 2 && config.domainName === undefined) {
      issue('domainName', 'is required when a hosted zone is set');
    }
    if (
      config.domainName !== undefined &&
      config.hostedZoneName !== undefined &&
      config.domainName !== config.hostedZoneName &&
      !config.domainName.endsWith(`.${config.hostedZoneName}`)
    ) {
      issue('hostedZoneName', `must be ${config.domainName} or a parent of it`);
    }
  });

type ParsedShopConfig = z.output<typeof shopConfigSchema>;

/** Validated deployment settings of one stage. */
export type ShopConfig = Omit<ParsedShopConfig, 'waf'> & {
  /** Whether the us-east-1 WAF stack guards CloudFront (resolved from the stage when unset). */
  readonly waf: boolean;
};

/** The context keys the shop reads; anything else in the context is CDK's own. */
export const SHOP_CONFIG_KEYS: readonly (keyof ParsedShopConfig)[] = shopConfigSchema.keyof().options;

/** The context key of per-stage overrides: `"stages": { "prod": { "account": "…", … } }`. */
export const STAGES_CONTEXT_KEY = 'stages';

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
    return { ...result.data, waf: result.data.waf ?? !PLACEHOLDER_STAGES.includes(result.data.stage) };
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
      'Set these in the "context" block of cdk.json, or pass --context <key>=<value> (see docs/deploy-reference.md).',
    ].join('\n'),
  );
}

const stageOverridesSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

/**
 * Reads and validates the shop's context keys; the stage's block under `stages` wins over the top
 * level, so one cdk.json holds a test and a live stage side by side.
 */
export function readShopConfig(node: Node): ShopConfig {
  const raw: Record<string, unknown> = {};
  for (const key of SHOP_CONFIG_KEYS) {
    raw[key] = node.tryGetContext(key);
  }
  const stages = stageOverridesSchema.safeParse(node.tryGetContext(STAGES_CONTEXT_KEY) ?? {});
  if (!stages.success) {
    throw new ShopConfigError(
      `Invalid shop configuration in CDK context:\n  - ${STAGES_CONTEXT_KEY}: expected { "<stage>": { "<key>": <value> } }`,
    );
  }
  const overrides = typeof raw.stage === 'string' ? stages.data[raw.stage] : undefined;
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (!(SHOP_CONFIG_KEYS as readonly string[]).includes(key) || key === 'stage') {
      throw new ShopConfigError(
        `Invalid shop configuration in CDK context:\n  - ${STAGES_CONTEXT_KEY}.${String(raw.stage)}.${key}: not a stage setting`,
      );
    }
    raw[key] = value;
  }
  return parseShopConfig(raw);
}
