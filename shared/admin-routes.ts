// The admin API, one entry a route, read by its Lambda, infra, the /admin page and the CLI. Every
// route needs the ID token of a `merchants` user (infra's JWT authorizer; the Lambda checks the group).
import type * as z from 'zod/mini';
import {
  adminPushKeyResponseSchema,
  adminPushSubscribeResponseSchema,
  adminPushSubscribeSchema,
  adminPushUnsubscribeResponseSchema,
  adminPushUnsubscribeSchema,
} from './admin-push';
import {
  adminAddressSchema,
  adminCapacityQuerySchema,
  adminCapacitySetSchema,
  adminDelayAtRiskSchema,
  adminDelaySchema,
  adminDispatchDayQuerySchema,
  adminDispatchSchema,
  adminListQuerySchema,
  adminOrderQuerySchema,
  adminPageLinkSchema,
  adminPartRefundSchema,
  adminPauseSchema,
  adminRefundSchema,
  adminRequestSchema,
  adminStandingOrderCancelSchema,
  adminStandingOrdersQuerySchema,
  adminTrackingImportSchema,
  adminTrackingSchema,
  adminWeatherThresholdsSchema,
} from './admin-requests';
import {
  adminAddressResponseSchema,
  adminCapacityResponseSchema,
  adminCapacitySetResponseSchema,
  adminDeclineResponseSchema,
  adminDelayAtRiskResponseSchema,
  adminDelayResponseSchema,
  adminDispatchResponseSchema,
  adminListResponseSchema,
  adminPageLinkResponseSchema,
  adminPartRefundResponseSchema,
  adminPauseResponseSchema,
  adminRecordResponseSchema,
  adminRefundResponseSchema,
  adminRequestPaymentResponseSchema,
  adminResumeResponseSchema,
  adminStandingOrderCancelResponseSchema,
  adminStandingOrdersResponseSchema,
  adminStatusResponseSchema,
  adminTrackingImportResponseSchema,
  adminTrackingResponseSchema,
  adminWeatherResponseSchema,
  adminWeatherThresholdsResponseSchema,
} from './admin-responses';

export interface AdminRoute {
  method: 'GET' | 'POST';
  path: string;
  /** A GET's query or a POST's body; absent: the route reads neither. */
  request?: z.ZodMiniType;
  /** The JSON it answers; absent: a file (the Click & Drop CSV, the packing slips). */
  response?: z.ZodMiniType;
}

