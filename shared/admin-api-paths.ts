// The merchant's admin API paths and group, apart from the shop's paths (api-paths.ts): every
// page's first load carries that module, and a bundler keeps each export any chunk uses in the
// chunk holding its module, so these would ride along for every customer (about 0.2 KiB gzip).

/**
 * The merchant's admin API: every route needs a Cognito token of a user in the `merchants` group
 * (infra's JWT authorizer, and the Lambda checks the group). One Lambda serves them all.
 */
export const ADMIN_API_PATHS = {
  orders: '/functions/v1/admin/orders',
  dispatch: '/functions/v1/admin/orders/dispatch',
  delay: '/functions/v1/admin/orders/delay',
  refund: '/functions/v1/admin/orders/refund',
  /** POST: refund some bottles and/or the delivery of an order. */
  refundPart: '/functions/v1/admin/orders/refund-part',
  /** POST: add or correct a dispatched order's tracking number. */
  tracking: '/functions/v1/admin/orders/tracking',
  /** POST: Click & Drop's export (CSV text): mark its orders dispatched with their tracking numbers. */
  trackingImport: '/functions/v1/admin/orders/tracking-import',
  /** POST: correct a paid order's delivery address, postcode and phone before its packing cut-off. */
  correctAddress: '/functions/v1/admin/orders/address',
  pause: '/functions/v1/admin/shop/pause',
  resume: '/functions/v1/admin/shop/resume',
  requestPayment: '/functions/v1/admin/requests/payment',
  declineRequest: '/functions/v1/admin/requests/decline',
  /** GET ?reference=: one order or request with its emails, payment and history. */
  order: '/functions/v1/admin/order',
  /** GET: the shop's mode and the week: the next dispatch day, overdue and later days. */
  status: '/functions/v1/admin/status',
  /** GET ?weeks=: each coming dispatch day's capacity; POST: set a day's or the weekly default. */
  capacity: '/functions/v1/admin/capacity',
  /** GET ?date=: the Click & Drop CSV of a dispatch day (text/csv attachment). */
  dispatchCsv: '/functions/v1/admin/dispatch-csv',
  /** GET ?date=: the printable packing slips of a dispatch day (text/html). */
  packingSlips: '/functions/v1/admin/packing-slips',
  /** GET ?date=: the weather check of a dispatch day (the coming one when absent): each order's verdict. */
  weather: '/functions/v1/admin/weather',
  /** POST { date }: the orders the weather check marks at risk moved to the next working day (delay's path). */
  delayAtRisk: '/functions/v1/admin/orders/delay-at-risk',
  /** POST { reference }: the order page's link revoked (the old one then 404s) and a new one emailed once. */
  revokePageLink: '/functions/v1/admin/orders/page-link',
} as const;

/** The Cognito group whose members may use the admin API (the user pool's group, the Lambda's check). */
export const MERCHANTS_GROUP = 'merchants';

/** What every admin path starts with: CloudFront's behaviour and the local verifier match on it. */
export const ADMIN_API_PREFIX = '/functions/v1/admin/';
