import * as z from 'zod/mini';
import { ADMIN_API_PATHS } from '../../../shared/admin-api-paths';
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
  adminTrackingImportSchema,
  adminTrackingSchema,
  TRACKING_IMPORT_MAX_CHARS,
} from '../../../shared/admin-requests';
import {
  ADMIN_FORBIDDEN_CODES,
  type AdminAddressResponse,
  type AdminCapacityResponse,
  type AdminCapacitySetResponse,
  type AdminDeclineResponse,
  type AdminDispatchResponse,
  type AdminDispatchResult,
  type AdminErrorResponse,
  type AdminListResponse,
  type AdminPageLinkResponse,
  type AdminPartRefundResponse,
  type AdminPauseResponse,
  type AdminRecordResponse,
  type AdminRefundResponse,
  type AdminRequestPaymentResponse,
  type AdminResumeResponse,
  type AdminStatusResponse,
  type AdminTrackingImportResponse,
  type AdminTrackingResponse,
  type AdminWeatherResponse,
} from '../../../shared/admin-responses';
import { describeIssues } from '../../../shared/checkout-request';
import { dispatchDayOfWeekOf, type IsoDate, packingDay } from '../../../shared/dispatch';
import { type CapacityValue, setCapacity } from '../../domain/capacity/capacity-report';
import { shopEmailIdentity } from '../../domain/emails/send-email';
import { clickAndDropCsv, packingSlipsHtml } from '../../domain/fulfilment/dispatch-files';
import {
  capacitySettingsView,
  delayView,
  orderView,
  recordView,
  settingsView,
} from '../../domain/operations/admin-views';
import { correctOrderAddress } from '../../domain/operations/correct-address';
import { findRecords } from '../../domain/operations/find-orders';
import { listRecords, nextPackingDay, ordersToPack } from '../../domain/operations/listing';
import {
  type ActionResult,
  delayDispatch,
  findOrder,
  markDispatched,
  refundOrder,
  updateTrackingNumber,
} from '../../domain/operations/order-actions';
import { refundPart } from '../../domain/operations/part-refund';
import { pauseShop } from '../../domain/operations/pause-shop';
import { declineRequest, requestPayment } from '../../domain/operations/request-actions';
import type { ShopStripeDeps } from '../../domain/operations/shop-deps';
import { capacityWeeks, shopWeek } from '../../domain/operations/shop-week';
import { importClickAndDropTracking } from '../../domain/operations/tracking-import';
import { orderPageKeys, orderPageLinks } from '../../domain/order-page/order-page-token';
import { revokeOrderPageLink } from '../../domain/order-page/revoke-page-link';
import { RefusedError } from '../../domain/refusal';
import { findByReference, recordsByReference } from '../../domain/storage/records';
import { readShopSettings, writeShopSettings } from '../../domain/storage/settings-store';
import { delayOrdersAtRisk } from '../../domain/weather/delay-at-risk';
import { loadForecastSource } from '../../domain/weather/forecast-source';
import type { ForecastSource } from '../../domain/weather/open-meteo';
import { postcodeInAddress } from '../../domain/weather/postcode-places';
import { checkWeather } from '../../domain/weather/weather-check';
import { comingWeatherDay, weatherView } from '../../domain/weather/weather-view';
import { createDocumentClient } from '../../lib/aws';
import { initOnce } from '../../lib/cold-start';
import { adminRuntimeEnvSchema, type Env, parseEnv, stripeEnvSchema } from '../../lib/config';
import { sharedErrorResponse } from '../../lib/error-response';
import { HttpError, type HttpEvent, type HttpResult, header, json, readJsonBody } from '../../lib/http';
import {
  type DepsOrLoader,
  type HttpRequest,
  httpEndpoint,
  type LogKeys,
  loaderOf,
} from '../../lib/http-handler';
import { logger } from '../../lib/logger';
import { requireMerchant } from '../../lib/merchant-claims';
import { loadOrderPageSecret } from '../../lib/order-page-secret';
import { cameThroughCloudFront, ORIGIN_VERIFY_HEADER } from '../../lib/origin-verify';
import { readSecretString } from '../../lib/secrets-extension';
import { createSesClient } from '../../lib/ses-client';
import { createStripeClient, loadStripeSecrets } from '../../lib/stripe';

