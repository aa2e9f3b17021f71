import { randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-looking id such as `cs_test_a1B2…`; crypto-random so ids cannot be guessed from one another. */
export function randomId(prefix: string, length: number): string {
  let id = prefix;
  for (let index = 0; index < length; index += 1) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

export const newSessionId = () => randomId('cs_test_', 58);
export const newPaymentIntentId = () => randomId('pi_', 24);
export const newEventId = () => randomId('evt_', 24);
export const newRequestId = () => randomId('req_', 14);
export const newLineItemId = () => randomId('li_', 24);
export const newPriceId = () => randomId('price_', 24);
export const newProductId = () => randomId('prod_', 14);
export const newShippingRateId = () => randomId('shr_', 24);

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
