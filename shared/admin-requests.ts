// The admin's request bodies and list query, shared by the /admin page and the admin Lambda.
// zod/mini keeps the page's bundle small.
import * as z from 'zod/mini';
import { calendarDateSchema } from './calendar-date';
import { deliveryFields } from './checkout-request';
import { isCalendarDate } from './dispatch';
import { RECORD_STATUSES } from './record-status';
import { SHOP_MESSAGE_MAX_LENGTH } from './shop-status';
import { normaliseTrackingNumber, TRACKING_NUMBER_MESSAGE } from './tracking-number';

const reference = z
  .string({ error: 'Give an order or request reference.' })
  .check(z.trim(), z.regex(/^[A-Za-z0-9_]{6,200}$/, 'A reference is 6 to 200 letters, digits or "_".'));

const day = calendarDateSchema;

/** Dispatch now an order planned later: without it such an order is refused with its `plannedFor`. */
const early = z.optional(z.boolean({ error: 'Early is true or false.' }));

/** `GET /functions/v1/admin/orders?status=&dispatch=&q=`: every part optional. */
export const adminListQuerySchema = z.strictObject({
  status: z.optional(
    z.enum(RECORD_STATUSES, {
      error: `Status is one of ${RECORD_STATUSES.join(', ')}.`,
    }),
  ),
  dispatch: z.optional(day),
  q: z.optional(z.string().check(z.trim(), z.minLength(1, 'Say what to find.'), z.maxLength(200))),
  /** How many weeks back the list (or a search by name, email or postcode) reaches; 8 when absent. */
  weeks: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,3}$/, 'Weeks is a whole number from 0 to 104.')),
      z.pipe(
        z.transform((value: string) => Number(value)),
        z.number().check(z.maximum(104, 'Weeks is a whole number from 0 to 104.')),
      ),
    ),
  ),
});
export type AdminListQuery = z.output<typeof adminListQuerySchema>;

const trackingNumber = z
  .string({ error: TRACKING_NUMBER_MESSAGE })
  .check(z.refine((value) => normaliseTrackingNumber(value) !== undefined, TRACKING_NUMBER_MESSAGE));

/** Mark orders dispatched, each with its own tracking number (a blank one is none). */
export const adminDispatchSchema = z
  .strictObject({
    early,
    references: z
      .array(reference)
      .check(z.minLength(1, 'Choose at least one order.'), z.maxLength(50, 'At most 50 orders at once.')),
    trackingNumber: z.optional(trackingNumber),
    trackingNumbers: z.optional(
      z.record(
        z.string(),
        z
          .string()
          .check(
            z.refine(
              (value) => value.trim() === '' || normaliseTrackingNumber(value) !== undefined,
              TRACKING_NUMBER_MESSAGE,
            ),
          ),
      ),
    ),
  })
  .check(
    z.refine((body) => body.trackingNumber === undefined || body.references.length === 1, {
      message: 'A tracking number goes with one order at a time.',
      path: ['trackingNumber'],
    }),
    z.refine(
      (body) => Object.keys(body.trackingNumbers ?? {}).every((ref) => body.references.includes(ref)),
      { message: 'A tracking number goes with an order you chose.', path: ['trackingNumbers'] },
    ),
  );

/** Add or correct a dispatched order's tracking number; a paid order's first number dispatches it. */
export const adminTrackingSchema = z.strictObject({ reference, trackingNumber, early });

/** The largest Click & Drop export the page uploads: a few hundred orders' rows. */
export const TRACKING_IMPORT_MAX_CHARS = 200_000;

/** A Click & Drop export (CSV) to read tracking numbers from; `preview` changes and sends nothing. */
export const adminTrackingImportSchema = z.strictObject({
  early,
  preview: z.optional(z.boolean({ error: 'Preview is true or false.' })),
  csv: z
    .string({ error: 'Choose the CSV file Click & Drop exported.' })
    .check(
      z.minLength(1, 'The file is empty.'),
      z.maxLength(TRACKING_IMPORT_MAX_CHARS, 'The file is too large for one import.'),
    ),
});

/** Move a dispatch day's undispatched orders to a later working day. */
export const adminDelaySchema = z.strictObject({
  from: day,
  to: day,
  reason: z.enum(['weather', 'supply', 'other'], { error: 'The reason is weather, supply or other.' }),
});

/** Move just the orders of a dispatch day that the weather check marks at risk. */
export const adminDelayAtRiskSchema = z.strictObject({ date: day });

/** A temperature of the weather check's thresholds, in whole or decimal °C within what UK weather reaches. */
const celsius = (name: string) => {
  const error = `${name} is a temperature from −30 to 50 °C.`;
  return z.number({ error }).check(z.gte(-30, { error }), z.lte(50, { error }));
};

/** The weather check's thresholds (ADR 0036); their order is the domain's check (at risk ≤ watch < watch ≤ at risk). */
export const adminWeatherThresholdsSchema = z.strictObject({
  atRiskBelow: celsius('At risk below'),
  watchBelow: celsius('Watch below'),
  watchAbove: celsius('Watch above'),
  atRiskAbove: celsius('At risk above'),
});

/** A full refund; the page asks for confirmation before it sends this. */
export const adminRefundSchema = z.strictObject({
  reference,
  reason: z.enum(['supply', 'doa', 'other'], { error: 'The reason is supply, doa or other.' }),
});