/** An admin body is a handful of references at most. */
const MAX_BODY_BYTES = 8 * 1024;

export const ADMIN_ERRORS = {
  notFound: 'No such admin route.',
  notThroughCloudFront: 'Forbidden.',
} as const;

/**
 * The value CloudFront sends in the origin-verify header, when the stack sets
 * ORIGIN_VERIFY_SECRET_ID. The admin routes carry the JWT authorizer, and a route has one
 * authorizer, so the origin check the other routes get from the origin-verify authorizer is made
 * here, first. The local stack has no CloudFront and sets none.
 */
export function originValueFromEnv(env: Env): (() => Promise<string>) | undefined {
  const parsed = z.safeParse(
    z.object({
      ORIGIN_VERIFY_SECRET_ID: z.string().check(z.minLength(1)),
      // The extension's port as the template sets it: a moved port must not lock the admin out.
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: stripeEnvSchema.shape.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
    }),
    env,
  );
  if (!parsed.success) return undefined;
  const { ORIGIN_VERIFY_SECRET_ID: secretId, PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: port } = parsed.data;
  return initOnce(() => readSecretString(secretId, { port }));
}

/** What the admin's weather check adds to the shop's clients: the forecast and where parcels leave from. */
export interface AdminWeatherDeps {
  forecast: ForecastSource;
  dispatchPostcode: string | undefined;
}

/** The clients and settings the operator's actions need, from the environment: once per cold start. */
export async function loadAdminDeps(env: Env): Promise<AdminDeps> {
  const config = parseEnv(adminRuntimeEnvSchema, env);
  const [secrets, forecast, orderPageSecret] = await Promise.all([
    loadStripeSecrets(config),
    loadForecastSource(config),
    loadOrderPageSecret(config),
  ]);
  const client = createDocumentClient({ region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT });
  const ses = createSesClient({ region: config.AWS_REGION, endpoint: config.SES_ENDPOINT });
  return {
    table: { client, tableName: config.ORDERS_TABLE_NAME },
    ...shopEmailIdentity(ses, config),
    merchantEmail: config.MERCHANT_EMAIL,
    stripe: createStripeClient(secrets.secretKey, { apiBase: config.STRIPE_API_BASE }),
    siteUrl: config.SITE_URL,
    cutoffHours: config.DISPATCH_CUTOFF_HOURS,
    shopId: config.SHOP_ID,
    ...(orderPageSecret !== undefined && {
      orderPage: orderPageLinks(config.SITE_URL, orderPageKeys(orderPageSecret)),
    }),
    now: () => new Date(),
    forecast,
    dispatchPostcode: postcodeInAddress(config.SELLER_ADDRESS),
  };
}

/** A body checked against its shared schema: 400 with a message per field otherwise. */
function parseBody<T extends z.ZodMiniType>(schema: T, value: unknown): z.output<T> {
  const parsed = z.safeParse(schema, value);
  if (!parsed.success) {
    const { fields, message } = describeIssues(parsed.error);
    throw new HttpError(400, { error: message, fields });
  }
  return parsed.data;
}

/** The coming dispatch days the capacity routes show when the page does not say. */
const DEFAULT_CAPACITY_WEEKS = 8;

/**
 * A file the page downloads or prints (the Click & Drop CSV, the packing slips): never cached,
 * never sniffed as something else. The slips' HTML has every customer value escaped; its policy
 * lets it load nothing and run nothing, only its own inline style.
 */
function file(body: string, contentType: string, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode: 200,
    headers: {
      'content-type': contentType,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
    body,
  };
}

/** The query of a GET checked against its shared schema: 400 with a message per field otherwise. */
function parseQuery<T extends z.ZodMiniType>(schema: T, event: HttpEvent): z.output<T> {
  return parseBody(schema, event.queryStringParameters ?? {});
}

export type AdminDeps = ShopStripeDeps & AdminWeatherDeps;
type Deps = AdminDeps;
type Handle = (request: HttpRequest<Deps>, actor: string) => Promise<HttpResult>;

