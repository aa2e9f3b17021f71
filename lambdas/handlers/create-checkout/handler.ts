import type Stripe from 'stripe';
import {
  type CheckoutRequest,
  checkoutRequestSchema,
  describeIssues,
  FIELD_MESSAGES,
} from '../../../shared/checkout-request';
import { DISPATCH_WINDOW_WEEKS } from '../../../shared/dispatch';
import { penceToPounds } from '../../../shared/pricing';
import { IDEMPOTENCY_HEADER, PUBLIC_API_ROUTES } from '../../../shared/public-routes';
import { SettingsChangedError } from '../../domain/capacity/checkout-hold';
import {
  CLIENT_HOLD_LIMIT,
  type HoldingClient,
  TooManyOpenHoldsError,
} from '../../domain/capacity/client-holds';
import { CapacityFullError } from '../../domain/capacity/holds';
import {
  CheckoutConflictError,
  CheckoutExpiredError,
  type CreateCheckoutSessionDeps,
  type CreatedCheckoutSession,
  CustomerEmailRejectedError,
  createCheckoutSession,
  QuoteMismatchError,
  withdrawCheckoutSession,
} from '../../domain/checkout/create-checkout-session';
import { StandingOrderDayFullError } from '../../domain/standing-deliveries/standing-room';
import { STANDING_ORDER_IN_REQUESTS_MODE } from '../../domain/standing-deliveries/subscription-session';
import { type CheckoutSettings, OPEN_SHOP, type ShopSettings } from '../../domain/storage/shop-settings';
import { checkoutRuntimeEnvSchema, type Env, parseEnv } from '../../lib/config';
import { DependenciesUnavailableError } from '../../lib/error-response';
import {
  HttpError,
  type HttpEvent,
  type HttpResult,
  header,
  idempotencyKeyOf,
  json,
  readJsonBody,
  VIEWER_ADDRESS_HEADER,
  viewerAddress,
  viewerAddressIn,
} from '../../lib/http';
import { type DepsOrLoader, type HttpRequest, httpEndpoint, type LogKeys } from '../../lib/http-handler';
import { logger } from '../../lib/logger';
import { loadStripeClient } from '../../lib/stripe';
import { PaymentProviderError } from '../../lib/stripe-errors';
import { type CheckoutGateDeps, createCheckoutGate, DEFAULT_PAUSED_MESSAGE } from './checkout-gate';

/** A checkout body is a few hundred bytes; anything near this limit is not a real order. */
export const MAX_BODY_BYTES = 8 * 1024;

/** The page sends a UUID; any similar opaque token is fine, nothing that could smuggle text. */
const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,255}$/;

export const CHECKOUT_ERRORS = {
  quoteMismatch: 'The order total has changed. Please check the new total and try again.',
  soldOut: `Sorry, every dispatch day in the next ${DISPATCH_WINDOW_WEEKS} weeks is fully booked. Please try again in a few days.`,
  conflict: 'This checkout was already started with different details. Please try again.',
  expired: 'This checkout has expired. Please try again.',
  tooManyOpen: `You already have ${CLIENT_HOLD_LIMIT} checkouts waiting for payment. Please pay for one of them, or try again in 45 minutes.`,
  modeChanged: 'The shop has just changed how it takes orders. Please reload the page and try again.',
  idempotencyKey: `The ${IDEMPOTENCY_HEADER} header must be 8 to 255 letters, digits, "-" or "_".`,
  unauthorised: 'Missing or wrong API key.',
  method: 'Use POST.',
} as const;

export interface CheckoutHandlerDeps {
  stripe: Stripe;
  siteUrl: string;
  cutoffHours: number;
  /** SHOP_ID: this deployment's marker on the sessions it creates. */
  shopId: string;
  /** The page's public bearer: when set, other bearers are refused. It filters noise, secures nothing. */
  publicApiKey: string | undefined;
  now?: () => Date;
  /** The shop's settings and order requests; absent only in tests of the paid path, where the shop is open. */
  shop?: CheckoutGateDeps | undefined;
}

/** Builds the clients and settings from the environment: once per cold start (see `handler`). */
export async function loadCheckoutDeps(env: Env): Promise<CheckoutHandlerDeps> {
  const config = parseEnv(checkoutRuntimeEnvSchema, env);
  return {
    stripe: await loadStripeClient(config),
    siteUrl: config.SITE_URL,
    cutoffHours: config.DISPATCH_CUTOFF_HOURS,
    shopId: config.SHOP_ID,
    publicApiKey: config.PUBLIC_API_KEY,
    shop: createCheckoutGate(config),
  };
}

/**
 * `POST /functions/v1/create-checkout`. A failed deps load answers 503 and is retried; 429 never comes from
 * here: API Gateway's route throttling answers it first.
 */
export function createCheckoutHandler(deps: DepsOrLoader<CheckoutHandlerDeps>) {
  return httpEndpoint({
    route: PUBLIC_API_ROUTES.createCheckout,
    deps,
    handle: createCheckout,
    mapError: checkoutErrorResponse,
  });
}