/** A delivery correction: the order, and the checkout's own address, postcode and phone fields. */
export const adminAddressSchema = z.strictObject({ reference, ...deliveryFields });

/** Refund part of an order (bottles, delivery, or both), as often as what was paid allows. */
export const adminPartRefundSchema = z
  .strictObject({
    reference,
    reason: z.enum(['supply', 'doa', 'other'], { error: 'The reason is supply, doa or other.' }),
    bottles: z
      .number({ error: 'Bottles is a whole number.' })
      .check(z.int('Bottles is a whole number.'), z.minimum(0, 'Bottles is a whole number.')),
    delivery: z.boolean({ error: 'Delivery is true or false.' }),
    /** The same part as one refunded in the last 15 minutes, on purpose: without it, refused as a repeat. */
    again: z.optional(z.boolean({ error: 'Again is true or false.' })),
  })
  .check(
    z.refine((body) => body.bottles > 0 || body.delivery, {
      message: 'Refund at least one bottle, or the delivery.',
      path: ['bottles'],
    }),
  );

/**
 * Pause with a message, or take requests. A pause without a message is refused here in the page's
 * words; the domain's own refusal speaks to the CLI (its --message flag).
 */
export const adminPauseSchema = z
  .strictObject({
    mode: z.enum(['paused', 'requests'], { error: 'The mode is paused or requests.' }),
    message: z.optional(
      z
        .string({ error: 'The message is text.' })
        .check(
          z.trim(),
          z.maxLength(
            SHOP_MESSAGE_MAX_LENGTH,
            `The message is at most ${SHOP_MESSAGE_MAX_LENGTH} characters.`,
          ),
        ),
    ),
  })
  .check(
    z.refine((body) => body.mode !== 'paused' || (body.message ?? '') !== '', {
      message: 'Write the message customers will see while the shop is paused.',
      path: ['message'],
    }),
  );

/** Answer an order request: send a payment link, or decline it. */
export const adminRequestSchema = z.strictObject({ reference });

/** `POST orders/page-link`: the order whose page link the merchant revokes. */
export const adminPageLinkSchema = z.strictObject({ reference });

/** `GET order?reference=`: one order or request, in any case. */
export const adminOrderQuerySchema = z.strictObject({ reference });

/** `GET capacity?weeks=`: 1 to 52 coming dispatch days, 8 when absent. */
export const adminCapacityQuerySchema = z.strictObject({
  weeks: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,2}$/, 'Weeks is a whole number from 1 to 52.')),
      z.pipe(
        z.transform((value: string) => Number(value)),
        z
          .number()
          .check(
            z.minimum(1, 'Weeks is a whole number from 1 to 52.'),
            z.maximum(52, 'Weeks is a whole number from 1 to 52.'),
          ),
      ),
    ),
  ),
});

/** The most bottles a day may be set to (the domain's own limit, lambdas/domain/capacity). */
const MAX_BOTTLES = 10_000;
const BOTTLES_MESSAGE = `Bottles is a whole number from 0 to ${MAX_BOTTLES}, null (no limit) or default.`;

/**
 * `POST capacity`: `date` (its week's dispatch day) or `default`; `bottles` a whole number, `null`
 * for no limit, or with a date `default` (the weekly default again).
 */
export const adminCapacitySetSchema = z
  .strictObject({
    date: z
      .string({ error: 'Give a date as YYYY-MM-DD, or default.' })
      .check(
        z.refine(
          (value) => value === 'default' || isCalendarDate(value),
          'Give a date as YYYY-MM-DD, or default.',
        ),
      ),
    bottles: z.union(
      [
        z
          .number()
          .check(
            z.int(BOTTLES_MESSAGE),
            z.minimum(0, BOTTLES_MESSAGE),
            z.maximum(MAX_BOTTLES, BOTTLES_MESSAGE),
          ),
        z.null(),
        z.literal('default'),
      ],
      { error: BOTTLES_MESSAGE },
    ),
  })
  .check(
    z.refine((body) => !(body.date === 'default' && body.bottles === 'default'), {
      message: 'default goes with a date: it makes that day follow the weekly default again.',
      path: ['bottles'],
    }),
  );

/** `GET dispatch-csv?date=` and `GET packing-slips?date=`: a day, or the next packing day when absent. */
export const adminDispatchDayQuerySchema = z.strictObject({ date: z.optional(day) });

/** A standing order's status as the merchant sees it (paused by its customer or the shop's pause). */
export const STANDING_ORDER_VIEW_STATUSES = ['active', 'paused', 'cancelled'] as const;

/** `GET standing-orders?status=&sort=`: all or one status; newest first, or by next delivery. */
export const adminStandingOrdersQuerySchema = z.strictObject({
  status: z.optional(
    z.enum(STANDING_ORDER_VIEW_STATUSES, {
      error: `Status is one of ${STANDING_ORDER_VIEW_STATUSES.join(', ')}.`,
    }),
  ),
  sort: z.optional(z.enum(['newest', 'next'], { error: 'Sort is newest or next.' })),
});
export type AdminStandingOrdersQuery = z.output<typeof adminStandingOrdersQuerySchema>;

/** `POST standing-orders/cancel`: the standing order by its Stripe subscription id. */
export const adminStandingOrderCancelSchema = z.strictObject({
  subscriptionId: z
    .string({ error: 'Give the standing order (its sub_… id).' })
    .check(z.trim(), z.regex(/^sub_[A-Za-z0-9_]{1,200}$/, 'A standing order is named by its sub_… id.')),
});