/** `GET orders`: a window of dispatch days (or one day), or a search, optionally of one status. */
const listOrders: Handle = async ({ event, deps }) => {
  const query = parseQuery(adminListQuerySchema, event);
  const records =
    query.q === undefined
      ? await listRecords(
          { status: query.status, dispatchDate: query.dispatch, weeksBack: query.weeks },
          deps,
        )
      : (await findRecords(query.q, deps, { weeksBack: query.weeks })).filter((record) => {
          const item = record.kind === 'order' ? record.order : record.request;
          return (
            (query.status === undefined || item.status === query.status) &&
            (query.dispatch === undefined || item.dispatchDate === query.dispatch)
          );
        });
  return json(200, { records: records.map(recordView) } satisfies AdminListResponse);
};

/**
 * `GET order?reference=`: one order or request in full; 404 when the reference names none, 409
 * when it names two (references equal but for case: the full session id names one).
 */
const getOrder: Handle = async ({ event, deps }) => {
  const query = parseQuery(adminOrderQuerySchema, event);
  const record = await findByReference(deps.table, query.reference).catch(async (error: unknown) => {
    const none =
      error instanceof RefusedError && (await recordsByReference(deps.table, query.reference)).length === 0;
    if (none) throw new HttpError(404, { error: error.message });
    throw error;
  });
  return json(200, { record: recordView(record) } satisfies AdminRecordResponse);
};

/** `GET status`: the shop's mode and the week (the same as `orders status`). */
const getStatus: Handle = async ({ deps }) => json(200, (await shopWeek(deps)) satisfies AdminStatusResponse);

/** `GET capacity?weeks=`: the settings and each coming dispatch day's capacity. */
const getCapacity: Handle = async ({ event, deps }) => {
  const query = parseQuery(adminCapacityQuerySchema, event);
  const [settings, rows] = await Promise.all([
    readShopSettings(deps.table, true),
    capacityWeeks(deps, query.weeks ?? DEFAULT_CAPACITY_WEEKS),
  ]);
  return json(200, {
    settings: capacitySettingsView(settings.capacity),
    rows,
  } satisfies AdminCapacityResponse);
};

/**
 * `POST capacity`: the CLI's `capacity --set`, with its refusals (setCapacity). A date in a week
 * means that week's dispatch day, as the CLI takes it.
 */
const postCapacity: Handle = async ({ event, deps }) => {
  const body = parseBody(adminCapacitySetSchema, readJsonBody(event, MAX_BODY_BYTES));
  const date = body.date === 'default' ? undefined : dispatchDayOfWeekOf(body.date);
  const value: CapacityValue = body.bottles === null ? 'none' : body.bottles;
  const result = await setCapacity(deps, { value, date }, DEFAULT_CAPACITY_WEEKS);
  return json(200, {
    date: date ?? 'default',
    settings: capacitySettingsView(result.settings),
    rows: await capacityWeeks(deps, DEFAULT_CAPACITY_WEEKS),
    oversold: result.oversold,
  } satisfies AdminCapacitySetResponse);
};

/**
 * The dispatch day a `date` query means (a weekend day or bank holiday: the next dispatch day, as
 * the CLI's dispatch-list), or without one the day the merchant packs for next; and its orders.
 */
async function dayToPack(
  event: HttpEvent,
  deps: Deps,
): Promise<{ day: IsoDate; orders: Awaited<ReturnType<typeof ordersToPack>> }> {
  const query = parseQuery(adminDispatchDayQuerySchema, event);
  const day = query.date === undefined ? await nextPackingDay(deps) : packingDay(query.date);
  return { day, orders: await ordersToPack(day, deps) };
}

/** `GET dispatch-csv?date=`: Royal Mail Click & Drop's import of that day's orders. */
const getDispatchCsv: Handle = async ({ event, deps }) => {
  const { day, orders } = await dayToPack(event, deps);
  return file(clickAndDropCsv(day, orders), 'text/csv; charset=utf-8', {
    'content-disposition': `attachment; filename="click-and-drop-${day}.csv"`,
  });
};

