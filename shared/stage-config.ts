import * as z from 'zod/mini';
import { DEFAULT_DISPATCH_CUTOFF_HOURS } from './dispatch-cutoff.ts';
import {
  DEFAULT_PROMOTION_REFERENCE_PENCE,
  DEFAULT_PROMOTION_WORDING,
  DEFAULT_TRIAL_RUN_NOTICE,
  promotionReferenceSetting,
  promotionWordingSetting,
  type SellerClaims,
  sellerClaimsOf,
  trialRunNoticeSetting,
} from './seller-claims.ts';

/*
 * A stage's settings, declared once with one set of limits: CDK context gives them, the Lambdas
 * check them with these schemas (lambdas/lib/config.ts), the site is built with them (vite.config.ts)
 * and the operator's commands read them back. No Node imports: vite.config.ts runs this too.
 * Messages are written here, not left to zod's locale, so a bad value reads the same everywhere.
 */

/** A stage's name: part of its stacks' names, so one account can hold several. */
export const STAGE_NAME_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/** A stage's region when neither its block, a flag nor the shell names one: London. */
export const DEFAULT_REGION = 'eu-west-2';

/** An AWS region's name, as `eu-west-2`: what infra and the operator's commands accept. */
export const AWS_REGION_PATTERN = /^[a-z]{2}(-[a-z]+)+-\d$/;

/** Stages whose example.com placeholders infra accepts; no WAF or MFA by default there. */
export const PLACEHOLDER_STAGES: readonly string[] = ['dev', 'local'];

/** How the stack gets SES identities for the sender (and the merchant, while in the sandbox). */
export const SES_IDENTITY_MODES = ['domain', 'address', 'existing'] as const;

/** Six days: each week's cut-off then falls after the previous week's dispatch day. */
export const MAX_DISPATCH_CUTOFF_HOURS = 144;

/** A value set to "" (an empty `-c key=` or environment variable) counts as not set. */
export const blankToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** `schema`, with a blank value read as unset. */
function unsetWhenBlank<T extends z.ZodMiniType>(schema: T) {
  return z.pipe(z.transform(blankToUndefined), schema);
}

function text(max: number) {
  const error = `expected text of 1 to ${max} characters`;
  return z.string({ error }).check(z.trim(), z.minLength(1, { error }), z.maxLength(max, { error }));
}

const optionalText = (max: number) => unsetWhenBlank(z.optional(text(max)));

const emailAddress = z.email({ error: 'expected an email address like orders@shop.example' });

const hostname = z.string({ error: 'expected a DNS name like shop.example.co.uk' }).check(
  z.trim(),
  z.toLowerCase(),
  z.regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    error: 'expected a DNS name like shop.example.co.uk',
  }),
);

/** Open-Meteo's plans: the free endpoint is for non-commercial use only (open-meteo.com/en/pricing). */
export const FORECAST_PLANS = ['free', 'commercial'] as const;

const cutoffError = `expected a whole number of hours from 0 to ${MAX_DISPATCH_CUTOFF_HOURS}`;

/** Each setting's schema; numbers accept their string spellings (`-c` and environment variables). */
export const STAGE_SETTINGS = {
  /** The shop's name as customers know it: page titles, the payment tab, the footer. */
  shopName: unsetWhenBlank(z._default(text(100), 'Live Aquatics')),
  /** The trading (or company) name that sells: pages, emails, and every email's From name. */
  sellerName: text(200),
  /** A geographic address, not a PO box. */
  sellerAddress: text(500),
  /** Where customers write to the seller. */
  sellerEmail: emailAddress,
  /** Shown on the contact page when set. */
  sellerPhone: optionalText(40),
  sellerCompanyNumber: optionalText(20),
  sellerVatNumber: optionalText(20),
  /** The From address of every email the shop sends (verified in SES by the stack). */
  senderEmail: emailAddress,
  /** Where "new order" notices and order requests go. */
  merchantEmail: emailAddress,
  /** Hours before the start of dispatch day after which an order goes to the next week. */
  dispatchCutoffHours: unsetWhenBlank(
    z._default(
      z.coerce
        .number({ error: cutoffError })
        .check(
          z.refine(Number.isInteger, { error: cutoffError }),
          z.minimum(0, { error: cutoffError }),
          z.maximum(MAX_DISPATCH_CUTOFF_HOURS, { error: cutoffError }),
        ),
      DEFAULT_DISPATCH_CUTOFF_HOURS,
    ),
  ),
  /** `commercial`: the stage trades, so a missing Open-Meteo key is alarmed and costed (ADR 0045). */
  forecastPlan: unsetWhenBlank(
    z._default(z.enum(FORECAST_PLANS, { error: 'expected free or commercial' }), 'free'),
  ),
  /** Optional public bearer the page sends to create-checkout; not a secret. */
  publicApiKey: optionalText(200),
  /** The shop's own domain, when it has one (infra/lib/config.ts asks for its certificate). */
  domainName: unsetWhenBlank(z.optional(hostname)),
  /** First in "Important Information": the spec's "This is a trial run." unless set, or false for none. */
  trialRunNotice: trialRunNoticeSetting,
  /** `commercial`: the stage trades, so a missing Open-Meteo key is alarmed (ADR 0045). */
  promotionReferencePence: promotionReferenceSetting,
  /** The promotion's wording, stating the pack's price (spec: "£9.75 for 3 bottles"). */
  promotionWording: promotionWordingSetting,
};

