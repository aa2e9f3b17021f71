import * as z from 'zod/mini';
import { TRACKING_IMPORT_MAX_CHARS } from '../../../shared/admin-requests';
import {
  ADMIN_FORBIDDEN_CODES,
  type AdminDispatchResult,
  type AdminErrorResponse,
} from '../../../shared/admin-responses';
import {
  ADMIN_API_ROUTES,
  type AdminAnswer,
  type AdminInput,
  type AdminJsonRouteName,
  type AdminRoute,
  type AdminRouteName,
} from '../../../shared/admin-routes';
import { ADMIN_SESSION_PATH } from '../../../shared/admin-session-routes';
import { describeIssues } from '../../../shared/checkout-request';
import { dispatchDayOfWeekOf, type IsoDate, packingDay } from '../../../shared/dispatch';
import { IDEMPOTENCY_HEADER } from '../../../shared/public-routes';
import { type CapacityValue, setCapacity } from '../../domain/capacity/capacity-report';
import { clickAndDropCsv, packingSlipsHtml } from '../../domain/fulfilment/dispatch-files';
import {
  capacitySettingsView,
  delayView,
  orderView,
  recordView,
  settingsView,
} from '../../domain/operations/admin-views';
import { correctOrderAddress } from '../../domain/operations/correct-address';
import { PlannedLaterError } from '../../domain/operations/early-dispatch';
import { listOrFindRecords } from '../../domain/operations/find-orders';
import { nextPackingDay, ordersToPack } from '../../domain/operations/listing';
import {
  type ActionResult,
  delayDispatch,
  findOrder,
  markDispatched,
  refundOrder,
  trackOrder,
} from '../../domain/operations/order-actions';
import { refundPart } from '../../domain/operations/part-refund';
import { pauseShop, resumeShop } from '../../domain/operations/pause-shop';
import { declineRequest, requestPayment } from '../../domain/operations/request-actions';
import type { ShopStripeDeps } from '../../domain/operations/shop-deps';
import { capacityWeeks, shopWeek } from '../../domain/operations/shop-week';
import { importClickAndDropTracking } from '../../domain/operations/tracking-import';
import { revokeOrderPageLink } from '../../domain/order-page/revoke-page-link';
import {
  type MerchantPushDeps,
  PushEndpointRefusedError,
  subscribeDevice,
  unsubscribeDevice,
} from '../../domain/push/merchant-push';
import { RefusedError } from '../../domain/refusal';
import { cancelForMerchant } from '../../domain/standing-orders/merchant-cancel';
import { merchantStandingOrders, standingOrderView } from '../../domain/standing-orders/merchant-list';
import {
  claimIntention,
  finishIntention,
  type IntentionScope,
  intentionId,
  releaseIntention,
  requestFingerprint,
} from '../../domain/storage/intention-keys';
import { findByReference, recordsByReference } from '../../domain/storage/records';
import { readShopSettings } from '../../domain/storage/settings-store';
import { readWeatherThresholds, writeWeatherThresholds } from '../../domain/storage/weather-thresholds';
import { delayOrdersAtRisk } from '../../domain/weather/delay-at-risk';
import { reportForecastKey } from '../../domain/weather/forecast-source';
import type { ForecastSource } from '../../domain/weather/open-meteo';
import { postcodeInAddress } from '../../domain/weather/postcode-places';
import { checkWeather } from '../../domain/weather/weather-check';
import { comingWeatherDay, weatherView } from '../../domain/weather/weather-view';
import { initOnce } from '../../lib/cold-start';
import { adminRuntimeEnvSchema, type Env, parseEnv } from '../../lib/config';
import { sharedErrorResponse } from '../../lib/error-response';
import {
  HttpError,
  type HttpEvent,
  type HttpResult,
  header,
  idempotencyKeyOf,
  json,
  readJsonBody,
} from '../../lib/http';
import {
  type DepsOrLoader,
  type HttpRequest,
  httpEndpoint,
  type LogKeys,
  loadOnce,
} from '../../lib/http-handler';
import { logger } from '../../lib/logger';
import { requireMerchant } from '../../lib/merchant-claims';
import { type MetricsWriter, stdoutMetricsWriter } from '../../lib/metrics';
import {
  cameThroughCloudFront,
  ORIGIN_VERIFY_HEADER,
  originVerifyEnvSchema,
  readOriginVerifyValue,
} from '../../lib/origin-verify';
import { pushSenderFromEnv } from '../../lib/web-push';
import { forecastSource, orderPages, shopEmail, shopTable, stripeRuntime } from '../../runtime';
import { createSessionHandler, sessionDepsFromEnv } from './session';

