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

/** Prices an order from the product table: the server's quote is the truth, the browser shows the same. */
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
 * `formatGbp(123456)` → "£1,234.56", as en-GB writes it. Spelled out rather than asked of Intl, whose
 * ICU load costs a Lambda cold start (ADR 0034); test/shared/pricing.test.ts holds it to Intl's.
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

/** Pounds (as the browser sends them) to pence; `undefined` beyond 2 decimals or not finite. */
export function poundsToPence(pounds: number): number | undefined {
  if (!Number.isFinite(pounds)) return undefined;
  const pence = Math.round(pounds * 100);
  // 14.7 * 100 is 1469.9999999999998: accept binary noise, refuse a real third decimal.
  return Math.abs(pence - pounds * 100) < 1e-6 ? pence : undefined;
}
