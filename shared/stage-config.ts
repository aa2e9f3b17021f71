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
 * A stage's settings: who sells, under which shop name, from which addresses, with which dispatch
 * cut-off, domain and public key, and the seller's claims on the order page (shared/seller-claims.ts).
 * Declared here once, with one set of limits, and read from here by everything that needs them:
 * CDK context gives them (infra/lib/config.ts adds the keys only a deployment has), the stack hands
 * them to the Lambdas as environment variables that lambdas/lib/config.ts checks with these same schemas, the CDK app builds the site with them
 * (vite.config.ts, `STAGE_SETTINGS_ENV`), and the operator's commands read them back from a
 * deployed function. No Node imports: vite.config.ts and the tests of the web run it too, though the
 * page itself only ever gets the checked values, never this module.
 *
 * Every message is written here rather than left to zod's locale, so a bad value reads the same
 * wherever it is checked, and says the limit.
 */

/** The latest cut-off: six days before dispatch day, so each week's cut-off falls after the previous week's dispatch day. */
export const MAX_DISPATCH_CUTOFF_HOURS = 144;

/** A value set to "" (an empty `-c key=` or environment variable) counts as not set. */
const blankToUndefined = (value: unknown): unknown =>
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

/**
 * Each setting's schema. Numbers accept their string spellings, as the command line (`-c`) and
 * environment variables give them.
 */
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
  /**
   * Open-Meteo's plan for the weather check: `free` (its non-commercial endpoint) or `commercial`,
   * the stage's declaration that it trades, so a missing key is shown, alarmed and costed (ADR 0045).
   */
  forecastPlan: unsetWhenBlank(
    z._default(z.enum(FORECAST_PLANS, { error: 'expected free or commercial' }), 'free'),
  ),
  /** Optional public bearer the page sends to create-checkout; not a secret. */
  publicApiKey: optionalText(200),
  /** The shop's own domain, when it has one (infra/lib/config.ts asks for its certificate). */
  domainName: unsetWhenBlank(z.optional(hostname)),
  /** First in "Important Information": the spec's "This is a trial run." unless set, or false for none. */
  trialRunNotice: trialRunNoticeSetting,
  /** The struck-through reference price in pence (spec: 1200), above the pack's price, or false for no promotion. */
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

/**
 * What the site is built with: the seller it shows, the cut-off its dispatch wording and dates
 * use, the key it sends, and the seller's claims. Carried into the pages as JSON
 * (`__SITE_CONFIG__`), so an unset value is an absent key.
 */
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

/**
 * The local stage: what `npm start`, `npm run build:web` and the tests use unless told otherwise.
 * A test seller at `.test` addresses, which no mail server delivers to.
 */
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

/**
 * The environment variable through which the CDK app gives `vite build` the stage's settings, as
 * JSON (infra/lib/site-build.ts writes it, vite.config.ts reads it). Unset, the build is the
 * local stage's.
 */
export const STAGE_SETTINGS_ENV = 'SHOP_STAGE_SETTINGS';

/** The stage's settings are missing or wrong; the message names each key and its limit. */
export class StageSettingsError extends Error {
  override readonly name = 'StageSettingsError';
}

/**
 * The stage's settings given to a build through {@link STAGE_SETTINGS_ENV}, checked with the
 * same schema; the local stage's when the variable is unset.
 * @throws StageSettingsError naming every bad key.
 */
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
