// The admin API's answers, checked where the page reads them. Each schema is declared as the
// shared type it reads (shared/admin-responses.ts, which the Lambda's values are typed by), so a
// change on either side fails the type check instead of drifting. In the admin chunk only.
import * as z from 'zod/mini';
import type {
  AdminAddressResponse,
  AdminCapacityResponse,
  AdminCapacityRow,
  AdminCapacitySetResponse,
  AdminDaySummary,
  AdminDeclineResponse,
  AdminDelayResponse,
  AdminDispatchResponse,
  AdminEmail,
  AdminErrorResponse,
  AdminListResponse,
  AdminOrderView,
  AdminPauseResponse,
  AdminRecordResponse,
  AdminRecordView,
  AdminRefundResponse,
  AdminRequestPaymentResponse,
  AdminRequestView,
  AdminResumeResponse,
  AdminShopSettingsView,
  AdminStatusResponse,
  HistoryEntry,
} from '../../../../shared/admin-responses';
import { ADMIN_FORBIDDEN_CODES } from '../../../../shared/admin-responses';

const text = z.string();
const count = z.number();
const optionalText = z.optional(z.string());

const email: z.ZodMiniType<AdminEmail> = z.object({
  kind: z.enum([
    'confirmation',
    'merchantNotice',
    'dispatch',
    'delay',
    'refund',
    'requestReceived',
    'requestNotice',
    'paymentInvitation',
    'decline',
    'addressCorrected',
  ]),
  state: z.enum(['pending', 'sending', 'sent', 'failed']),
  sentAt: optionalText,
  failedAt: optionalText,
});

const historyEntry: z.ZodMiniType<HistoryEntry> = z.object({
  at: text,
  actor: text,
  action: z.enum([
    'paid',
    'dispatched',
    'delayed',
    'refunded',
    'partly-refunded',
    // The delivery address or phone corrected before packing (its detail holds before and after).
    'address-corrected',
    'requested',
    'payment-link-sent',
    'declined',
  ]),
  detail: optionalText,
});

const recordBase = {
  reference: text,
  dispatchDate: text,
  bottles: count,
  unitPricePence: count,
  subtotalPence: count,
  shippingPence: count,
  totalPence: count,
  customerName: text,
  customerEmail: text,
  customerPhone: text,
  deliveryAddress: text,
  postcode: text,
  createdAt: text,
  emails: z.array(email),
  history: z.array(historyEntry),
};

export const orderViewSchema: z.ZodMiniType<AdminOrderView> = z.object({
  ...recordBase,
  kind: z.literal('order'),
  status: z.enum(['paid', 'dispatched', 'refunded']),
  paidAt: text,
  promisedDispatchDate: optionalText,
  placedWhilePaused: z.boolean(),
  pausedMode: z.optional(z.enum(['paused', 'requests'])),
  dispatchDayFull: z.optional(z.object({ sold: count, capacity: count })),
  dispatchedAt: optionalText,
  trackingNumber: optionalText,
  delayedFrom: optionalText,
  delayReason: z.optional(z.enum(['weather', 'supply', 'other'])),
  delayedAt: optionalText,
  refundedAt: optionalText,
  refundId: optionalText,
  refundReason: z.optional(z.enum(['supply', 'doa', 'other', 'stripe'])),
  payment: z.object({
    checkoutSessionId: text,
    paymentIntentId: optionalText,
    livemode: z.boolean(),
    dashboardUrl: text,
  }),
});

const requestViewSchema: z.ZodMiniType<AdminRequestView> = z.object({
  ...recordBase,
  kind: z.literal('request'),
  status: z.enum(['requested', 'invited', 'declined']),
  holdsUntil: optionalText,
  invitedAt: optionalText,
  paymentLink: z.optional(z.object({ url: text, expiresAt: text, checkoutSessionId: text })),
  declinedAt: optionalText,
});

const recordViewSchema: z.ZodMiniType<AdminRecordView> = z.union([orderViewSchema, requestViewSchema]);

export const errorSchema: z.ZodMiniType<AdminErrorResponse> = z.object({
  error: text,
  fields: z.optional(z.record(z.string(), z.string())),
  code: z.optional(z.enum([ADMIN_FORBIDDEN_CODES.notAMerchant, ADMIN_FORBIDDEN_CODES.notThroughCloudFront])),
});