/** The stage's settings, checked together. */
export const stageSettingsSchema = z.object(STAGE_SETTINGS);

/** A stage's checked settings. */
export type StageSettings = z.output<typeof stageSettingsSchema>;

/** The seller as the pages show it: footer, policy pages, contact page, payment tab. */
export interface Seller {
  shopName: string;
  name: string;
  address: string;
  email: string;
  phone?: string | undefined;
  companyNumber?: string | undefined;
  vatNumber?: string | undefined;
}

/** What the site is built with, carried into the pages as JSON (`__SITE_CONFIG__`): unset is absent. */
export interface SiteConfig {
  seller: Seller;
  dispatchCutoffHours: number;
  publicKey?: string | undefined;
  /** The trial-run sentence and the promotion the order page shows. */
  claims: SellerClaims;
}

/** The part of a stage's settings the site is built with. */
export function siteConfigOf(settings: StageSettings): SiteConfig {
  return {
    seller: {
      shopName: settings.shopName,
      name: settings.sellerName,
      address: settings.sellerAddress,
      email: settings.sellerEmail,
      phone: settings.sellerPhone,
      companyNumber: settings.sellerCompanyNumber,
      vatNumber: settings.sellerVatNumber,
    },
    dispatchCutoffHours: settings.dispatchCutoffHours,
    publicKey: settings.publicApiKey,
    claims: sellerClaimsOf(settings),
  };
}

/** The local stage (`npm start`, `build:web`, tests): a seller at `.test` addresses no mail server takes. */
export const LOCAL_STAGE_SETTINGS: StageSettings = {
  shopName: 'Live Aquatics',
  sellerName: 'Live Aquatics (local test shop)',
  sellerAddress: '1 Test Street, Testville, TE1 1ST',
  sellerEmail: 'hello@live-aquatics.test',
  sellerPhone: undefined,
  sellerCompanyNumber: undefined,
  sellerVatNumber: undefined,
  senderEmail: 'orders@live-aquatics.test',
  merchantEmail: 'merchant@live-aquatics.test',
  dispatchCutoffHours: DEFAULT_DISPATCH_CUTOFF_HOURS,
  forecastPlan: 'free',
  publicApiKey: undefined,
  domainName: undefined,
  trialRunNotice: DEFAULT_TRIAL_RUN_NOTICE,
  promotionReferencePence: DEFAULT_PROMOTION_REFERENCE_PENCE,
  promotionWording: DEFAULT_PROMOTION_WORDING,
};

/** How the CDK app gives `vite build` the stage's settings as JSON (written by site-build.ts). */
export const STAGE_SETTINGS_ENV = 'SHOP_STAGE_SETTINGS';

/** The stage's settings are missing or wrong; the message names each key and its limit. */
export class StageSettingsError extends Error {
  override readonly name = 'StageSettingsError';
}

/** The settings in {@link STAGE_SETTINGS_ENV}, else the local stage's. @throws StageSettingsError */
export function readStageSettings(env: Readonly<Record<string, string | undefined>>): StageSettings {
  const json = env[STAGE_SETTINGS_ENV];
  if (json === undefined || json === '') return LOCAL_STAGE_SETTINGS;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new StageSettingsError(`${STAGE_SETTINGS_ENV} is not JSON`);
  }
  const result = stageSettingsSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `  - ${issue.path.map(String).join('.') || '(settings)'}: ${issue.message}`,
  );
  throw new StageSettingsError([`Invalid stage settings in ${STAGE_SETTINGS_ENV}:`, ...problems].join('\n'));
}