async function createCheckout({
  event,
  deps,
  logKeys,
}: HttpRequest<CheckoutHandlerDeps>): Promise<HttpResult> {
  checkPublicKey(event, deps.publicApiKey);
  // Paused: refused before the body is even read, with the merchant's message for the page.
  let settings = await shopSettings(deps, (current) => current.cached());
  refuseWhilePaused(settings);
  // Optional: without it each request creates a new session.
  const idempotencyKey = idempotencyKeyOf(event, IDEMPOTENCY_KEY_PATTERN, CHECKOUT_ERRORS.idempotencyKey);
  const parsed = checkoutRequestSchema.safeParse(readJsonBody(event, MAX_BODY_BYTES));
  if (!parsed.success) {
    const { fields, message } = describeIssues(parsed.error);
    throw new HttpError(400, { error: message, fields });
  }
  // A request is recorded on settings read afresh; a checkout on the cached copy, which its
  // reservation's transaction checks (a stale copy is read afresh and the checkout tried again).
  if (settings.mode !== 'open') settings = await shopSettings(deps, (current) => current.confirmed());
  for (let tries = 1; ; tries += 1) {
    refuseWhilePaused(settings);
    if (settings.mode === 'requests' && deps.shop) {
      if (parsed.data.repeat) throw new HttpError(409, { error: STANDING_ORDER_IN_REQUESTS_MODE });
      return recordRequest(event, parsed.data, { deps, idempotencyKey, settings, logKeys });
    }
    try {
      return await checkout(event, parsed.data, { deps, idempotencyKey, settings, logKeys });
    } catch (error) {
      if (!(error instanceof SettingsChangedError) || tries >= 2) throw error;
      settings = await shopSettings(deps, (current) => current.confirmed());
    }
  }
}

interface CheckoutContext {
  deps: CheckoutHandlerDeps;
  idempotencyKey: string | undefined;
  settings: ShopSettings;
  logKeys: LogKeys;
}

/** Requests mode: validated exactly as a paid checkout; the totals are checked against the quote too. */
async function recordRequest(
  event: HttpEvent,
  input: CheckoutRequest,
  { deps, idempotencyKey, settings, logKeys }: CheckoutContext,
): Promise<HttpResult> {
  if (!deps.shop) throw new Error('Requests mode without the shop');
  const request = await deps.shop.recordRequest(input, {
    idempotencyKey,
    cutoffHours: deps.cutoffHours,
    client: viewerAddress(event),
    viewer: holdingClient(event, input.email).viewer,
    capacity: settings.capacity,
  });
  logger.info('Order request recorded', {
    ...logKeys,
    statusCode: 200,
    reference: request.reference,
    created: request.created,
    quantity: input.quantity,
    notice: request.notice,
  });
  return json(200, { status: 'received', reference: request.reference });
}

/** The paid checkout: the bottles held, the session made, and recorded while the shop is open. */
async function checkout(
  event: HttpEvent,
  input: CheckoutRequest,
  { deps, idempotencyKey, settings, logKeys }: CheckoutContext,
): Promise<HttpResult> {
  const capacity = deps.shop && {
    store: deps.shop.capacity,
    writes: deps.shop.checkouts,
    settings,
    clients: { items: deps.shop.clientHolds, client: holdingClient(event, input.email) },
  };
  const session = await createCheckoutSession(input, {
    stripe: deps.stripe,
    siteUrl: deps.siteUrl,
    now: (deps.now ?? (() => new Date()))(),
    cutoffHours: deps.cutoffHours,
    shopId: deps.shopId,
    idempotencyKey,
    capacity,
  });
  await recordOrWithdraw(deps, session, capacity, logKeys);
  logger.info('Checkout Session created', {
    ...logKeys,
    statusCode: 200,
    sessionId: session.sessionId,
    clientReferenceId: session.clientReferenceId,
    quantity: input.quantity,
    dispatchDate: session.dispatchDate,
    capacityHold: session.capacityHold,
    idempotent: idempotencyKey !== undefined,
  });
  return json(200, { url: session.url, sessionId: session.sessionId });
}

/**
 * Holds count against the email and CloudFront's viewer address (every deployed request has it, ADR 0032);
 * API Gateway's source IP is CloudFront's edge, or locally one address for everyone.
 */
function holdingClient(event: HttpEvent, email: string): HoldingClient {
  return { email, viewer: viewerAddressIn(header(event, VIEWER_ADDRESS_HEADER)) };
}

/** 503 with the merchant's message while the shop is paused. */
function refuseWhilePaused(settings: ShopSettings): void {
  if (settings.mode === 'paused') {
    throw new HttpError(503, { error: settings.message ?? DEFAULT_PAUSED_MESSAGE, shop: 'paused' });
  }
}

/**
 * A pause's sweep may have listed open sessions before Stripe made this one, so the session is recorded in a
 * transaction holding only while the shop is open; otherwise it is expired here, its hold given back, and the
 * customer refused. Unlike a second sweep, this closes every such session however long Stripe took.
 */
