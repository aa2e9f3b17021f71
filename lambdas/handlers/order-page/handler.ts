import * as z from 'zod/mini';
import { ORDER_PAGE_NOT_FOUND } from '../../../shared/order-page';
import { PUBLIC_API_ROUTES, type PublicRoute } from '../../../shared/public-routes';
import { standingOrderChangeSchema } from '../../../shared/standing-order-page';
import { InvalidCorrectionError } from '../../domain/operations/correct-address';
import { openOrderOrDebitPage } from '../../domain/order-page/debit-page';
import {
  correctFromOrderPage,
  type OrderPageDeps,
  OrderPageNotFoundError,
  orderPageView,
} from '../../domain/order-page/order-page';
import { RefusedError } from '../../domain/refusal';
import { changeFromPage, type StandingOrderActionDeps } from '../../domain/standing-orders/actions';
import { openStandingOrderPage, readStandingOrderPageView } from '../../domain/standing-orders/page';
import { capacityStoreFromTable } from '../../domain/storage/capacity-table';
import { ConfigError, type Env, orderPageRuntimeEnvSchema, parseEnv } from '../../lib/config';
import { type HttpEvent, type HttpResult, json, readJsonBody } from '../../lib/http';
import {
  type DepsOrLoader,
  type HttpRequest,
  httpEndpoint,
  httpRoutes,
  type LogKeys,
  loadOnce,
} from '../../lib/http-handler';
import { logger } from '../../lib/logger';
import { orderPages, shopEmail, shopTable, stripeRuntime } from '../../runtime';

/** A correction is an address, a postcode, a phone and a token: a few hundred bytes. */
const MAX_BODY_BYTES = 4 * 1024;

/** The page of one order is nobody else's: not cached, not indexed, no referrer sent on. */
const PRIVATE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
} as const;

/** An order's page and a standing order's: the correction's deps and the standing order's actions'. */
export type OrderPageHandlerDeps = OrderPageDeps & StandingOrderActionDeps;

/** The clients and settings, once per cold start. Without a secret there is no page: fail closed. */
export async function loadOrderPageDeps(env: Env): Promise<OrderPageHandlerDeps> {
  const config = parseEnv(orderPageRuntimeEnvSchema, env);
  const [pages, { stripe }] = await Promise.all([orderPages(config), stripeRuntime(config)]);
  if (pages === undefined)
    throw new ConfigError(['ORDER_PAGE_SECRET_ID or ORDER_PAGE_SECRET: one must be set']);
  const table = shopTable(config);
  return {
    table,
    ...shopEmail(config),
    cutoffHours: config.DISPATCH_CUTOFF_HOURS,
    keys: pages.keys,
    orderPage: pages.links,
    stripe,
    siteUrl: config.SITE_URL,
    shopId: config.SHOP_ID,
    capacity: capacityStoreFromTable(table),
    now: () => new Date(),
  };
}

/** Every refusal of a token: the same body, status and headers, so none says more than another. */
function notFound(): HttpResult {
  return json(404, { error: ORDER_PAGE_NOT_FOUND }, PRIVATE_HEADERS);
}

function mapError(error: unknown, logKeys: LogKeys): HttpResult | undefined {
  if (error instanceof OrderPageNotFoundError) {
    logger.info('Order page refused', { ...logKeys, statusCode: 404 });
    return notFound();
  }
  if (error instanceof InvalidCorrectionError) {
    logger.info('Correction refused', { ...logKeys, statusCode: 400, fieldNames: Object.keys(error.fields) });
    return json(400, { error: error.message, fields: error.fields }, PRIVATE_HEADERS);
  }
  if (error instanceof RefusedError) {
    logger.info('Correction refused', { ...logKeys, statusCode: 409 });
    return json(409, { error: error.message }, PRIVATE_HEADERS);
  }
  return undefined;
}