/** `GET packing-slips?date=`: that day's packing slips, to print. */
const getPackingSlips: Handle = async ({ event, deps }) => {
  const { day, orders } = await dayToPack(event, deps);
  return file(packingSlipsHtml(day, orders, deps.seller), 'text/html; charset=utf-8', {
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'",
  });
};

/**
 * Several orders at once: each is its own exactly-once action, so one refusal (a refunded order)
 * does not stop the others; the answer is 409 only when every one was refused.
 */
const dispatchOrders: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminDispatchSchema, readJsonBody(event, MAX_BODY_BYTES));
  const results: AdminDispatchResult[] = [];
  for (const reference of body.references) {
    try {
      const trackingNumber = body.trackingNumbers?.[reference] ?? body.trackingNumber;
      results.push(dispatchResult(await markDispatched(reference, { trackingNumber, actor }, deps)));
    } catch (error) {
      if (!(error instanceof RefusedError)) throw error;
      results.push({ reference, refused: error.message });
    }
  }
  const refused = results.flatMap((result) => ('refused' in result ? [result.refused] : []));
  if (refused.length === results.length) {
    return json(409, { error: refused[0], results } satisfies AdminDispatchResponse);
  }
  return json(200, { results } satisfies AdminDispatchResponse);
};

function dispatchResult(result: ActionResult): AdminDispatchResult {
  return {
    reference: result.reference,
    changed: result.changed,
    email: result.email,
    status: result.order.status,
    record: orderView(result.order),
  };
}

/** `POST orders/tracking`: a dispatched order's number added or corrected (one update email a change). */
const setTracking: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminTrackingSchema, readJsonBody(event, MAX_BODY_BYTES));
  const result = await updateTrackingNumber(
    body.reference,
    { trackingNumber: body.trackingNumber, actor },
    deps,
  );
  return json(200, {
    reference: result.reference,
    changed: result.changed,
    email: result.email,
    record: orderView(result.order),
  } satisfies AdminTrackingResponse);
};

/** `POST orders/tracking-import`: a Click & Drop export's orders dispatched with their numbers. */
const importTracking: Handle = async ({ event, deps }, actor) => {
  // The CSV's characters, in JSON, with room for escaped quotes and line ends.
  const body = parseBody(adminTrackingImportSchema, readJsonBody(event, TRACKING_IMPORT_MAX_CHARS * 2));
  const result = await importClickAndDropTracking(body.csv, { actor }, deps);
  return json(200, {
    results: result.dispatched.map(dispatchResult),
    unmatched: result.unmatched,
  } satisfies AdminTrackingImportResponse);
};

/** `POST orders/refund-part`: some bottles and/or the delivery refunded, with its email. */
const refundPartOf: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminPartRefundSchema, readJsonBody(event, MAX_BODY_BYTES));
  const result = await refundPart(body.reference, { ...body, actor }, deps);
  return json(200, {
    reference: result.reference,
    refundId: result.refundId,
    pence: result.pence,
    email: result.email,
    record: orderView(result.order),
  } satisfies AdminPartRefundResponse);
};

const delayOrders: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminDelaySchema, readJsonBody(event, MAX_BODY_BYTES));
  return json(200, delayView(await delayDispatch({ ...body, actor }, deps), deps.now()));
};

/**
 * `GET weather?date=`: the weather check of a dispatch day (the coming one without a date). A
 * provider that fails or is slow makes its orders "unknown" (checkWeather), never an error.
 */
const getWeather: Handle = async ({ event, deps }) => {
  const query = parseQuery(adminDispatchDayQuerySchema, event);
  const day = query.date === undefined ? comingWeatherDay(deps.now()) : packingDay(query.date);
  return json(200, weatherView(await checkWeather(day, deps)) satisfies AdminWeatherResponse);
};

/** `POST orders/delay-at-risk`: just the day's orders at risk moved, through delay's own path. */
const delayAtRisk: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminDelayAtRiskSchema, readJsonBody(event, MAX_BODY_BYTES));
  return json(200, delayView(await delayOrdersAtRisk(body.date, actor, deps), deps.now()));
};

