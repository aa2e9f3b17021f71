// Every email the shop sends, each at most once per transition that asks for it: the one list the
// Lambdas' send-once protocol, the admin API's answers, the page and the CLI all read.

/** The two emails every order sends when it is paid. */
export const PAYMENT_EMAIL_KINDS = ['confirmation', 'merchantNotice'] as const;
export type PaymentEmailKind = (typeof PAYMENT_EMAIL_KINDS)[number];

/** The order's update emails, each written with the change that causes it, in the order they happen. */
export const UPDATE_EMAIL_KINDS = [
  // The short note that the delivery details were corrected before packing.
  'addressCorrected',
  'delay',
  'dispatch',
  // A tracking number added or corrected after the dispatch email; a part of the order refunded.
  'trackingUpdate',
  'partRefund',
  'refund',
  // A new order page link, after the merchant revoked the old one (one per revoke).
  'pageLink',
] as const;
export type UpdateEmailKind = (typeof UPDATE_EMAIL_KINDS)[number];

/** The emails tracked on an order or an order request, in the order they happen. */
export const RECORD_EMAIL_KINDS = [
  ...PAYMENT_EMAIL_KINDS,
  'requestReceived',
  'requestNotice',
  'paymentInvitation',
  'decline',
  ...UPDATE_EMAIL_KINDS,
] as const;
export type RecordEmailKind = (typeof RECORD_EMAIL_KINDS)[number];

/**
 * Every email kind, then a failed Direct Debit's (to the customer, and to the merchant),
 * tracked on that failure's own record (lambdas/domain/fulfilment/failed-debit.ts).
 */
export const EMAIL_KINDS = [
  ...RECORD_EMAIL_KINDS,
  'debitFailed',
  'debitFailedNotice',
  // A delayed payment (a Bacs Direct Debit) waiting for the bank: told at once, on its own record.
  'debitPending',
  // The merchant's "orders at risk from the weather" of tomorrow's dispatch, once a day, on its own record.
  'weatherNotice',
  // A standing order's renewal Stripe could not charge (issue 50): to the customer, and to the merchant.
  'renewalFailed',
  'renewalFailedNotice',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];
/** The emails an operator's or a webhook's transition makes due (all but the payment's own). */
export type ShopEmailKind = Exclude<EmailKind, PaymentEmailKind>;
