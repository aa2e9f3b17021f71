import { randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-looking id such as `cs_test_a1B2…`; crypto-random so ids cannot be guessed from one another. */
function randomId(prefix: string, length: number): string {
  let id = prefix;
  for (let index = 0; index < length; index += 1) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

export const newId = {
  session: () => randomId('cs_test_', 58),
  paymentIntent: () => randomId('pi_', 24),
  charge: () => randomId('ch_', 24),
  refund: () => randomId('re_', 24),
  event: () => randomId('evt_', 24),
  request: () => randomId('req_', 14),
  lineItem: () => randomId('li_', 24),
  price: () => randomId('price_', 24),
  product: () => randomId('prod_', 14),
  shippingRate: () => randomId('shr_', 24),
  webhookEndpoint: () => randomId('we_', 24),
  webhookSecret: () => randomId('whsec_', 32),
  customer: () => randomId('cus_', 14),
  subscription: () => randomId('sub_', 24),
  subscriptionItem: () => randomId('si_', 14),
  invoice: () => randomId('in_', 24),
  invoiceLine: () => randomId('il_', 24),
  invoicePayment: () => randomId('inpay_', 24),
  testClock: () => randomId('clock_', 24),
  /** The prefix of a customer's invoice numbers (`A1B2C3D4-0001`). */
  invoicePrefix: () => randomId('', 8).toUpperCase(),
};