const refund: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminRefundSchema, readJsonBody(event, MAX_BODY_BYTES));
  const result = await refundOrder(body.reference, { reason: body.reason, actor }, deps);
  return json(200, {
    reference: result.reference,
    changed: result.changed,
    refundId: result.refundId,
    pence: result.pence,
    email: result.email,
    refundEmail: result.refundEmail,
    status: result.order.status,
    record: orderView(result.order),
  } satisfies AdminRefundResponse);
};

/** `POST orders/address`: the CLI's `address`, with the checkout's rules and the packing cut-off. */
const correctAddress: Handle = async ({ event, deps }, actor) => {
  const { reference, ...details } = parseBody(adminAddressSchema, readJsonBody(event, MAX_BODY_BYTES));
  const result = await correctOrderAddress(await findOrder(deps, reference), details, { actor }, deps);
  return json(200, {
    reference: result.reference,
    changed: result.changed,
    email: result.email,
    record: orderView(result.order),
  } satisfies AdminAddressResponse);
};

/** `POST orders/page-link`: the order page's link revoked and a new one emailed to the customer once. */
const revokePageLink: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminPageLinkSchema, readJsonBody(event, MAX_BODY_BYTES));
  const result = await revokeOrderPageLink(body.reference, { actor }, deps);
  return json(200, {
    reference: result.reference,
    email: result.email,
    record: orderView(result.order),
  } satisfies AdminPageLinkResponse);
};

const pause: Handle = async ({ event, deps }) => {
  const body = parseBody(adminPauseSchema, readJsonBody(event, MAX_BODY_BYTES));
  // A blank message (requests mode: a pause without one is a 400) is no message.
  const outcome = await pauseShop({ mode: body.mode, message: body.message || undefined }, deps);
  return json(200, { ...outcome, settings: settingsView(outcome.settings) } satisfies AdminPauseResponse);
};

const resume: Handle = async ({ deps }) => {
  const settings = await writeShopSettings(deps.table, { mode: 'open' }, deps.now());
  return json(200, { settings: settingsView(settings) } satisfies AdminResumeResponse);
};

const sendPaymentLink: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminRequestSchema, readJsonBody(event, MAX_BODY_BYTES));
  return json(
    200,
    (await requestPayment(body.reference, { actor }, deps)) satisfies AdminRequestPaymentResponse,
  );
};

const decline: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminRequestSchema, readJsonBody(event, MAX_BODY_BYTES));
  return json(200, (await declineRequest(body.reference, { actor }, deps)) satisfies AdminDeclineResponse);
};

/** The route table: path and method → the domain function behind it. */
export const ROUTES: ReadonlyArray<{ path: string; name: string; method: 'GET' | 'POST'; handle: Handle }> = [
  { path: ADMIN_API_PATHS.orders, name: 'list', method: 'GET', handle: listOrders },
  { path: ADMIN_API_PATHS.order, name: 'order', method: 'GET', handle: getOrder },
  { path: ADMIN_API_PATHS.status, name: 'status', method: 'GET', handle: getStatus },
  { path: ADMIN_API_PATHS.capacity, name: 'capacity', method: 'GET', handle: getCapacity },
  { path: ADMIN_API_PATHS.capacity, name: 'set-capacity', method: 'POST', handle: postCapacity },
  { path: ADMIN_API_PATHS.dispatchCsv, name: 'dispatch-csv', method: 'GET', handle: getDispatchCsv },
  { path: ADMIN_API_PATHS.packingSlips, name: 'packing-slips', method: 'GET', handle: getPackingSlips },
  { path: ADMIN_API_PATHS.dispatch, name: 'dispatch', method: 'POST', handle: dispatchOrders },
  { path: ADMIN_API_PATHS.delay, name: 'delay', method: 'POST', handle: delayOrders },
  { path: ADMIN_API_PATHS.refund, name: 'refund', method: 'POST', handle: refund },
  { path: ADMIN_API_PATHS.refundPart, name: 'refund-part', method: 'POST', handle: refundPartOf },
  { path: ADMIN_API_PATHS.tracking, name: 'tracking', method: 'POST', handle: setTracking },
  { path: ADMIN_API_PATHS.trackingImport, name: 'tracking-import', method: 'POST', handle: importTracking },
  { path: ADMIN_API_PATHS.correctAddress, name: 'address', method: 'POST', handle: correctAddress },
  { path: ADMIN_API_PATHS.pause, name: 'pause', method: 'POST', handle: pause },
  { path: ADMIN_API_PATHS.resume, name: 'resume', method: 'POST', handle: resume },
  { path: ADMIN_API_PATHS.requestPayment, name: 'request-payment', method: 'POST', handle: sendPaymentLink },
  { path: ADMIN_API_PATHS.declineRequest, name: 'decline', method: 'POST', handle: decline },
  { path: ADMIN_API_PATHS.weather, name: 'weather', method: 'GET', handle: getWeather },
  { path: ADMIN_API_PATHS.delayAtRisk, name: 'delay-at-risk', method: 'POST', handle: delayAtRisk },
  { path: ADMIN_API_PATHS.revokePageLink, name: 'page-link', method: 'POST', handle: revokePageLink },
];

