/**
 * An operator command, or a shop-side action, that cannot be done as asked: an unknown reference,
 * an order in the wrong status, Stripe refusing a refund. The message is written for the merchant
 * and is printed as it is; nothing was changed when this is thrown.
 */
export class RefusedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RefusedError';
  }
}
