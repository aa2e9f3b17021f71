import type { IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import type { ApiContext, ApiRoute, RouteHandler } from './api-types';
import { BILLING_ROUTES } from './billing-api';
import {
  internalError,
  invalidApiKey,
  invalidRequest,
  missingApiKey,
  resourceMissing,
  StripeApiError,
  simulatedFailure,
  unrecognizedUrl,
} from './errors';
import type { Fault } from './faults';
import { type FormObject, parseForm } from './form-body';
import type { StoredResponse } from './idempotency';
import { newId } from './ids';
import { buildAccount, buildList, buildSession } from './objects';
import {
  createRefundSchema,
  createSessionSchema,
  createWebhookEndpointSchema,
  listSessionsSchema,
  listWebhookEndpointsSchema,
  parseParams,
  retrieveSchema,
  SESSION_EXPANSIONS,
  sessionInput,
  updateWebhookEndpointSchema,
} from './params';
import { ACCOUNT_ID, requirePermission, type StripePermission } from './permissions';
import { type StoredSession, withoutLineItems } from './store';
import {
  createSubscriptionSessionSchema,
  refuseOneOffParamsInSubscriptionMode,
  subscriptionSessionInput,
} from './subscription-params';

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

const ROUTES: ApiRoute[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/checkout\/sessions$/,
    permission: 'checkout_session_write',
    handle: createSession,
  },
  {
    method: 'GET',
    pattern: /^\/v1\/checkout\/sessions$/,
    permission: 'checkout_session_read',
    handle: listSessions,
  },
  {
    method: 'GET',
    pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/,
    permission: 'checkout_session_read',
    handle: retrieveSession,
  },
  {
    method: 'POST',
    pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
    permission: 'checkout_session_write',
    handle: expireSession,
  },
  {
    method: 'GET',
    pattern: /^\/v1\/payment_intents\/([^/]+)$/,
    permission: 'payment_intent_read',
    handle: retrievePaymentIntent,
  },
  { method: 'GET', pattern: /^\/v1\/charges\/([^/]+)$/, permission: 'charge_read', handle: retrieveCharge },
  { method: 'POST', pattern: /^\/v1\/refunds$/, permission: 'refund_write', handle: createRefund },
  { method: 'GET', pattern: /^\/v1\/refunds\/([^/]+)$/, permission: 'refund_read', handle: retrieveRefund },
  {
    method: 'POST',
    pattern: /^\/v1\/webhook_endpoints$/,
    permission: 'webhook_endpoint_write',
    handle: createWebhookEndpoint,
  },
  {
    method: 'GET',
    pattern: /^\/v1\/webhook_endpoints$/,
    permission: 'webhook_endpoint_read',
    handle: listWebhookEndpoints,
  },
  {
    method: 'GET',
    pattern: /^\/v1\/webhook_endpoints\/([^/]+)$/,
    permission: 'webhook_endpoint_read',
    handle: (context, form, id) => {
      parseParams(retrieveSchema([]), form);
      return context.webhookEndpoints.retrieve(id);
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/webhook_endpoints\/([^/]+)$/,
    permission: 'webhook_endpoint_write',
    handle: (context, form, id) =>
      context.webhookEndpoints.update(id, parseParams(updateWebhookEndpointSchema, form)),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/account$/,
    permission: 'account_read',
    handle: (context, form) => {
      parseParams(retrieveSchema([]), form);
      return buildAccount(ACCOUNT_ID, context.account.capabilities, context.clock.nowSeconds());
    },
  },
  {
    method: 'DELETE',
    pattern: /^\/v1\/webhook_endpoints\/([^/]+)$/,
    permission: 'webhook_endpoint_write',
    handle: (context, _form, id) => context.webhookEndpoints.delete(id),
  },
  ...BILLING_ROUTES,
];

/** Keeps a request that took a fault waiting: its delay, then the test's hold. */
async function holdRequest(context: ApiContext, fault: Fault | undefined): Promise<void> {
  await context.sleep(fault?.delayMs ?? 0);
  await fault?.hold?.();
}

/** Answers one `/v1/...` request: faults, then authentication, idempotency and the endpoint itself. */
export async function handleApiRequest(context: ApiContext, request: ApiRequest): Promise<ApiResponse> {
  const headers: Record<string, string> = {
    'Request-Id': newId.request(),
    'Stripe-Version': headerValue(request.headers['stripe-version']) ?? Stripe.API_VERSION,
  };
  try {
    const fault = context.faults.take(request.path);
    // A failure in front of the API comes before everything else.
    if (fault?.status !== undefined && !fault.storedForKey) {
      await holdRequest(context, fault);
      throw simulatedFailure(fault.status);
    }
    const apiKey = authenticate(headerValue(request.headers.authorization));
    const params = request.method === 'POST' ? parsePostBody(request) : parseForm(request.query);
    const { handle, pathId, permission } = matchRoute(request.method, request.path);
    requirePermission(context.restrictedKeys, apiKey, permission);
    const run = async (): Promise<StoredResponse> => {
      await holdRequest(context, fault);
      if (fault?.status !== undefined) throw simulatedFailure(fault.status);
      return { status: 200, body: toJson(await handle(context, params, pathId)) };
    };

    const key = request.method === 'POST' ? headerValue(request.headers['idempotency-key']) : undefined;
    if (key === undefined) return { ...(await run()), headers };
    headers['Idempotency-Key'] = key;
    const outcome = context.idempotency.begin(
      key,
      request.method,
      request.path,
      params,
      context.clock.nowMs(),
    );
    if (outcome.kind === 'refuse') throw outcome.error;
    if (outcome.kind === 'replay') {
      return { ...outcome.response, headers: { ...headers, 'Idempotent-Replayed': 'true' } };
    }
    // While this runs the key is held: a retry arriving meanwhile gets Stripe's 409 "in progress".
    let response: StoredResponse;
    try {
      response = await run();
    } catch (error) {
      // The endpoint started its work, so Stripe keeps a 500 for the key; a refusal keeps nothing.
      if (!(error instanceof StripeApiError && error.status >= 500)) {
        outcome.abandon();
        throw error;
      }
      response = { status: error.status, body: toJson(error) };
    }
    outcome.finish(response);
    return { ...response, headers };
  } catch (error) {
    if (error instanceof StripeApiError) return { status: error.status, headers, body: toJson(error) };
    context.log(`stripe simulator: unexpected error on ${request.method} ${request.path}: ${String(error)}`);
    const failure = internalError();
    return { status: failure.status, headers, body: toJson(failure) };
  }
}

function createSession(context: ApiContext, form: FormObject): Stripe.Checkout.Session {
  if (form.mode === 'subscription') return createSubscriptionSession(context, form);
  const now = context.clock.nowSeconds();
  const params = parseParams(createSessionSchema, form);
  const built = buildSession(sessionInput(params, now), now, context.payPageUrl);
  const entry = context.store.addSession(built, {
    metadata: params.payment_intent_data?.metadata ?? {},
    description: params.payment_intent_data?.description ?? null,
  });
  return sessionView(context, entry, params.expand);
}

/** `mode=subscription`: recurring lines, card only, `subscription_data` for the subscription it makes. */
function createSubscriptionSession(context: ApiContext, form: FormObject): Stripe.Checkout.Session {
  refuseOneOffParamsInSubscriptionMode(form);
  const now = context.clock.nowSeconds();
  const params = parseParams(createSubscriptionSessionSchema, form);
  const { input, subscriptionData } = subscriptionSessionInput(params, now);
  const built = buildSession(input, now, context.payPageUrl);
  const entry = context.store.addSession(built, { metadata: {}, description: null }, subscriptionData);
  return sessionView(context, entry, params.expand);
}

function listSessions(context: ApiContext, form: FormObject): Stripe.ApiList<Stripe.Checkout.Session> {
  const {
    status,
    payment_intent: paymentIntent,
    created,
    limit = 10,
    starting_after: cursorId,
    expand,
  } = parseParams(listSessionsSchema, form);
  let sessions = context.store.listSessions({ status, created, paymentIntent });
  if (cursorId !== undefined) {
    // The page after the cursor in newest-first order, even if the cursor itself no longer matches.
    const cursor = context.store.findSession(cursorId);
    if (cursor === undefined) throw resourceMissing('checkout.session', cursorId, 'starting_after', 400);
    const { created: at } = cursor.session;
    sessions = sessions.filter(
      ({ session, seq }) => session.created < at || (session.created === at && seq < cursor.seq),
    );
  }
  const page = sessions.slice(0, limit).map((entry) => sessionView(context, entry, expand));
  return buildList(page, sessions.length > limit, '/v1/checkout/sessions');
}

function retrieveSession(context: ApiContext, form: FormObject, id: string): Stripe.Checkout.Session {
  const { expand } = parseParams(retrieveSchema(SESSION_EXPANSIONS), form);
  return sessionView(context, context.store.requireSession(id), expand);
}

function expireSession(context: ApiContext, form: FormObject, id: string): Stripe.Checkout.Session {
  const { expand } = parseParams(retrieveSchema(SESSION_EXPANSIONS), form);
  return sessionView(context, context.store.expireByApi(id), expand);
}

function retrievePaymentIntent(context: ApiContext, form: FormObject, id: string): Stripe.PaymentIntent {
  const { expand } = parseParams(retrieveSchema(['latest_charge']), form);
  return paymentIntentView(context, context.store.requireIntent(id), expand.includes('latest_charge'));
}

function retrieveCharge(context: ApiContext, form: FormObject, id: string): Stripe.Charge {
  parseParams(retrieveSchema([]), form);
  return context.store.requireCharge(id);
}

function createRefund(context: ApiContext, form: FormObject): Stripe.Refund {
  const {
    payment_intent: paymentIntent,
    charge,
    amount,
    reason,
    metadata,
    expand,
  } = parseParams(createRefundSchema, form);
  const { refund } = context.store.refund({ paymentIntent, charge, amount, reason, metadata });
  return refundView(context, refund, expand);
}

function createWebhookEndpoint(context: ApiContext, form: FormObject): Stripe.WebhookEndpoint {
  const { expand: _expand, ...fields } = parseParams(createWebhookEndpointSchema, form);
  return context.webhookEndpoints.create(fields, context.clock.nowSeconds());
}

function listWebhookEndpoints(context: ApiContext, form: FormObject): Stripe.ApiList<Stripe.WebhookEndpoint> {
  const { limit = 10, starting_after: cursorId } = parseParams(listWebhookEndpointsSchema, form);
  let endpoints = context.webhookEndpoints.list();
  if (cursorId !== undefined) {
    const at = endpoints.findIndex(({ id }) => id === cursorId);
    if (at === -1) throw resourceMissing('webhook_endpoint', cursorId, 'starting_after', 400);
    endpoints = endpoints.slice(at + 1);
  }
  return buildList(endpoints.slice(0, limit), endpoints.length > limit, '/v1/webhook_endpoints');
}

function retrieveRefund(context: ApiContext, form: FormObject, id: string): Stripe.Refund {
  const { expand } = parseParams(retrieveSchema(['charge', 'payment_intent']), form);
  return refundView(context, context.store.requireRefund(id), expand);
}

/** A session as the API answers it: `line_items` and `payment_intent` only as far as `expand` asks. */
function sessionView(context: ApiContext, entry: StoredSession, expand: string[]): Stripe.Checkout.Session {
  const paths = new Set(expand.map((path) => path.replace(/^data\./, '')));
  const view = withoutLineItems(entry);
  const withProduct = paths.has('line_items.data.price.product');
  if (paths.has('line_items') || withProduct) {
    const { line_items: lineItems } = entry.session;
    view.line_items = {
      ...lineItems,
      data: lineItems.data.map((item) => {
        const { product } = item.price;
        const expanded = typeof product === 'string' ? context.store.product(product) : undefined;
        return withProduct && expanded ? { ...item, price: { ...item.price, product: expanded } } : item;
      }),
    };
  }
  const withCharge = paths.has('payment_intent.latest_charge');
  if ((paths.has('payment_intent') || withCharge) && typeof view.payment_intent === 'string') {
    view.payment_intent = paymentIntentView(
      context,
      context.store.requireIntent(view.payment_intent),
      withCharge,
    );
  }
  return view;
}

function paymentIntentView(
  context: ApiContext,
  intent: Stripe.PaymentIntent,
  withCharge: boolean,
): Stripe.PaymentIntent {
  const { latest_charge: charge } = intent;
  if (!withCharge || typeof charge !== 'string') return intent;
  return { ...intent, latest_charge: context.store.charge(charge) ?? charge };
}

function refundView(context: ApiContext, refund: Stripe.Refund, expand: string[]): Stripe.Refund {
  const { charge, payment_intent: intent } = refund;
  return {
    ...refund,
    charge:
      expand.includes('charge') && typeof charge === 'string' ? context.store.requireCharge(charge) : charge,
    payment_intent:
      expand.includes('payment_intent') && typeof intent === 'string'
        ? context.store.requireIntent(intent)
        : intent,
  };
}

function matchRoute(
  method: string,
  path: string,
): { handle: RouteHandler; pathId: string; permission: StripePermission } {
  for (const route of ROUTES) {
    const match = route.method === method ? route.pattern.exec(path) : null;
    if (match !== null)
      return {
        handle: route.handle,
        pathId: decodePathSegment(match[1] ?? ''),
        permission: route.permission,
      };
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

/** Test-mode secret or restricted keys only, sent as the SDK sends them: `Authorization: Bearer <key>`. */
function authenticate(authorization: string | undefined): string {
  const key = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
  if (key === undefined) throw missingApiKey();
  if (!/^(sk|rk)_test_\w+$/.test(key)) throw invalidApiKey(key);
  return key;
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