/** A refused transition is the merchant's to read: 409 with the domain's own words. */
function adminErrorResponse(error: unknown, logKeys: LogKeys): HttpResult | undefined {
  if (error instanceof RefusedError) {
    logger.info('Admin action refused', { ...logKeys, statusCode: 409, reason: error.message });
    return json(409, { error: error.message });
  }
  return undefined;
}

/**
 * Every `/functions/v1/admin/*` route, one Lambda. The merchant is checked first on every call
 * (requireMerchant: 401 without verified claims, 403 outside `merchants`), before the method,
 * the body or any dependency; then each route is an httpEndpoint calling the domain function the
 * CLI calls. Every answer is `Cache-Control: no-store` (json()).
 */
export function createAdminApiHandler(
  deps: DepsOrLoader<Deps>,
  options: { expectedOrigin?: (() => Promise<string>) | undefined } = {},
): (event: HttpEvent) => Promise<HttpResult> {
  const loadDeps = initOnce(loaderOf(deps));
  // Path → method → endpoint: one path may answer two methods (capacity: GET and POST).
  const endpoints = new Map<string, Map<string, (event: HttpEvent) => Promise<HttpResult>>>();
  for (const route of ROUTES) {
    const endpoint = httpEndpoint<Deps>({
      route: `admin-api ${route.name}`,
      method: route.method,
      deps: loadDeps,
      handle: (request) => {
        const merchant = requireMerchant(request.event);
        request.logKeys.actor = merchant.actor;
        return route.handle(request, merchant.actor);
      },
      mapError: adminErrorResponse,
    });
    const methods = endpoints.get(route.path) ?? new Map();
    methods.set(route.method, endpoint);
    endpoints.set(route.path, methods);
  }
  return async (event) => {
    const logKeys = { requestId: event.requestContext.requestId, route: 'admin-api' };
    try {
      if (options.expectedOrigin !== undefined) {
        // Fails closed: a secret that cannot be read lets nothing in.
        const expected = await options.expectedOrigin().catch(() => undefined);
        if (!cameThroughCloudFront(header(event, ORIGIN_VERIFY_HEADER), expected)) {
          throw new HttpError(403, {
            error: ADMIN_ERRORS.notThroughCloudFront,
            code: ADMIN_FORBIDDEN_CODES.notThroughCloudFront,
          } satisfies AdminErrorResponse);
        }
      }
      requireMerchant(event);
      const methods = endpoints.get(event.rawPath);
      if (methods === undefined) throw new HttpError(404, { error: ADMIN_ERRORS.notFound });
      const endpoint = methods.get(event.requestContext.http.method);
      if (endpoint === undefined) {
        const allowed = [...methods.keys()];
        throw new HttpError(
          405,
          { error: `Use ${allowed.join(' or ')}.` },
          { headers: { allow: allowed.join(', ') } },
        );
      }
      return await endpoint(event);
    } catch (error) {
      return sharedErrorResponse(error, logKeys);
    }
  };
}

/** The Lambda entry point. */
export const handler = createAdminApiHandler(() => loadAdminDeps(process.env), {
  expectedOrigin: originValueFromEnv(process.env),
});