// To add a route: one entry here, then its handler under the same name in the admin Lambda's HANDLERS.
export const ADMIN_API_ROUTES = {
  list: {
    method: 'GET',
    path: '/functions/v1/admin/orders',
    request: adminListQuerySchema,
    response: adminListResponseSchema,
  },
  dispatch: {
    method: 'POST',
    path: '/functions/v1/admin/orders/dispatch',
    request: adminDispatchSchema,
    response: adminDispatchResponseSchema,
  },
  delay: {
    method: 'POST',
    path: '/functions/v1/admin/orders/delay',
    request: adminDelaySchema,
    response: adminDelayResponseSchema,
  },
  refund: {
    method: 'POST',
    path: '/functions/v1/admin/orders/refund',
    request: adminRefundSchema,
    response: adminRefundResponseSchema,
  },
  refundPart: {
    method: 'POST',
    path: '/functions/v1/admin/orders/refund-part',
    request: adminPartRefundSchema,
    response: adminPartRefundResponseSchema,
  },
  tracking: {
    method: 'POST',
    path: '/functions/v1/admin/orders/tracking',
    request: adminTrackingSchema,
    response: adminTrackingResponseSchema,
  },
  trackingImport: {
    method: 'POST',
    path: '/functions/v1/admin/orders/tracking-import',
    request: adminTrackingImportSchema,
    response: adminTrackingImportResponseSchema,
  },
  address: {
    method: 'POST',
    path: '/functions/v1/admin/orders/address',
    request: adminAddressSchema,
    response: adminAddressResponseSchema,
  },
  pause: {
    method: 'POST',
    path: '/functions/v1/admin/shop/pause',
    request: adminPauseSchema,
    response: adminPauseResponseSchema,
  },
  resume: { method: 'POST', path: '/functions/v1/admin/shop/resume', response: adminResumeResponseSchema },
  requestPayment: {
    method: 'POST',
    path: '/functions/v1/admin/requests/payment',
    request: adminRequestSchema,
    response: adminRequestPaymentResponseSchema,
  },
  decline: {
    method: 'POST',
    path: '/functions/v1/admin/requests/decline',
    request: adminRequestSchema,
    response: adminDeclineResponseSchema,
  },
  order: {
    method: 'GET',
    path: '/functions/v1/admin/order',
    request: adminOrderQuerySchema,
    response: adminRecordResponseSchema,
  },
  status: { method: 'GET', path: '/functions/v1/admin/status', response: adminStatusResponseSchema },
  capacity: {
    method: 'GET',
    path: '/functions/v1/admin/capacity',
    request: adminCapacityQuerySchema,
    response: adminCapacityResponseSchema,
  },
  setCapacity: {
    method: 'POST',
    path: '/functions/v1/admin/capacity',
    request: adminCapacitySetSchema,
    response: adminCapacitySetResponseSchema,
  },
  dispatchCsv: {
    method: 'GET',
    path: '/functions/v1/admin/dispatch-csv',
    request: adminDispatchDayQuerySchema,
  },
  packingSlips: {
    method: 'GET',
    path: '/functions/v1/admin/packing-slips',
    request: adminDispatchDayQuerySchema,
  },
  weather: {
    method: 'GET',
    path: '/functions/v1/admin/weather',
    request: adminDispatchDayQuerySchema,
    response: adminWeatherResponseSchema,
  },
  /** The thresholds the weather check judges by: the merchant's, or ADR 0036's defaults. */
  weatherThresholds: {
    method: 'GET',
    path: '/functions/v1/admin/weather/thresholds',
    response: adminWeatherThresholdsResponseSchema,
  },
  /** The thresholds set, all four at once; no email is sent. */
  setWeatherThresholds: {
    method: 'POST',
    path: '/functions/v1/admin/weather/thresholds',
    request: adminWeatherThresholdsSchema,
    response: adminWeatherThresholdsResponseSchema,
  },
  delayAtRisk: {
    method: 'POST',
    path: '/functions/v1/admin/orders/delay-at-risk',
    request: adminDelayAtRiskSchema,
    response: adminDelayAtRiskResponseSchema,
  },
  /** The order page's link revoked (the old one then 404s) and a new one emailed to the customer once. */
  revokePageLink: {
    method: 'POST',
    path: '/functions/v1/admin/orders/page-link',
    request: adminPageLinkSchema,
    response: adminPageLinkResponseSchema,
  },
  /** The standing orders (issue 50), with their next delivery: newest first, or by next delivery. */
  standingOrders: {
    method: 'GET',
    path: '/functions/v1/admin/standing-orders',
    request: adminStandingOrdersQuerySchema,
    response: adminStandingOrdersResponseSchema,
  },
  /** A standing order cancelled at Stripe and in its record, its customer emailed once (ADR 0061). */
  cancelStandingOrder: {
    method: 'POST',
    path: '/functions/v1/admin/standing-orders/cancel',
    request: adminStandingOrderCancelSchema,
    response: adminStandingOrderCancelResponseSchema,
  },
  /** The stage's VAPID public key, which a device subscribes with (null: no notifications here). */
  pushKey: { method: 'GET', path: '/functions/v1/admin/push/key', response: adminPushKeyResponseSchema },
  /** A device's notifications on: its push subscription kept for the signed-in merchant (ADR 0056). */
  pushSubscribe: {
    method: 'POST',
    path: '/functions/v1/admin/push/subscribe',
    request: adminPushSubscribeSchema,
    response: adminPushSubscribeResponseSchema,
  },
  /** A device's notifications off: its subscription forgotten. */
  pushUnsubscribe: {
    method: 'POST',
    path: '/functions/v1/admin/push/unsubscribe',
    request: adminPushUnsubscribeSchema,
    response: adminPushUnsubscribeResponseSchema,
  },
} as const satisfies Record<string, AdminRoute>;

type Routes = typeof ADMIN_API_ROUTES;
export type AdminRouteName = keyof Routes;
/** The routes answering JSON (the others answer a file). */
export type AdminJsonRouteName = {
  [K in AdminRouteName]: Routes[K] extends { response: z.ZodMiniType } ? K : never;
}[AdminRouteName];
/** What a route answers, as its schema reads it. */
export type AdminAnswer<K extends AdminRouteName> = Routes[K] extends {
  response: infer S extends z.ZodMiniType;
}
  ? z.output<S>
  : never;
/** What a route takes once its schema has checked it: the Lambda's side. */
export type AdminInput<K extends AdminRouteName> = Routes[K] extends {
  request: infer S extends z.ZodMiniType;
}
  ? z.output<S>
  : undefined;
/**
 * What a caller passes: a POST's body, a GET's query as typed (text or numbers: the API checks
 * it), or nothing.
 */
export type AdminArgs<K extends AdminRouteName> = Routes[K] extends {
  request: infer S extends z.ZodMiniType;
}
  ? Routes[K]['method'] extends 'POST'
    ? [body: z.input<S>]
    : [query?: { [F in keyof z.input<S>]?: string | number | undefined }]
  : [];

/** A call's path (with a GET's query, undefined values left out) and its method and body. */
export function adminRequest(
  name: AdminRouteName,
  input: unknown,
): { path: string; init: { method: string; headers: Record<string, string>; body?: string } } {
  const route: AdminRoute = ADMIN_API_ROUTES[name];
  if (route.method === 'POST') {
    const body = JSON.stringify(input ?? {});
    return {
      path: route.path,
      init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body },
    };
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input ?? {}))
    if (value !== undefined) params.set(key, String(value));
  const query = params.toString();
  return { path: query ? `${route.path}?${query}` : route.path, init: { method: 'GET', headers: {} } };
}
