import * as z from 'zod/mini';
import { deliveryFields } from './checkout-request';
import { ORDER_STATUSES } from './record-status';
import { standingOrderPageViewSchema } from './standing-order-page';

/** Every refusal of a token (wrong, tampered, revoked, unknown) answers this, and nothing else. */
export const ORDER_PAGE_NOT_FOUND = 'Not found.';

/** One step of the order's life, in the customer's words; `link` a Royal Mail tracking page. */
export const timelineStepSchema = z.object({
  title: z.string(),
  detail: z.optional(z.string()),
  link: z.optional(z.object({ text: z.string(), href: z.string() })),
});
export type TimelineStep = z.output<typeof timelineStepSchema>;

/** The answer of `GET /functions/v1/order-page?token=…`: what the customer needs, nothing of Stripe's. */
export const orderPageViewSchema = z.object({
  reference: z.string(),
  customerName: z.string(),
  /** "3 × 250ml bottles of Daphnia (live)". */
  item: z.string(),
  subtotalPence: z.int(),
  shippingPence: z.int(),
  totalPence: z.int(),
  status: z.enum(ORDER_STATUSES),
  deliverTo: z.object({ address: z.string(), postcode: z.string(), phone: z.string() }),
  timeline: z.array(timelineStepSchema),
  /** What to do when the parcel arrives: once dispatched. */
  arrivalAdvice: z.optional(z.array(z.string())),
  /** Until when the delivery details can be corrected here ("12:00 on Saturday 21 November"), if still open. */
  correctionOpenUntil: z.optional(z.string()),
  seller: z.object({ name: z.string(), email: z.string(), address: z.string() }),
});
export type OrderPageView = z.output<typeof orderPageViewSchema>;

/**
 * The answer of the same read for an order whose money is not in: a delayed payment (a Bacs Direct
 * Debit) waiting for the bank, or one the bank refused (ADR 0047). The link in the "waiting for
 * your bank" email opens this until the order is recorded, then the order itself.
 */
export const debitPageViewSchema = z.object({
  status: z.enum(['awaiting-payment', 'payment-failed']),
  reference: z.string(),
  customerName: z.string(),
  /** "3 × 250ml bottles of Daphnia (live)". */
  item: z.string(),
  totalPence: z.int(),
  /** The day it goes if the bank pays ("Monday 21 December"): the success page's and the email's. */
  dispatchDate: z.string(),
  seller: z.object({ name: z.string(), email: z.string(), address: z.string() }),
});
export type DebitPageView = z.output<typeof debitPageViewSchema>;

/** Whatever the order page's read answers: the order, or its payment still with (or refused by) the bank. */
export const orderPageAnswerSchema = z.union([orderPageViewSchema, debitPageViewSchema]);
export type OrderPageAnswer = OrderPageView | DebitPageView;

/** Whatever the read answers, a standing order's page included (its token names a subscription, ADR 0059). */
export const orderPageReadSchema = z.union([orderPageAnswerSchema, standingOrderPageViewSchema]);

/** Whether the read answered a payment not in yet (or refused) rather than an order. */
export function isDebitPageView(view: OrderPageAnswer): view is DebitPageView {
  return view.status === 'awaiting-payment' || view.status === 'payment-failed';
}

/** The body of `POST /functions/v1/order-page/address`: the token and the checkout's delivery fields. */
export const orderPageCorrectionSchema = z.strictObject({
  token: z.string().check(z.maxLength(400)),
  ...deliveryFields,
});