async function viewOrder({ event, deps, logKeys }: HttpRequest<OrderPageHandlerDeps>): Promise<HttpResult> {
  const token = event.queryStringParameters?.token ?? '';
  const standing = await openStandingOrderPage(token, deps);
  if (standing !== undefined) {
    logger.info('Standing order page shown', { ...logKeys, statusCode: 200, status: standing.status });
    return json(200, await readStandingOrderPageView(standing, deps), PRIVATE_HEADERS);
  }
  const page = await openOrderOrDebitPage(token, deps);
  if (page.kind === 'debit') {
    // The money is not in yet (or was refused): the link of the waiting email (ADR 0047).
    logger.info('Order page shown', {
      ...logKeys,
      statusCode: 200,
      reference: page.view.reference,
      status: page.view.status,
    });
    return json(200, page.view, PRIVATE_HEADERS);
  }
  const { order } = page;
  logger.info('Order page shown', { ...logKeys, statusCode: 200, reference: order.reference });
  return json(
    200,
    orderPageView(order, { now: deps.now(), cutoffHours: deps.cutoffHours, seller: deps.seller }),
    PRIVATE_HEADERS,
  );
}

// Loose: the other fields pass through to the domain, which refuses any the checkout would.
const withToken = z.looseObject({ token: z.string() });

async function correctAddress({
  event,
  deps,
  logKeys,
}: HttpRequest<OrderPageHandlerDeps>): Promise<HttpResult> {
  const body = readJsonBody(event, MAX_BODY_BYTES);
  const parsed = withToken.safeParse(body);
  if (!parsed.success) throw new OrderPageNotFoundError();
  // The token opens the order; the rest is the checkout's delivery fields, checked by the domain.
  const { token, ...details } = parsed.data;
  const view = await correctFromOrderPage(token, details, deps);
  logger.info('Order corrected by the customer', { ...logKeys, statusCode: 200, reference: view.reference });
  return json(200, view, PRIVATE_HEADERS);
}

/**
 * A standing order's change: the token opens it (the page's 404 for every refusal), checked against the
 * page's schema, made by the domain (409 when not allowed now). Answers the page.
 */
async function changeStandingOrder({
  event,
  deps,
  logKeys,
}: HttpRequest<OrderPageHandlerDeps>): Promise<HttpResult> {
  const parsed = standingOrderChangeSchema.safeParse(readJsonBody(event, MAX_BODY_BYTES));
  // A body that is not a change says nothing of the token: the one 404, as for a wrong token.
  if (!parsed.success) throw new OrderPageNotFoundError();
  const { token, ...change } = parsed.data;
  const record = await openStandingOrderPage(token, deps);
  if (record === undefined) throw new OrderPageNotFoundError();
  const changed = await changeFromPage(record, change, deps);
  logger.info('Standing order changed from its page', { ...logKeys, statusCode: 200, action: change.action });
  return json(200, await readStandingOrderPageView(changed, deps), PRIVATE_HEADERS);
}

/**
 * `GET /functions/v1/order-page?token=…`, `POST /functions/v1/order-page/address` and `POST
 * /functions/v1/order-page/standing-order`: the customer's own pages, public, throttled like checkout.
 */
export function createOrderPageHandler(
  deps: DepsOrLoader<OrderPageHandlerDeps>,
): (event: HttpEvent) => Promise<HttpResult> {
  // One load for every route: they share a cold start.
  const loaded = loadOnce(deps);
  const route = (
    at: Pick<PublicRoute, 'method' | 'path'>,
    handle: (request: HttpRequest<OrderPageHandlerDeps>) => Promise<HttpResult>,
  ) => [at, httpEndpoint({ route: at, deps: loaded, handle, mapError })] as const;
  return httpRoutes(
    [
      route(PUBLIC_API_ROUTES.orderPage, viewOrder),
      route(PUBLIC_API_ROUTES.orderPageAddress, correctAddress),
      route(PUBLIC_API_ROUTES.orderPageStandingOrder, changeStandingOrder),
    ],
    notFound(),
  );
}

/** The Lambda entry point. */
export const handler = createOrderPageHandler(() => loadOrderPageDeps(process.env));