export const listSchema: z.ZodMiniType<AdminListResponse> = z.object({ records: z.array(recordViewSchema) });

export const recordSchema: z.ZodMiniType<AdminRecordResponse> = z.object({ record: recordViewSchema });

const capacityRowShape = {
  date: text,
  capacity: z.nullable(count),
  reserved: count,
  sold: count,
  left: z.nullable(count),
};
const capacityRow: z.ZodMiniType<AdminCapacityRow> = z.object(capacityRowShape);

const daySummary: z.ZodMiniType<AdminDaySummary> = z.object({
  ...capacityRowShape,
  orders: count,
  bottles: count,
  references: z.array(text),
});

const shopSettings: z.ZodMiniType<AdminShopSettingsView> = z.object({
  mode: z.enum(['open', 'paused', 'requests']),
  message: optionalText,
  updatedAt: optionalText,
});

export const statusSchema: z.ZodMiniType<AdminStatusResponse> = z.object({
  shop: shopSettings,
  today: text,
  next: daySummary,
  overdue: z.array(daySummary),
  later: z.array(daySummary),
  requestsWaiting: count,
});

const capacityShape = {
  settings: z.object({ weekly: z.nullable(count), days: z.record(z.string(), z.nullable(count)) }),
  rows: z.array(capacityRow),
};
export const capacitySchema: z.ZodMiniType<AdminCapacityResponse> = z.object(capacityShape);

export const capacitySetSchema: z.ZodMiniType<AdminCapacitySetResponse> = z.object({
  ...capacityShape,
  date: text,
  oversold: z.array(z.object({ date: text, sold: count, capacity: count })),
});

const emailOutcome = z.enum(['sent', 'not-sent']);

export const dispatchSchema: z.ZodMiniType<AdminDispatchResponse> = z.object({
  results: z.array(
    z.union([
      z.object({
        reference: text,
        changed: z.boolean(),
        email: emailOutcome,
        status: z.enum(['paid', 'dispatched', 'refunded']),
        record: orderViewSchema,
      }),
      z.object({ reference: text, refused: text }),
    ]),
  ),
  error: optionalText,
});

export const delaySchema: z.ZodMiniType<AdminDelayResponse> = z.object({
  from: text,
  to: text,
  moved: z.array(text),
  emailed: z.array(text),
  overLimit: z.optional(z.object({ sold: count, capacity: count })),
  closed: z.optional(
    z.object({
      date: text,
      before: z.union([count, z.null(), z.literal('default')]),
      message: text,
    }),
  ),
});

export const addressSchema: z.ZodMiniType<AdminAddressResponse> = z.object({
  reference: text,
  changed: z.boolean(),
  email: z.enum(['sent', 'not-sent', 'not-due']),
  record: orderViewSchema,
});

export const refundSchema: z.ZodMiniType<AdminRefundResponse> = z.object({
  reference: text,
  changed: z.boolean(),
  refundId: text,
  email: emailOutcome,
  refundEmail: z.union([
    z.object({
      state: z.literal('sent'),
      by: z.enum(['this run', 'the Stripe webhook', 'the Stripe webhook or another refund request']),
    }),
    z.object({ state: z.enum(['being sent', 'not sent']) }),
  ]),
  status: z.enum(['paid', 'dispatched', 'refunded']),
  record: orderViewSchema,
});

export const pauseSchema: z.ZodMiniType<AdminPauseResponse> = z.object({
  settings: shopSettings,
  closed: z.array(text),
  paymentLinksKept: z.array(text),
  completedMeanwhile: z.array(text),
  failed: z.array(z.object({ sessionId: text, message: text })),
  listingFailed: optionalText,
});

export const resumeSchema: z.ZodMiniType<AdminResumeResponse> = z.object({ settings: shopSettings });

export const requestPaymentSchema: z.ZodMiniType<AdminRequestPaymentResponse> = z.object({
  reference: text,
  changed: z.boolean(),
  url: text,
  expiresAt: text,
  email: emailOutcome,
});

export const declineSchema: z.ZodMiniType<AdminDeclineResponse> = z.object({
  reference: text,
  changed: z.boolean(),
  email: emailOutcome,
});
