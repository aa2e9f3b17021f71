import type { IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import {
  internalError,
  invalidApiKey,
  invalidRequest,
  missingApiKey,
  StripeApiError,
  simulatedFailure,
  unrecognizedUrl,
} from './errors';
import type { FaultInjector } from './faults';
import { type FormObject, parseForm } from './form-body';
import type { IdempotencyStore, StoredResponse } from './idempotency';
import { newRequestId, nowSeconds } from './ids';
import {
  EXPAND_ONLY_PARAMS,
  PAGINATION_PARAMS,
  parseListSessionsParams,
  readPagination,
} from './list-params';
import { checkParams, ParamReader } from './params';
import { checkExpand, lineItemsJson, paginate, sessionJson } from './session-json';
import { parseCreateSessionParams } from './session-params';
import type { SessionStore } from './session-store';

export interface ApiContext {
  store: SessionStore;
  faults: FaultInjector;
  idempotency: IdempotencyStore;
  /** A delay the simulator can cut short when it closes. */
  sleep: (ms: number) => Promise<void>;
  log: (line: string) => void;
}

export interface ApiRequest {
  method: string;
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type RouteHandler = (context: ApiContext, params: FormObject, pathId: string) => unknown;

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle: RouteHandler;
}

const ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/v1\/checkout\/sessions$/, handle: createSession },
  { method: 'GET', pattern: /^\/v1\/checkout\/sessions$/, handle: listSessions },
  { method: 'GET', pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/, handle: retrieveSession },
  { method: 'GET', pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/, handle: listLineItems },
  { method: 'POST', pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, handle: expireSession },
];

/** Answers one `/v1/...` request: faults, then authentication, idempotency and the endpoint itself. */
export async function handleApiRequest(context: ApiContext, request: ApiRequest): Promise<ApiResponse> {
  const headers: Record<string, string> = {
    'Request-Id': newRequestId(),
    'Stripe-Version': headerValue(request.headers['stripe-version']) ?? Stripe.API_VERSION,
  };
  try {
    // An injected failure stands for trouble in front of the API, so it comes before everything else.
    const fault = context.faults.take(request.path);
    if (fault?.status !== undefined) {
      await context.sleep(fault.delayMs);
      throw simulatedFailure(fault.status);
    }
    authenticate(headerValue(request.headers.authorization));
    const params = request.method === 'POST' ? parsePostBody(request) : parseForm(request.query);
    const { route, pathId } = matchRoute(request.method, request.path);

    const key = request.method === 'POST' ? headerValue(request.headers['idempotency-key']) : undefined;
    if (key === undefined) {
      await context.sleep(fault?.delayMs ?? 0);
      return { status: 200, headers, body: toJson(route.handle(context, params, pathId)) };
    }
    headers['Idempotency-Key'] = key;
    const outcome = context.idempotency.begin(key, request.method, request.path, params);
    if (outcome.kind === 'refuse') throw outcome.error;
    if (outcome.kind === 'replay') {
      return { ...outcome.response, headers: { ...headers, 'Idempotent-Replayed': 'true' } };
    }
    try {
      // Slow, but holding the key: a retry arriving meanwhile gets Stripe's 409 "in progress".
      await context.sleep(fault?.delayMs ?? 0);
      const response: StoredResponse = { status: 200, body: toJson(route.handle(context, params, pathId)) };
      outcome.finish(response);
      return { ...response, headers };
    } catch (error) {
      outcome.abandon();
      throw error;
    }
  } catch (error) {
    if (error instanceof StripeApiError) return { status: error.status, headers, body: toJson(error) };
    context.log(`stripe simulator: unexpected error on ${request.method} ${request.path}: ${String(error)}`);
    const failure = internalError();
    return { status: failure.status, headers, body: toJson(failure) };
  }
}

function createSession(context: ApiContext, params: FormObject): unknown {
  const now = nowSeconds();
  const input = parseCreateSessionParams(params, now);
  checkExpand(input.expand, 'session');
  const record = context.store.create(input, now);
  return sessionJson(context.store, context.store.require(record.id), input.expand);
}

function listSessions(context: ApiContext, params: FormObject): unknown {
  const input = parseListSessionsParams(params);
  checkExpand(input.expand, 'session list');
  const sessions = context.store
    .list({ status: input.status, created: input.created })
    .map((entry) => sessionJson(context.store, entry, input.expand));
  return paginate(sessions, input.pagination, '/v1/checkout/sessions', 'checkout.session');
}

function retrieveSession(context: ApiContext, params: FormObject, id: string): unknown {
  const expand = readSessionExpand(params);
  return sessionJson(context.store, context.store.require(id), expand);
}

function listLineItems(context: ApiContext, params: FormObject, id: string): unknown {
  checkParams(params, PAGINATION_PARAMS);
  const reader = new ParamReader(params);
  const expand = reader.strings('expand');
  checkExpand(expand, 'line item list');
  const { record } = context.store.require(id);
  const items = lineItemsJson(context.store, record.line_items.data, expand.includes('data.price.product'));
  return paginate(items, readPagination(reader), record.line_items.url, 'line_item');
}

function expireSession(context: ApiContext, params: FormObject, id: string): unknown {
  const expand = readSessionExpand(params);
  return sessionJson(context.store, context.store.expireByApi(id), expand);
}

/** The one parameter of the endpoints that answer a single session: `expand`, checked. */
function readSessionExpand(params: FormObject): string[] {
  checkParams(params, EXPAND_ONLY_PARAMS);
  const expand = new ParamReader(params).strings('expand');
  checkExpand(expand, 'session');
  return expand;
}

function matchRoute(method: string, path: string): { route: Route; pathId: string } {
  for (const route of ROUTES) {
    const match = route.method === method ? route.pattern.exec(path) : null;
    if (match !== null) return { route, pathId: decodePathSegment(match[1] ?? '') };
  }
  throw unrecognizedUrl(method, path);
}

export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Test-mode secret or restricted keys only, as Bearer (the SDK) or Basic (`curl -u sk_test_…:`). */
function authenticate(authorization: string | undefined): void {
  if (authorization === undefined) throw missingApiKey();
  const [scheme = '', credentials = ''] = authorization.trim().split(/\s+/, 2);
  let key = '';
  if (scheme.toLowerCase() === 'bearer') key = credentials;
  if (scheme.toLowerCase() === 'basic')
    key = Buffer.from(credentials, 'base64').toString('utf8').split(':')[0] ?? '';
  if (key === '') throw missingApiKey();
  if (!/^(sk|rk)_test_\w+$/.test(key)) throw invalidApiKey(key);
}

function parsePostBody(request: ApiRequest): FormObject {
  const contentType = headerValue(request.headers['content-type']) ?? '';
  if (request.body !== '' && !contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw invalidRequest(
      `Invalid request: unsupported Content-Type ${contentType}. If error persists and you need assistance, please contact support@stripe.com.`,
    );
  }
  return parseForm(request.body);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

// Pretty-printed like Stripe's own answers.
function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
