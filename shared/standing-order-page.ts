import * as z from 'zod/mini';
import { calendarDateSchema } from './calendar-date';
import { REPEATS } from './standing-order';

// The standing order's own page (issue 50): the customer, with no account, manages it from the link
// in each of its emails. The same read as an order's page (`GET /functions/v1/order-page?token=…`)
// answers this when the token names a subscription; the changes go to one route, the token in the body.

/** One coming delivery as the page lists it: its dispatch day, and whether it is paid or skipped. */
export const standingDeliverySchema = z.object({
  /** The dispatch day, ISO ("2026-12-14"); the page formats it. */
  day: calendarDateSchema,
  /** "Monday 14 December": as the emails say it. */
  dayText: z.string(),
  state: z.enum(['paid', 'due', 'skipped']),
  /** When its payment is (or was) taken, "Wednesday 9 December"; absent when skipped or paused. */
  paymentText: z.optional(z.string()),
  /** The order's reference once paid. */
  reference: z.optional(z.string()),
});
export type StandingDelivery = z.output<typeof standingDeliverySchema>;

/** What the customer may do now; each absent action is not offered (and refused when sent). */
export const STANDING_ORDER_ACTIONS = ['skip', 'pause', 'resume', 'quantity', 'cancel'] as const;
export type StandingOrderAction = (typeof STANDING_ORDER_ACTIONS)[number];

/** The answer of the order page's read for a standing order. */
export const standingOrderPageViewSchema = z.object({
  kind: z.literal('standing-order'),
  status: z.enum(['active', 'paused', 'cancelled']),
  customerName: z.string(),
  repeat: z.enum(REPEATS),
  /** "Every week" or "Every 2 weeks". */
  repeatText: z.string(),
  bottles: z.int(),
  /** "3 × 250ml bottles of Daphnia (live)". */
  item: z.string(),
  /** What each delivery costs: bottles × 325 + 495 pence. */
  totalPence: z.int(),
  deliverTo: z.object({ address: z.string(), postcode: z.string(), phone: z.string() }),
  /** The coming deliveries within the shop's 8 weeks, soonest first (none once cancelled). */
  deliveries: z.array(standingDeliverySchema),
  /** Why the shop's renewals are held, when the merchant paused the shop ("We are not taking payments until …"). */
  shopPauseText: z.optional(z.string()),
  actions: z.array(z.enum(STANDING_ORDER_ACTIONS)),
  /** Until when the next delivery can be skipped ("12:00 on Sunday 13 December"), if it can. */
  skipOpenUntil: z.optional(z.string()),
  seller: z.object({ name: z.string(), email: z.string(), address: z.string() }),
});
export type StandingOrderPageView = z.output<typeof standingOrderPageViewSchema>;

/** The body of `POST /functions/v1/order-page/standing-order`: the token and one change. */
export const standingOrderChangeSchema = z.discriminatedUnion('action', [
  z.strictObject({
    token: z.string().check(z.maxLength(400)),
    action: z.literal('skip'),
    day: calendarDateSchema,
  }),
  z.strictObject({ token: z.string().check(z.maxLength(400)), action: z.literal('pause') }),
  z.strictObject({ token: z.string().check(z.maxLength(400)), action: z.literal('resume') }),
  z.strictObject({
    token: z.string().check(z.maxLength(400)),
    action: z.literal('quantity'),
    quantity: z.union([z.literal(3), z.literal(6), z.literal(9)]),
  }),
  z.strictObject({ token: z.string().check(z.maxLength(400)), action: z.literal('cancel') }),
]);
export type StandingOrderChangeBody = z.input<typeof standingOrderChangeSchema>;