/** An admin body is a handful of references at most. */
const MAX_BODY_BYTES = 8 * 1024;

export const ADMIN_ERRORS = {
  notFound: 'No such admin route.',
  notThroughCloudFront: 'Forbidden.',
  badIntentionKey: `The ${IDEMPOTENCY_HEADER} header is 1 to 100 letters, digits, "-" or "_".`,
  otherRequest: 'This key was used for another request: make a new key for a new request.',
  stillRunning: 'The same request is still being done: wait a few seconds and look again.',
} as const;

/** The header a repeat's stored answer carries. */
export const REPLAYED_HEADER = 'idempotent-replayed';

const INTENTION_KEY_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** The request's intention key: optional; a malformed one is refused, not ignored. */
function intentionKeyOf(event: HttpEvent): string | undefined {
  return idempotencyKeyOf(event, INTENTION_KEY_PATTERN, ADMIN_ERRORS.badIntentionKey);
}

/**
 * CloudFront's origin-verify header value, when ORIGIN_VERIFY_SECRET_ID is set: the admin routes carry the
 * JWT authorizer, and a route has one, so the origin check is made here first. Local stacks set none.
 */
export function originValueFromEnv(env: Env): (() => Promise<string>) | undefined {
  const parsed = z.safeParse(originVerifyEnvSchema, env);
  if (!parsed.success) return undefined;
  return initOnce(() => readOriginVerifyValue(parsed.data));
}

/**
 * The shop's clients, with what the weather check adds (the forecast, where parcels leave from) and what the
 * notification routes add (ADR 0056).
 */
export interface AdminDeps extends ShopStripeDeps {
  forecast: ForecastSource;
  dispatchPostcode: string | undefined;
  /** The weather check's own clock (LOCAL_WEATHER_NOW, local shop only, any weekday); never in Lambda. */
  weatherNow?: (() => Date) | undefined;
  /** Where the forecast key's metric goes: stdout (EMF) unless a test collects it. */
  metrics?: MetricsWriter | undefined;
  /** The stage's push sender, for its public key; absent: none. */
  pushSender?: MerchantPushDeps['pushSender'] | undefined;
  /** PUSH_LOCAL_ORIGIN: the local push-service stand-in, the one http endpoint a device may name. */
  pushLocalOrigin?: string | undefined;
}

/** The weather check's deps: the shop's, on the weather clock when one is set. */
function weatherDeps(deps: AdminDeps): AdminDeps {
  return deps.weatherNow === undefined ? deps : { ...deps, now: deps.weatherNow };
}

/** The clients and settings the operator's actions need, from the environment: once per cold start. */
export async function loadAdminDeps(env: Env): Promise<AdminDeps> {
  const config = parseEnv(adminRuntimeEnvSchema, env);
  const [{ stripe }, forecast, pages] = await Promise.all([
    stripeRuntime(config),
    forecastSource(config),
    orderPages(config),
  ]);
  return {
    table: shopTable(config),
    ...shopEmail(config),
    stripe,
    siteUrl: config.SITE_URL,
    cutoffHours: config.DISPATCH_CUTOFF_HOURS,
    shopId: config.SHOP_ID,
    ...(pages !== undefined && { orderPage: pages.links }),
    now: () => new Date(),
    forecast,
    dispatchPostcode: postcodeInAddress(config.SELLER_ADDRESS),
    pushSender: pushSenderFromEnv(config),
    pushLocalOrigin: config.PUSH_LOCAL_ORIGIN,
  };
}

