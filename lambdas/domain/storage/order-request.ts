import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import { REQUEST_STATUSES, type RequestStatus } from '../../../shared/record-status';
import { historyField } from './history';
import { emailStateSchema, isoInstant, quoteAndCustomerFields } from './order';
import { DISPATCH_DATE_INDEX, PARTITION_KEY, REFERENCE_INDEX, REQUEST_KEY_PREFIX } from './orders-table';

/**
 * A request's statuses: `requested` (requests mode, nothing paid), then `invited` (a payment link emailed;
 * paying makes an ordinary order) or `declined`. Forward only.
 */
export { REQUEST_STATUSES, type RequestStatus };

const optionalEmailState = z.optional(emailStateSchema);
const optionalInstant = z.optional(isoInstant);

/** An order request as stored (`pk = REQUEST#<reference>`); checked when read back. */
export const orderRequestSchema = z.object({
  [PARTITION_KEY]: z.string().check(z.startsWith(REQUEST_KEY_PREFIX)),
  reference: z.string(),
  /** GSI `byReferenceKey`: the reference lower-cased, so it is found in any case. */
  [REFERENCE_INDEX.partitionKey]: z.string(),
  status: z.enum(REQUEST_STATUSES),
  ...quoteAndCustomerFields,
  /** The dispatch day the shop would have promised at the time of the request. */
  dispatchDate: calendarDateSchema,
  createdAt: isoInstant,
  /**
   * Until when the request holds its bottles while it waits for an answer (REQUEST_HOLD_HOURS);
   * then they are back on sale, nobody emailed. Absent: it holds none (over its client's limit, or
   * recorded before requests lapsed).
   */
  holdsUntil: z.optional(isoInstant),
  invitedAt: z.optional(isoInstant),
  checkoutSessionId: z.optional(z.string()),
  checkoutUrl: z.optional(z.string()),
  checkoutExpiresAt: z.optional(isoInstant),
  declinedAt: z.optional(isoInstant),
  // Each email's state, and when it was sent or refused for good, which the admin page shows (the
  // claim's token and time stay the send-once mechanism's own), as for an order's emails.
  /** Only on requests recorded before requests stopped emailing the customer (request-notice-limits.ts). */
  requestReceivedEmailState: optionalEmailState,
  requestReceivedEmailSentAt: optionalInstant,
  requestReceivedEmailFailedAt: optionalInstant,
  /** Absent when the request was over a notice limit and the merchant was not notified of it alone. */
  requestNoticeEmailState: optionalEmailState,
  requestNoticeEmailSentAt: optionalInstant,
  requestNoticeEmailFailedAt: optionalInstant,
  /** Requests recorded without a notice since `unnotifiedSince`, told to the merchant in this one's notice. */
  unnotifiedRequests: z.optional(z.number().check(z.int())),
  unnotifiedSince: z.optional(isoInstant),
  paymentInvitationEmailState: optionalEmailState,
  paymentInvitationEmailSentAt: optionalInstant,
  paymentInvitationEmailFailedAt: optionalInstant,
  declineEmailState: optionalEmailState,
  declineEmailSentAt: optionalInstant,
  declineEmailFailedAt: optionalInstant,
  /** `byDispatchDate`, so `orders list` shows requests beside the orders of their week. */
  [DISPATCH_DATE_INDEX.partitionKey]: z.string(),
  [DISPATCH_DATE_INDEX.sortKey]: z.string(),
  /** Who did what to the request, oldest first (history.ts); absent on requests recorded before it was kept. */
  ...historyField,
});
export type OrderRequest = z.output<typeof orderRequestSchema>;
