// The statuses of an order and of an order request, written once: storage's item schemas, the
// admin API's requests and answers, the order page's answer and the admin page all read these.

/**
 * A paid order's statuses. Fulfilment writes `paid` (or `refunded`, for a payment Stripe refunded
 * before its order was recorded); the merchant's actions move an order forward only:
 * `paid → dispatched`, `paid → refunded`, `dispatched → refunded`.
 */
export const ORDER_STATUSES = ['paid', 'dispatched', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An order request's statuses, taken while the shop takes requests instead of payments. */
export const REQUEST_STATUSES = ['requested', 'invited', 'declined'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** Every record the merchant lists: orders and requests. */
export const RECORD_STATUSES = [...ORDER_STATUSES, ...REQUEST_STATUSES] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];