/** A body or query checked against its shared schema: 400 with a message per field otherwise. */
function parseInput<T extends z.ZodMiniType>(schema: T, value: unknown): z.output<T> {
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
 * A download or print (the CSV, the packing slips): never cached or sniffed; the slips' policy lets them load
 * and run nothing but their own inline style.
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

/** A route's work: its checked input to its answer (JSON as the shared schema reads it, or a file). */
type Handlers = {
  [K in AdminRouteName]: (
    input: AdminInput<K>,
    request: HttpRequest<AdminDeps>,
    actor: string,
    /** The request's intention (from its `Idempotency-Key`), for Stripe's keys; absent without one. */
    intention: string | undefined,
  ) => Promise<K extends AdminJsonRouteName ? AdminAnswer<K> : HttpResult>;
};

/** A `date` on a weekend or holiday means the next dispatch day, as in the CLI; without, the next to pack. */
async function dayToPack(
  date: IsoDate | undefined,
  deps: AdminDeps,
): Promise<{ day: IsoDate; orders: Awaited<ReturnType<typeof ordersToPack>> }> {
  const day = date === undefined ? await nextPackingDay(deps) : packingDay(date);
  return { day, orders: await ordersToPack(day, deps) };
}

/** An action's answer: what it changed and emailed, and the order as it is now. */
function changedOrder<Email>({
  reference,
  changed,
  email,
  order,
}: Omit<ActionResult, 'email'> & { email: Email }) {
  return { reference, changed, email, record: orderView(order) };
}

function dispatchResult(result: ActionResult): AdminDispatchResult {
  return { ...changedOrder(result), status: result.order.status };
}

/** One order or request in full; 404 when none, 409 when the reference names two (equal but for case). */
async function findRecord(reference: string, deps: AdminDeps) {
  const record = await findByReference(deps.table, reference).catch(async (error: unknown) => {
    const none =
      error instanceof RefusedError && (await recordsByReference(deps.table, reference)).length === 0;
    if (none) throw new HttpError(404, { error: error.message });
    throw error;
  });
  return { record: recordView(record) };
}

async function capacityAnswer(weeks: number | undefined, deps: AdminDeps) {
  const [settings, rows] = await Promise.all([
    readShopSettings(deps.table, true),
    capacityWeeks(deps, weeks ?? DEFAULT_CAPACITY_WEEKS),
  ]);
  return { settings: capacitySettingsView(settings.capacity), rows };
}

/** The CLI's `capacity --set`, with its refusals; a date in a week means that week's dispatch day. */
async function setCapacityAnswer(body: AdminInput<'setCapacity'>, deps: AdminDeps) {
  const date = body.date === 'default' ? undefined : dispatchDayOfWeekOf(body.date);
  const value: CapacityValue = body.bottles === null ? 'none' : body.bottles;
  const result = await setCapacity(deps, { value, date }, DEFAULT_CAPACITY_WEEKS);
  return {
    date: date ?? 'default',
    settings: capacitySettingsView(result.settings),
    rows: await capacityWeeks(deps, DEFAULT_CAPACITY_WEEKS),
    oversold: result.oversold,
  };
}

/** Royal Mail Click & Drop's import of that day's orders. */
async function dispatchCsv(date: IsoDate | undefined, deps: AdminDeps): Promise<HttpResult> {
  const { day, orders } = await dayToPack(date, deps);
  return file(clickAndDropCsv(day, orders), 'text/csv; charset=utf-8', {
    'content-disposition': `attachment; filename="click-and-drop-${day}.csv"`,
  });
}

/** That day's packing slips, to print. */
async function packingSlips(date: IsoDate | undefined, deps: AdminDeps): Promise<HttpResult> {
  const { day, orders } = await dayToPack(date, deps);
  return file(packingSlipsHtml(day, orders, deps.seller), 'text/html; charset=utf-8', {
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'",
  });
}

/** Each order its own exactly-once action: one refusal stops no other; 409 only when all were refused. */
async function dispatchAll(body: AdminInput<'dispatch'>, actor: string, deps: AdminDeps) {
  const results: AdminDispatchResult[] = [];
  for (const reference of body.references) {
    try {
      const trackingNumber = body.trackingNumbers?.[reference] ?? body.trackingNumber;
      results.push(
        dispatchResult(await markDispatched(reference, { trackingNumber, actor, early: body.early }, deps)),
      );
    } catch (error) {
      if (!(error instanceof RefusedError)) throw error;
      results.push({ reference, refused: error.message, ...plannedFor(error) });
    }
  }
  const refused = results.flatMap((result) => ('refused' in result ? [result.refused] : []));
  // Every refusal in `error`, each naming its order: a client that shows only the error loses none.
  if (refused.length === results.length) throw new HttpError(409, { error: refused.join(' '), results });
  return { results };
}

/** A Click & Drop export's orders dispatched with their numbers, or with `preview` what would be. */
async function importTracking(
  { csv, early, preview }: AdminInput<'trackingImport'>,
  actor: string,
  deps: AdminDeps,
) {
  const result = await importClickAndDropTracking(csv, { actor, early, preview }, deps);
  return {
    results: result.dispatched.map(dispatchResult),
    unmatched: result.unmatched,
    ...(result.rows !== undefined && { preview: true, rows: result.rows }),
  };
}

/** A provider that fails or is slow makes its orders "unknown" (checkWeather), never an error. */
async function weatherAnswer(date: IsoDate | undefined, deps: AdminDeps) {
  const weather = weatherDeps(deps);
  const day = date === undefined ? comingWeatherDay(weather.now()) : packingDay(date);
  // Counted on every check, so the stage's alarm holds while the key is missing.
  const keyProblem = reportForecastKey(deps.forecast, deps.metrics ?? stdoutMetricsWriter);
  return weatherView(await checkWeather(day, weather), keyProblem);
}

/** Each route of shared/admin-routes.ts: the domain function behind it, one line or so each. */
const HANDLERS: Handlers = {
  /** A window of dispatch days (or one day), or a search, optionally of one status. */
  list: async ({ q, status, dispatch, weeks }, { deps }) => {
    const records = await listOrFindRecords(
      { text: q, status, dispatchDate: dispatch, weeksBack: weeks },
      deps,
    );
    return { records: records.map(recordView) };
  },
  order: ({ reference }, { deps }) => findRecord(reference, deps),
  /** The shop's mode and the week (the same as `orders status`). */
  status: (_input, { deps }) => shopWeek(deps),
  capacity: (query, { deps }) => capacityAnswer(query.weeks, deps),
  setCapacity: (body, { deps }) => setCapacityAnswer(body, deps),
  dispatchCsv: (query, { deps }) => dispatchCsv(query.date, deps),
  packingSlips: (query, { deps }) => packingSlips(query.date, deps),
  dispatch: (body, { deps }, actor) => dispatchAll(body, actor, deps),
  /** A dispatched order's number added or corrected (one update email a change); a paid order's dispatches it. */
  tracking: async ({ reference, trackingNumber, early }, { deps }, actor) =>
    changedOrder(await trackOrder(reference, { trackingNumber, actor, early }, deps)),
  trackingImport: (body, { deps }, actor) => importTracking(body, actor, deps),
  /** Some bottles and/or the delivery refunded, with its email. */
  refundPart: async (body, { deps }, actor, intention) => {
    const { reference, refundId, pence, email, order } = await refundPart(
      body.reference,
      { ...body, actor, intention },
      deps,
    );
    return { reference, refundId, pence, email, record: orderView(order) };
  },
  delay: async (body, { deps }, actor) =>
    delayView(await delayDispatch({ ...body, actor }, deps), deps.now()),
  weather: (query, { deps }) => weatherAnswer(query.date, deps),
  /** Just the day's orders at risk moved, each to its first fine day, through delay's own path. */
  weatherThresholds: async (_input, { deps }) => ({ thresholds: await readWeatherThresholds(deps.table) }),
  setWeatherThresholds: async (body, { deps }) => ({
    thresholds: await writeWeatherThresholds(deps.table, body, deps.now()),
  }),
  delayAtRisk: (body, { deps }, actor) => delayOrdersAtRisk(body.date, actor, deps, weatherDeps(deps).now),
  refund: async ({ reference, reason }, { deps }, actor, intention) => {
    const result = await refundOrder(reference, { reason, actor, intention }, deps);
    const { refundId, pence, refundEmail, order } = result;
    return { ...changedOrder(result), refundId, pence, refundEmail, status: order.status };
  },
  /** The CLI's `address`, with the checkout's rules and the packing cut-off. */
  address: async ({ reference, ...details }, { deps }, actor) =>
    changedOrder(await correctOrderAddress(await findOrder(deps, reference), details, { actor }, deps)),
  pause: async (body, { deps }) => {
    // A blank message (requests mode: a pause without one is a 400) is no message.
    const outcome = await pauseShop({ mode: body.mode, message: body.message || undefined }, deps);
    return { ...outcome, settings: settingsView(outcome.settings) };
  },
  resume: async (_input, { deps }) => {
    const { settings, renewals } = await resumeShop(deps);
    return { settings: settingsView(settings), renewals };
  },
  requestPayment: (body, { deps }, actor) => requestPayment(body.reference, { actor }, deps),
  decline: (body, { deps }, actor) => declineRequest(body.reference, { actor }, deps),
  standingOrders: async (query, { deps }) => ({ standingOrders: await merchantStandingOrders(query, deps) }),
  /** Cancelled at Stripe and in its record; its customer's email sent once, whoever cancels. */
  cancelStandingOrder: async ({ subscriptionId }, { deps }, actor) => {
    const { changed, email, record } = await cancelForMerchant(subscriptionId, actor, deps);
    return { changed, email, standingOrder: standingOrderView(record, deps.now(), deps.cutoffHours) };
  },
  /** The order page's link revoked and a new one emailed to the customer once. */
  revokePageLink: async (body, { deps }, actor) => {
    const { reference, email, order } = await revokeOrderPageLink(body.reference, { actor }, deps);
    return { reference, email, record: orderView(order) };
  },
  pushKey: async (_input, { deps }) => ({ publicKey: (await deps.pushSender?.())?.publicKey ?? null }),
  pushSubscribe: async (body, { deps }, actor) => {
    await subscribeDevice(body, actor, deps).catch((error: unknown) => {
      if (!(error instanceof PushEndpointRefusedError)) throw error;
      throw new HttpError(400, { error: error.message, fields: { endpoint: error.message } });
    });
    return { subscribed: true };
  },
  pushUnsubscribe: async (body, { deps }) => ({ removed: await unsubscribeDevice(body.endpoint, deps) }),
};

/** Each route's log name, as before the table: `setCapacity` logs as `set-capacity`. */
const logName = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The route table: path and method → the domain function behind it. */
export const ROUTES = (Object.keys(ADMIN_API_ROUTES) as AdminRouteName[]).map((name) => ({
  name,
  ...(ADMIN_API_ROUTES[name] as AdminRoute),
}));

/** The day a refusal names when it is an order planned for a later dispatch day: the page asks about it. */
function plannedFor(error: RefusedError): { plannedFor?: IsoDate } {
  return error instanceof PlannedLaterError ? { plannedFor: error.plannedFor } : {};
}

/**
 * A POST with an intention key acts once: its answer (a 2xx, or a refusal) is kept for repeats, marked
 * replayed; a 5xx lets the key go, so a repeat finishes the work. Without a key, `act` just runs.
 */
async function actOnce(
  scope: IntentionScope | undefined,
  input: unknown,
  request: HttpRequest<AdminDeps>,
  act: (intention: string | undefined) => Promise<HttpResult>,
): Promise<HttpResult> {
  if (scope === undefined) return act(undefined);
  const { table, now } = request.deps;
  const claim = await claimIntention(table, scope, requestFingerprint(input), now());
  if (claim.kind === 'otherRequest') throw new RefusedError(ADMIN_ERRORS.otherRequest);
  if (claim.kind === 'running') throw new RefusedError(ADMIN_ERRORS.stillRunning);
  if (claim.kind === 'done') {
    return { ...json(claim.statusCode, null, { [REPLAYED_HEADER]: 'true' }), body: claim.body };
  }
  let answer: HttpResult;
  try {
    answer = await act(intentionId(scope));
  } catch (error) {
    const refusal =
      adminErrorResponse(error, request.logKeys) ??
      (error instanceof HttpError && error.statusCode < 500
        ? sharedErrorResponse(error, request.logKeys)
        : undefined);
    if (refusal === undefined) {
      await releaseIntention(table, scope, claim.token).catch((releaseError: unknown) => {
        logger.warn('Could not release an intention key; it is taken over once stale', {
          ...request.logKeys,
          error: releaseError,
        });
      });
      throw error;
    }
    answer = refusal;
  }
  const kept = { statusCode: answer.statusCode ?? 200, body: answer.body ?? '' };
  await finishIntention(table, scope, claim.token, kept).catch((finishError: unknown) => {
    // The action is done and its answer goes back: only a repeat's replay is lost.
    logger.warn('Could not keep the answer of an intention key', { ...request.logKeys, error: finishError });
  });
  return answer;
}

/** A refused transition is the merchant's to read: 409 with the domain's own words. */
function adminErrorResponse(error: unknown, logKeys: LogKeys): HttpResult | undefined {
  if (error instanceof RefusedError) {
    logger.info('Admin action refused', { ...logKeys, statusCode: 409, reason: error.message });
    return json(409, { error: error.message, ...plannedFor(error) } satisfies AdminErrorResponse);
  }
  return undefined;
}

/** One admin route: the merchant's token, input parsed by the route's schema, acted once per key. */
function adminEndpoint(
  route: (typeof ROUTES)[number],
  loadDeps: () => Promise<AdminDeps>,
): (event: HttpEvent) => Promise<HttpResult> {
  // One signature for every route: each handler's own is checked against the table in HANDLERS.
  const handle = HANDLERS[route.name] as (
    input: unknown,
    ...context: [HttpRequest<AdminDeps>, string, string | undefined]
  ) => Promise<unknown>;
  // A Click & Drop export is a few hundred rows: its characters, with room for JSON's escapes.
  const maxBytes = route.name === 'trackingImport' ? TRACKING_IMPORT_MAX_CHARS * 2 : MAX_BODY_BYTES;
  return httpEndpoint<AdminDeps>({
    route,
    logName: `admin-api ${logName(route.name)}`,
    deps: loadDeps,
    handle: async (request) => {
      const merchant = requireMerchant(request.event);
      request.logKeys.actor = merchant.actor;
      const { event } = request;
      // Only an action has an intention to repeat: a GET is safe as it is.
      const key = route.method === 'POST' ? intentionKeyOf(event) : undefined;
      const raw = () =>
        route.method === 'GET' ? (event.queryStringParameters ?? {}) : readJsonBody(event, maxBytes);
      // A route without a request schema reads neither query nor body (resume, status).
      const input = route.request === undefined ? undefined : parseInput(route.request, raw());
      const scope = key === undefined ? undefined : { merchant: merchant.sub, route: route.name, key };
      return actOnce(scope, input, request, async (intention) => {
        const answer = await handle(input, request, merchant.actor, intention);
        return route.response === undefined ? (answer as HttpResult) : json(200, answer);
      });
    },
    mapError: adminErrorResponse,
  });
}

/**
 * Every `/functions/v1/admin/*` route, one Lambda. The merchant is checked first (requireMerchant: 401, 403),
 * before the method, body or any dependency; each route then calls the domain function the CLI calls.
 */
export function createAdminApiHandler(
  deps: DepsOrLoader<AdminDeps>,
  options: {
    expectedOrigin?: (() => Promise<string>) | undefined;
    /**
     * The session routes (ADR 0055): the refresh-token cookie, no ID token.
     * @default configured from process.env at their first call, as the deployed function is
     */
    session?: (event: HttpEvent) => Promise<HttpResult>;
  } = {},
): (event: HttpEvent) => Promise<HttpResult> {
  const loadDeps = loadOnce(deps);
  const session =
    options.session ?? createSessionHandler(initOnce(async () => sessionDepsFromEnv(process.env)));
  // Path → method → endpoint: one path may answer two methods (capacity: GET and POST).
  const endpoints = new Map<string, Map<string, (event: HttpEvent) => Promise<HttpResult>>>();
  for (const route of ROUTES) {
    const endpoint = adminEndpoint(route, loadDeps);
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
      if (event.rawPath.startsWith(`${ADMIN_SESSION_PATH}/`)) return await session(event);
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
