import * as z from 'zod/mini';
import { formatGbp, quoteOrder } from './pricing.ts';
import { PROMO } from './product.ts';

// The seller's claims on the order page (stage settings): the trial-run sentence and the promotion.
// Display only: checkout prices from pricing.ts whatever they say. Unset: the spec's; `false` (or "off"): none.

/** The spec's trial-run sentence, shown first in "Important Information" unless the stage turns it off. */
export const DEFAULT_TRIAL_RUN_NOTICE = 'This is a trial run.';
/** The spec's struck-through reference price, £12.00, in pence. */
export const DEFAULT_PROMOTION_REFERENCE_PENCE = 1200;
/** The spec's promotion wording beside the reference price. */
export const DEFAULT_PROMOTION_WORDING = '£9.75 for 3 bottles';

/** Longest trial-run sentence: one line of the list on a phone, give or take. */
export const MAX_TRIAL_RUN_NOTICE = 200;
/** Longest promotion wording: it sits on the product card beside the struck-through price. */
export const MAX_PROMOTION_WORDING = 60;
/** Highest reference price, £1,000: anything near it for 3 bottles is a typing slip. */
export const MAX_PROMOTION_REFERENCE_PENCE = 100_000;

/** The price a reference price is compared with: the promotion's pack as the checkout charges it. */
export const PROMOTION_PRICE_PENCE = quoteOrder(PROMO.bottles).subtotalPence;

/** What the pages show: a claim turned off is an absent key, as the site's JSON carries it. */
export interface SellerClaims {
  trialRunNotice?: string | undefined;
  promotion?: { referencePence: number; wording: string } | undefined;
}

/** `false`, or "off" / "false" as the command line and setup's questions give it. */
function isOff(value: unknown): boolean {
  return value === false || (typeof value === 'string' && /^(off|false)$/i.test(value.trim()));
}

const isUnset = (value: unknown) => value === undefined || (typeof value === 'string' && value.trim() === '');

type Issues = z.core.ParsePayload['issues'];
const refuse = (issues: Issues, input: unknown, message: string) => {
  issues.push({ code: 'custom', input, message });
  return z.NEVER;
};

const noticeError = `expected a sentence of 1 to ${MAX_TRIAL_RUN_NOTICE} characters ending in ".", "!" or "?", or false to show none`;

/** The trial-run sentence: the spec's when unset, `false` when turned off. */
export const trialRunNoticeSetting = z.transform((value: unknown, ctx): string | false => {
  if (isUnset(value)) return DEFAULT_TRIAL_RUN_NOTICE;
  if (isOff(value)) return false;
  if (typeof value !== 'string') return refuse(ctx.issues, value, noticeError);
  const sentence = value.trim();
  // The next words of the point follow it, so it must end as a sentence does.
  if (sentence.length > MAX_TRIAL_RUN_NOTICE || !/[.!?]$/.test(sentence))
    return refuse(ctx.issues, value, noticeError);
  return sentence;
});

const referenceError = `expected a whole number of pence above ${PROMOTION_PRICE_PENCE} and at most ${MAX_PROMOTION_REFERENCE_PENCE}, or false for no promotion`;

/**
 * The promotion's reference price in pence: the spec's £12.00 when unset, `false` for no
 * promotion. It must be above the price it is compared with, or the "reduction" is none.
 */
export const promotionReferenceSetting = z.transform((value: unknown, ctx): number | false => {
  if (isUnset(value)) return DEFAULT_PROMOTION_REFERENCE_PENCE;
  if (isOff(value)) return false;
  const pence = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (
    typeof pence !== 'number' ||
    !Number.isInteger(pence) ||
    pence < 0 ||
    pence > MAX_PROMOTION_REFERENCE_PENCE
  )
    return refuse(ctx.issues, value, referenceError);
  if (pence <= PROMOTION_PRICE_PENCE)
    return refuse(
      ctx.issues,
      value,
      `${pence} pence (${formatGbp(pence)}) is not above the price it is compared with, ${PROMOTION_PRICE_PENCE} pence (${formatGbp(PROMOTION_PRICE_PENCE)} for ${PROMO.bottles} bottles): a reference price must be higher, and one genuinely charged before (docs/deploy.md)`,
    );
  return pence;
});

const wordingError = `expected text of 1 to ${MAX_PROMOTION_WORDING} characters that states the price charged, ${formatGbp(PROMOTION_PRICE_PENCE)}`;

/**
 * The promotion's wording beside the struck-through price: the spec's when unset. It must state
 * the price the checkout charges for the pack, so the card never claims another.
 */
export const promotionWordingSetting = z.transform((value: unknown, ctx): string => {
  if (isUnset(value)) return DEFAULT_PROMOTION_WORDING;
  if (typeof value !== 'string') return refuse(ctx.issues, value, wordingError);
  const wording = value.trim();
  if (wording.length > MAX_PROMOTION_WORDING || !wording.includes(formatGbp(PROMOTION_PRICE_PENCE)))
    return refuse(ctx.issues, value, wordingError);
  return wording;
});

/** The claims the pages show, from a stage's checked settings. */
export function sellerClaimsOf(settings: {
  trialRunNotice: string | false;
  promotionReferencePence: number | false;
  promotionWording: string;
}): SellerClaims {
  return {
    trialRunNotice: settings.trialRunNotice === false ? undefined : settings.trialRunNotice,
    promotion:
      settings.promotionReferencePence === false
        ? undefined
        : { referencePence: settings.promotionReferencePence, wording: settings.promotionWording },
  };
}
