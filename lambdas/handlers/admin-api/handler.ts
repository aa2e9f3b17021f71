import * as z from 'zod/mini';
import {
  adminDelaySchema,
  adminDispatchSchema,
  adminListQuerySchema,
  adminPauseSchema,
  adminRefundSchema,
  adminRequestSchema,
} from '../../../shared/admin-requests';
import { ADMIN_API_PATHS } from '../../../shared/api-paths';
import { describeIssues } from '../../../shared/checkout-request';
import { shopEmailIdentity } from '../../domain/emails/send-email';
import { findRecords } from '../../domain/operations/find-orders';
import { listRecords } from '../../domain/operations/listing';
import { delayDispatch, markDispatched, refundOrder } from '../../domain/operations/order-actions';
import { pauseShop } from '../../domain/operations/pause-shop';
import { declineRequest, requestPayment } from '../../domain/operations/request-actions';
import type { ShopStripeDeps } from '../../domain/operations/shop-deps';
import type { ShopRecord } from '../../domain/orders/records';
import { RefusedError } from '../../domain/refusal';
import { writeShopSettings } from '../../domain/shop-settings/settings-store';
import { createDocumentClient, createSesClient } from '../../lib/aws';
import { initOnce } from '../../lib/cold-start';
import { adminRuntimeEnvSchema, type Env, parseEnv } from '../../lib/config';
import { sharedErrorResponse } from '../../lib/error-response';
import { HttpError, type HttpEvent, type HttpResult, header, json, readJsonBody } from '../../lib/http';
import { type HttpRequest, httpEndpoint, type LogKeys } from '../../lib/http-handler';
import { logger } from '../../lib/logger';
import { requireMerchant } from '../../lib/merchant-claims';
import { cameThroughCloudFront, ORIGIN_VERIFY_HEADER } from '../../lib/origin-verify';
import { readSecretString } from '../../lib/secrets-extension';
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
  const parsed = z.safeParse(z.object({ ORIGIN_VERIFY_SECRET_ID: z.string().check(z.minLength(1)) }), env);
  if (!parsed.success) return undefined;
  return initOnce(() => readSecretString(parsed.data.ORIGIN_VERIFY_SECRET_ID, {}));
}

/** The clients and settings the operator's actions need, from the environment: once per cold start. */
export async function loadAdminDeps(env: Env): Promise<ShopStripeDeps> {
  const config = parseEnv(adminRuntimeEnvSchema, env);
  const secrets = await loadStripeSecrets(config);
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
    now: () => new Date(),
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

/** A record as the page reads it: the order or request with which it is. */
function recordView(record: ShopRecord): Record<string, unknown> {
  return record.kind === 'order'
    ? { kind: 'order', ...record.order }
    : { kind: 'request', ...record.request };
}

type Deps = ShopStripeDeps;
type Handle = (request: HttpRequest<Deps>, actor: string) => Promise<HttpResult>;

/** `GET orders`: a window of dispatch days (or one day), or a search, optionally of one status. */
const listOrders: Handle = async ({ event, deps }) => {
  const query = parseBody(adminListQuerySchema, event.queryStringParameters ?? {});
  const records =
    query.q === undefined
      ? await listRecords({ status: query.status, dispatchDate: query.dispatch }, deps)
      : (await findRecords(query.q, deps)).filter((record) => {
          const item = record.kind === 'order' ? record.order : record.request;
          return (
            (query.status === undefined || item.status === query.status) &&
            (query.dispatch === undefined || item.dispatchDate === query.dispatch)
          );
        });
  return json(200, { records: records.map(recordView) });
};

/**
 * Several orders at once: each is its own exactly-once action, so one refusal (a refunded order)
 * does not stop the others; the answer is 409 only when every one was refused.
 */
const dispatchOrders: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminDispatchSchema, readJsonBody(event, MAX_BODY_BYTES));
  const results: Array<Record<string, unknown>> = [];
  for (const reference of body.references) {
    try {
      const result = await markDispatched(reference, { trackingNumber: body.trackingNumber, actor }, deps);
      results.push({
        reference: result.reference,
        changed: result.changed,
        email: result.email,
        status: result.order.status,
      });
    } catch (error) {
      if (!(error instanceof RefusedError)) throw error;
      results.push({ reference, refused: error.message });
    }
  }
  const refused = results.filter((result) => typeof result.refused === 'string');
  if (refused.length === results.length) {
    return json(409, { error: refused[0]?.refused, results });
  }
  return json(200, { results });
};