async function recordOrWithdraw(
  deps: CheckoutHandlerDeps,
  session: CreatedCheckoutSession,
  capacity: CreateCheckoutSessionDeps['capacity'],
  logKeys: LogKeys,
): Promise<void> {
  if (!deps.shop) return;
  const shop = deps.shop;
  let unreadable: unknown;
  const recorded = await shop.checkouts.recordSession(session).catch((cause: unknown) => {
    unreadable = cause;
    return undefined;
  });
  if (recorded) return;
  // Unrecorded is not open: a paused shop must never sell by accident.
  const settings =
    recorded === false
      ? await shop.settings.confirmed().catch((cause: unknown) => {
          unreadable = cause;
          return undefined;
        })
      : undefined;
  // Paused and opened again since: the session stands.
  if (settings?.mode === 'open') return;
  await withdrawCheckoutSession(session, { stripe: deps.stripe, capacity });
  logger.warn('The shop paused while its session was made: session expired', {
    ...logKeys,
    statusCode: 503,
    sessionId: session.sessionId,
    mode: settings?.mode,
  });
  if (settings === undefined) throw new DependenciesUnavailableError({ cause: unreadable });
  throw new HttpError(503, {
    error:
      settings.mode === 'paused' ? (settings.message ?? DEFAULT_PAUSED_MESSAGE) : CHECKOUT_ERRORS.modeChanged,
    shop: settings.mode,
  });
}

/** The settings, or a 503 when they cannot be read: a paused shop must never sell by accident. */
async function shopSettings(
  deps: CheckoutHandlerDeps,
  read: (settings: CheckoutSettings) => Promise<ShopSettings>,
): Promise<ShopSettings> {
  if (!deps.shop) return OPEN_SHOP;
  return read(deps.shop.settings).catch((cause: unknown) => {
    throw new DependenciesUnavailableError({ cause });
  });
}

/** This endpoint's own errors; the rest fall through to the shared mapping. */
function checkoutErrorResponse(error: unknown, logKeys: LogKeys): HttpResult | undefined {
  /** A refusal the customer can act on: logged as a warning with its status, answered with one message. */
  const refuse = (statusCode: number, log: string, message: string, detail?: Record<string, unknown>) => {
    logger.warn(log, { ...logKeys, statusCode, ...detail });
    return json(statusCode, { error: message });
  };
  if (error instanceof QuoteMismatchError) {
    logger.info('Totals do not match the quote', { ...logKeys, statusCode: 409 });
    const { subtotalPence, shippingPence, totalPence } = error.quote;
    return json(409, {
      error: CHECKOUT_ERRORS.quoteMismatch,
      quote: {
        subtotal: penceToPounds(subtotalPence),
        shipping: penceToPounds(shippingPence),
        total: penceToPounds(totalPence),
      },
    });
  }
  if (error instanceof CustomerEmailRejectedError) {
    // The Stripe summary (type, code, param: no value) says why; the address stays out of the log.
    const stripe = error.cause instanceof PaymentProviderError ? error.cause.summary : undefined;
    logger.info('Stripe refused the customer email', { ...logKeys, statusCode: 400, stripe });
    return json(400, {
      error: FIELD_MESSAGES.emailRefused,
      fields: { email: FIELD_MESSAGES.emailRefused },
    });
  }
  if (error instanceof CapacityFullError) {
    return refuse(409, 'No dispatch day has room for the order', CHECKOUT_ERRORS.soldOut, {
      from: error.from,
    });
  }
  if (error instanceof StandingOrderDayFullError) {
    return refuse(409, 'A coming day has no room for the standing order', error.customerMessage, {
      day: error.day,
    });
  }
  if (error instanceof TooManyOpenHoldsError) {
    return refuse(409, 'Client already holds its limit of open checkouts', CHECKOUT_ERRORS.tooManyOpen);
  }
  if (error instanceof CheckoutExpiredError) {
    return refuse(409, 'Idempotency key reused after its session expired', CHECKOUT_ERRORS.expired, {
      sessionId: error.sessionId,
    });
  }
  if (error instanceof SettingsChangedError) {
    return refuse(503, 'The shop settings changed twice during the checkout', CHECKOUT_ERRORS.modeChanged);
  }
  if (error instanceof CheckoutConflictError) {
    return refuse(409, 'Idempotency key reused with different details', CHECKOUT_ERRORS.conflict);
  }
  return undefined;
}

function checkPublicKey(event: HttpEvent, publicApiKey: string | undefined): void {
  if (publicApiKey === undefined) return;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(event, 'authorization') ?? '');
  if (match?.[1] !== publicApiKey) throw new HttpError(401, { error: CHECKOUT_ERRORS.unauthorised });
}

/** The Lambda entry point: dependencies built once per cold start from the environment. */
export const handler = createCheckoutHandler(() => loadCheckoutDeps(process.env));
