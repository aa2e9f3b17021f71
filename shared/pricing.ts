import { DAPHNIA, isAllowedQuantity, SHIPPING_PENCE } from './product.ts';

/** A priced order. Every amount is integer pence: floats never carry money here. */
export interface Quote {
  bottles: number;
  unitPricePence: number;
  subtotalPence: number;
  shippingPence: number;
  totalPence: number;
}

export class InvalidQuantityError extends Error {
  constructor(readonly quantity: unknown) {
    super(`Quantity must be one of 3, 6 or 9 bottles, got ${String(quantity)}`);
    this.name = 'InvalidQuantityError';
  }
}

/**
 * Prices an order of `quantity` bottles from the product table. The server's quote is the only
 * source of truth for what a customer pays; the browser uses the same function to display it.
 * @throws InvalidQuantityError for anything but 3, 6 or 9.
 */
export function quoteOrder(quantity: number): Quote {
  if (!isAllowedQuantity(quantity)) throw new InvalidQuantityError(quantity);
  const subtotalPence = quantity * DAPHNIA.unitPricePence;
  return {
    bottles: quantity,
    unitPricePence: DAPHNIA.unitPricePence,
    subtotalPence,
    shippingPence: SHIPPING_PENCE,
    totalPence: subtotalPence + SHIPPING_PENCE,
  };
}

/**
 * The one way money is shown: `formatGbp(1470)` → "£14.70", `formatGbp(123456)` → "£1,234.56", as
 * en-GB's currency format writes them. Spelled out from the integer pence rather than asked of
 * Intl, whose first use loads ICU's data on a Lambda's cold start (ADR 0034);
 * test/shared/pricing.test.ts holds it to Intl's en-GB GBP format.
 */
export function formatGbp(pence: number): string {
  const whole = Math.round(Math.abs(pence));
  return `${pence < 0 ? '-' : ''}£${formatCount(Math.floor(whole / 100))}.${String(whole % 100).padStart(2, '0')}`;
}

/** "2,700": a whole number with en-GB's thousands separators, without Intl (ADR 0034). */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Pence to a pounds number with 2 decimals: the checkout request body carries amounts in pounds. */
export function penceToPounds(pence: number): number {
  return Math.round(pence) / 100;
}

/**
 * Pounds (as the browser sends them) to pence, or `undefined` when the value has more than
 * 2 decimals or is not a finite number: such a value can never match a quote.
 */
export function poundsToPence(pounds: number): number | undefined {
  if (!Number.isFinite(pounds)) return undefined;
  const pence = Math.round(pounds * 100);
  // 14.7 * 100 is 1469.9999999999998: accept binary noise, refuse a real third decimal.
  return Math.abs(pence - pounds * 100) < 1e-6 ? pence : undefined;
}