const delayOrders: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminDelaySchema, readJsonBody(event, MAX_BODY_BYTES));
  return json(200, await delayDispatch({ ...body, actor }, deps));
};

const refund: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminRefundSchema, readJsonBody(event, MAX_BODY_BYTES));
  const result = await refundOrder(body.reference, { reason: body.reason, actor }, deps);
  return json(200, {
    reference: result.reference,
    changed: result.changed,
    refundId: result.refundId,
    email: result.email,
    refundEmail: result.refundEmail,
    status: result.order.status,
  });
};

const pause: Handle = async ({ event, deps }) => {
  const body = parseBody(adminPauseSchema, readJsonBody(event, MAX_BODY_BYTES));
  return json(200, await pauseShop(body, deps));
};

const resume: Handle = async ({ deps }) =>
  json(200, { settings: await writeShopSettings(deps.table, { mode: 'open' }, deps.now()) });

const sendPaymentLink: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminRequestSchema, readJsonBody(event, MAX_BODY_BYTES));
  return json(200, await requestPayment(body.reference, { actor }, deps));
};

const decline: Handle = async ({ event, deps }, actor) => {
  const body = parseBody(adminRequestSchema, readJsonBody(event, MAX_BODY_BYTES));
  return json(200, await declineRequest(body.reference, { actor }, deps));
};

/** The route table: path → the one method it answers and the domain function behind it. */
const ROUTES: ReadonlyArray<{ path: string; name: string; method: 'GET' | 'POST'; handle: Handle }> = [
  { path: ADMIN_API_PATHS.orders, name: 'list', method: 'GET', handle: listOrders },
  { path: ADMIN_API_PATHS.dispatch, name: 'dispatch', method: 'POST', handle: dispatchOrders },
  { path: ADMIN_API_PATHS.delay, name: 'delay', method: 'POST', handle: delayOrders },
  { path: ADMIN_API_PATHS.refund, name: 'refund', method: 'POST', handle: refund },
  { path: ADMIN_API_PATHS.pause, name: 'pause', method: 'POST', handle: pause },
  { path: ADMIN_API_PATHS.resume, name: 'resume', method: 'POST', handle: resume },
  { path: ADMIN_API_PATHS.requestPayment, name: 'request-payment', method: 'POST', handle: sendPaymentLink },
  { path: ADMIN_API_PATHS.declineRequest, name: 'decline', method: 'POST', handle: decline },
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
  deps: Deps | (() => Promise<Deps>),
  options: { expectedOrigin?: (() => Promise<string>) | undefined } = {},
): (event: HttpEvent) => Promise<HttpResult> {
  const loadDeps = initOnce(typeof deps === 'function' ? deps : async () => deps);
  const endpoints = new Map(
    ROUTES.map((route) => {
      const endpoint = httpEndpoint<Deps>({
        route: `admin-api ${route.name}`,
        method: route.method,
        loadDeps,
        handle: (request) => {
          const merchant = requireMerchant(request.event);
          request.logKeys.actor = merchant.actor;
          return route.handle(request, merchant.actor);
        },
        mapError: adminErrorResponse,
      });
      return [route.path, endpoint] as const;
    }),
  );
  return async (event) => {
    const logKeys = { requestId: event.requestContext.requestId, route: 'admin-api' };
    try {
      if (options.expectedOrigin !== undefined) {
        // Fails closed: a secret that cannot be read lets nothing in.
        const expected = await options.expectedOrigin().catch(() => undefined);
        if (!cameThroughCloudFront(header(event, ORIGIN_VERIFY_HEADER), expected)) {
          throw new HttpError(403, { error: ADMIN_ERRORS.notThroughCloudFront });
        }
      }
      requireMerchant(event);
      const endpoint = endpoints.get(event.rawPath);
      if (endpoint === undefined) throw new HttpError(404, { error: ADMIN_ERRORS.notFound });
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
