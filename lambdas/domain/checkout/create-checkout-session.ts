import { createHash, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { CheckoutRequest } from '../../../shared/checkout-request';
import {
  DIRECT_DEBIT_WORKING_DAYS,
  debitDispatchDate,
  formatDispatchDate,
  type IsoDate,
  nextDispatchDate,
} from '../../../shared/dispatch';
import { NO_CANCELLATION_STATEMENT } from '../../../shared/live-animals';
import { poundsToPence, type Quote, quoteOrder } from '../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME } from '../../../shared/product';
import { logger } from '../../lib/logger';
import { isIdempotencyMismatch, PaymentProviderError, toPaymentProviderError } from '../../lib/stripe-errors';
import { holdCheckoutBottles } from '../capacity/checkout-hold';
import type { HoldingClient } from '../capacity/client-holds';
import { checkoutReservationId, holdId, type Reservation, releaseHold } from '../capacity/holds';
import { CAPACITY_HOLD_KEY } from '../capacity/session-reservation';
import { assertStandingRoom } from '../standing-deliveries/standing-room';
import { withStandingOrder } from '../standing-deliveries/subscription-session';
import type { CapacityStore } from '../storage/capacity-store';
import type { ClientHoldItems } from '../storage/capacity-table';
import type { CheckoutStore } from '../storage/checkout-store';
import type { ShopSettings } from '../storage/shop-settings';
import { orderMetadata } from './order-metadata';

/**
 * Time-dependent parameters (`expires_at`, the dispatch date) come from a fixed 10-minute window's start, not
 * the request's instant: Stripe refuses a reused idempotency key with different parameters, so a double-click
 * or a retry must send the same ones. A retry crossing into the next window is refused once, then repeated
 * with the previous window's parameters, and Stripe answers its session. Whole-hour cut-offs stay exact.
 */
export const SESSION_WINDOW_MS = 10 * 60_000;
/**
 * `expires_at` is 31 to 41 minutes ahead whenever in the window a request comes (Stripe's minimum is 30, and
 * a request takes a moment to reach it); short, as the session holds its bottles until it expires (ADR 0023).
 */
export const SESSION_EXPIRY_AFTER_WINDOW_START_MS = 41 * 60_000;

/** The sent subtotal, shipping or total differ from the server's price. */
export class QuoteMismatchError extends Error {
  constructor(readonly quote: Quote) {
    super('The totals sent do not match the server quote');
    this.name = 'QuoteMismatchError';
  }
}

/** The idempotency key was first used for a checkout with other details (Stripe's idempotency_error). */
export class CheckoutConflictError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The idempotency key was already used with different checkout details', options);
    this.name = 'CheckoutConflictError';
  }
}

/**
 * The key's session has expired (Stripe replays a key's first answer for 24 hours, dead session included):
 * nothing is held; the page makes a new key per click, so the next try makes a new session.
 */
export class CheckoutExpiredError extends Error {
  constructor(readonly sessionId: string) {
    super(`The idempotency key belongs to session ${sessionId}, which has expired`);
    this.name = 'CheckoutExpiredError';
  }
}

/**
 * Stripe refused the customer's email (`invalid_request_error` on `customer_email`): their field's error, not
 * a "try again" that would send the same address for ever.
 */
export class CustomerEmailRejectedError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('Stripe refused the customer email address', options);
    this.name = 'CustomerEmailRejectedError';
  }
}

/** A Stripe error as this function reports it: the customer's email refused, or PaymentProviderError. */
function toCheckoutError(error: unknown): unknown {
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.param === 'customer_email') {
    return new CustomerEmailRejectedError({ cause: toPaymentProviderError(error) });
  }
  return toPaymentProviderError(error);
}

export interface CreateCheckoutSessionDeps {
  stripe: Stripe;
  /** Public origin of the site, without a trailing slash: the only source of success/cancel URLs. */
  siteUrl: string;
  now: Date;
  /** See `DispatchOptions.cutoffHours`. */
  cutoffHours: number;
  /** SHOP_ID: this deployment's marker in the session's metadata. */
  shopId: string;
  /** The page's per-attempt key (already validated); absent means every request makes a new session. */
  idempotencyKey?: string | undefined;
  /** The bottles are reserved here before Stripe is asked; absent only in tests of the session alone. */
  capacity?:
    | {
        store: CapacityStore;
        /** The reservation's transaction (checkout-hold.ts). */
        writes: CheckoutStore;
        /** The settings acted on (cached): the reservation is made only while they still hold. */
        settings: ShopSettings;
        /** Who asks, and their open holds: a client may hold only CLIENT_HOLD_LIMIT at once. */
        clients?: { items: ClientHoldItems; client: HoldingClient } | undefined;
      }
    | undefined;
}

export interface CreatedCheckoutSession {
  url: string;
  sessionId: string;
  clientReferenceId: string;
  dispatchDate: IsoDate;
  /** The session's hold on its dispatch day's bottles, when capacity is counted. */
  capacityHold?: string | undefined;
  /** The session's `expires_at` (epoch seconds). */
  expiresAt: number;
}

/**
 * Creates the hosted Stripe Checkout Session for a validated order, priced by the server alone (the browser's
 * totals are only compared with `quoteOrder`); the order exists only once the webhook sees it paid. First it
 * reserves the bottles and the client's hold in one transaction, conditional on the settings read
 * (holdCheckoutBottles), on the first dispatch day with room. The hold id comes from the page's key and the
 * window, so a retry finds its hold instead of taking more. If Stripe fails the hold is released at once,
 * unless Stripe says another request with the same key is still making the session (which uses it).
 * @throws CapacityFullError when no dispatch day within 8 weeks has room (nothing sent to Stripe).
 * @throws StandingOrderDayFullError when a standing order's coming day lacks room (nothing held).
 * @throws SettingsChangedError when the settings changed since they were read (nothing held).
 * @throws TooManyOpenHoldsError when the client already holds its limit of open checkouts (nothing held).
 * @throws QuoteMismatchError when the sent totals differ from the quote (nothing is sent to Stripe).
 * @throws CheckoutConflictError when the idempotency key was used for different details.
 * @throws CheckoutExpiredError when the idempotency key's session has expired (nothing held).
 * @throws CustomerEmailRejectedError when Stripe refuses the customer's email address.
 * @throws PaymentProviderError when Stripe fails, times out or answers without a payment page URL.
 */
export async function createCheckoutSession(
  input: CheckoutRequest,
  deps: CreateCheckoutSessionDeps,
): Promise<CreatedCheckoutSession> {
  const quote = checkedQuote(input);

  const stripeKey = deps.idempotencyKey === undefined ? undefined : stripeIdempotencyKey(deps.idempotencyKey);
  // With a key the reference and the hold are derived from it, so a retry sends the same parameters;
  // without one every request is a new checkout and gets fresh ones.
  const token = stripeKey?.hash ?? randomUUID().replaceAll('-', '');
  const clientReferenceId = `ord_${token.slice(0, 24)}`;
  const reservationToken = token.slice(0, 20);
  const windowStart = Math.floor(deps.now.getTime() / SESSION_WINDOW_MS) * SESSION_WINDOW_MS;

  const attempt = async (start: number): Promise<CreatedCheckoutSession> => {
    const { firstDay, debitDay } = windowDispatchDays(start, deps.cutoffHours);
    const expiresAt = Math.floor((start + SESSION_EXPIRY_AFTER_WINDOW_START_MS) / 1000);
    const hold = holdId(checkoutReservationId(reservationToken, expiresAt), quote.bottles);
    const reservation = await reserve(deps, firstDay, hold);
    const dispatchDate = reservation?.date ?? firstDay;
    await refuseWithoutStandingRoom(deps, input, dispatchDate, reservation);
    const oneOff = buildSessionParams({
      input,
      quote,
      siteUrl: deps.siteUrl,
      shopId: deps.shopId,
      clientReferenceId,
      dispatchDate,
      debitDispatchDate: debitDay,
      expiresAt,
      capacityHold: reservation?.hold,
    });
    // A standing order (issue 50): the same session in subscription mode; a one-off's is untouched.
    const params = withStandingOrder(oneOff, input, quote, dispatchDate);
    try {
      const session = await deps.stripe.checkout.sessions.create(
        params,
        stripeKey ? { idempotencyKey: stripeKey.key } : undefined,
      );
      if (!session.url) throw new PaymentProviderError({ type: 'session_without_url' });
      if (await isExpiredReplay(deps.stripe, session)) {
        // Its hold (taken again now, or never released yet) can never be paid for: give it back.
        if (reservation) await releaseQuietly(deps, reservation);
        throw new CheckoutExpiredError(session.id);
      }
      return {
        url: session.url,
        sessionId: session.id,
        clientReferenceId,
        dispatchDate,
        capacityHold: reservation?.hold,
        expiresAt,
      };
    } catch (error) {
      if (error instanceof CheckoutExpiredError) throw error;
      if (reservation?.added && !isKeyInUse(error)) await releaseQuietly(deps, reservation);
      throw error;
    }
  };

  try {
    return await attempt(windowStart);
  } catch (error) {
    if (!(stripeKey && isIdempotencyMismatch(error))) throw toCheckoutError(error);
  }
  // A retry that crossed a window boundary: the first attempt used the previous window.
  try {
    return await attempt(windowStart - SESSION_WINDOW_MS);
  } catch (error) {
    if (isIdempotencyMismatch(error)) throw new CheckoutConflictError({ cause: error });
    throw toCheckoutError(error);
  }
}

/** The last window's dispatch days (windowDispatchDays). */
let lastWindowDays: { start: number; cutoffHours: number; firstDay: IsoDate; debitDay: IsoDate } | undefined;

/** Pure in the window's start and the cut-off, so worked out once a window instead of per checkout. */
function windowDispatchDays(start: number, cutoffHours: number): { firstDay: IsoDate; debitDay: IsoDate } {
  if (lastWindowDays?.start !== start || lastWindowDays.cutoffHours !== cutoffHours) {
    const at = new Date(start);
    lastWindowDays = {
      start,
      cutoffHours,
      firstDay: nextDispatchDate(at, { cutoffHours }),
      debitDay: debitDispatchDate(at, { cutoffHours }),
    };
  }
  return lastWindowDays;
}

/** The hold's bottles, counted as the client's (holdCheckoutBottles); undefined when capacity is not counted. */
function reserve(
  deps: CreateCheckoutSessionDeps,
  from: IsoDate,
  hold: string,
): Promise<Reservation | undefined> | undefined {
  const { capacity } = deps;
  if (!capacity) return undefined;
  return holdCheckoutBottles(
    {
      writes: capacity.writes,
      capacity: capacity.store,
      clientItems: capacity.clients?.items ?? NO_CLIENT_ITEMS,
      now: deps.now,
    },
    { from, hold, settings: capacity.settings, client: capacity.clients?.client },
  );
}

/**
 * A standing order (issue 50) is refused before Stripe when one of its coming days within 8 weeks lacks room
 * (ADR 0060), its first day's hold given back.
 */
async function refuseWithoutStandingRoom(
  deps: CreateCheckoutSessionDeps,
  input: Pick<CheckoutRequest, 'repeat' | 'quantity'>,
  first: IsoDate,
  reservation: Reservation | undefined,
): Promise<void> {
  if (input.repeat === undefined || !deps.capacity) return;
  try {
    await assertStandingRoom(
      {
        store: deps.capacity.store,
        capacity: deps.capacity.settings.capacity,
        cutoffHours: deps.cutoffHours,
      },
      { first, repeat: input.repeat, bottles: input.quantity },
      deps.now,
    );
  } catch (error) {
    if (reservation?.added) await releaseQuietly(deps, reservation);
    throw error;
  }
}

/** No client counted (tests of the session alone): never read, as no key is ever asked for. */
const NO_CLIENT_ITEMS: Pick<ClientHoldItems, 'read'> = {
  read: () => Promise.reject(new Error('No client items to read')),
};

/**
 * Stripe replays a key's stored first answer (`Idempotent-Replayed`) still saying "open" for a session
 * expired since (its expiry, or a pause's sweep): only a retrieve tells. A fresh session costs no extra call.
 */
async function isExpiredReplay(
  stripe: Stripe,
  session: Stripe.Response<Stripe.Checkout.Session>,
): Promise<boolean> {
  if (session.lastResponse?.headers?.['idempotent-replayed'] !== 'true') return false;
  const current = await stripe.checkout.sessions.retrieve(session.id);
  return current.status === 'expired';
}

/** Stripe's 409: another request with the same key is making the session now, with this hold. */
function isKeyInUse(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeIdempotencyError && error.statusCode === 409;
}

/**
 * Logged, not thrown: the customer sees Stripe's failure, and the reconciler releases the hold once its
 * session can no longer be paid (its expiry is in its id).
 */
async function releaseQuietly(
  deps: Pick<CreateCheckoutSessionDeps, 'capacity'>,
  reservation: Reservation,
): Promise<void> {
  if (!deps.capacity) return;
  try {
    await releaseHold(deps.capacity.store, reservation.date, reservation.hold);
  } catch (error) {
    logger.error('Could not release the hold of a checkout Stripe did not make; the reconciler will', {
      dispatchDate: reservation.date,
      hold: reservation.hold,
      error,
    });
  }
}

/**
 * Takes back a session made while a pause was being written: expired through Stripe so it can never be paid,
 * its hold given back at once. A failure to expire is logged, not thrown: the customer is refused all the
 * same, and a session paid regardless is recorded as placed while paused (ADR 0021).
 */
export async function withdrawCheckoutSession(
  session: CreatedCheckoutSession,
  deps: Pick<CreateCheckoutSessionDeps, 'stripe' | 'capacity'>,
): Promise<void> {
  try {
    await deps.stripe.checkout.sessions.expire(session.sessionId);
  } catch (error) {
    logger.error('Could not expire a session made as the shop paused; it stays payable until it expires', {
      sessionId: session.sessionId,
      error,
    });
    return;
  }
  if (deps.capacity && session.capacityHold !== undefined) {
    await releaseQuietly(deps, { date: session.dispatchDate, hold: session.capacityHold, added: true });
  }
}

/**
 * The server's quote for the order, refused when the browser's totals are not it (a checkout and a request alike).
 * @throws QuoteMismatchError when the sent subtotal, shipping or total differ.
 */
export function checkedQuote(input: CheckoutRequest): Quote {
  const quote = quoteOrder(input.quantity);
  const matches =
    poundsToPence(input.subtotal) === quote.subtotalPence &&
    poundsToPence(input.shipping) === quote.shippingPence &&
    poundsToPence(input.total) === quote.totalPence;
  if (!matches) throw new QuoteMismatchError(quote);
  return quote;
}

/** Hashed to fit Stripe's 255 characters, prefixed so it never collides with another endpoint's keys. */
export function stripeIdempotencyKey(pageKey: string): { key: string; hash: string } {
  const hash = createHash('sha256').update(pageKey).digest('hex');
  return { key: `checkout:${hash}`, hash };
}

interface SessionParamsInput {
  input: CheckoutRequest;
  quote: Quote;
  siteUrl: string;
  /** SHOP_ID, the deployment's marker (see order-metadata.ts). */
  shopId: string;
  clientReferenceId: string;
  dispatchDate: IsoDate;
  /** The day to expect dispatch by Bacs Direct Debit (debitDispatchDate); never before `dispatchDate`. */
  debitDispatchDate: IsoDate;
  expiresAt: number;
  /** The hold on the dispatch day's bottles this session pays for (CAPACITY_HOLD_KEY in metadata). */
  capacityHold?: string | undefined;
}

/** Pure, so the same order, key and window always give byte-identical parameters (see SESSION_WINDOW_MS). */
export function buildSessionParams({
  input,
  quote,
  siteUrl,
  shopId,
  clientReferenceId,
  dispatchDate,
  debitDispatchDate,
  expiresAt,
  capacityHold,
}: SessionParamsInput): Stripe.Checkout.SessionCreateParams {
  // A day full of card orders can put the card's date after a debit's: a debit never goes sooner.
  const debitDate = debitDispatchDate > dispatchDate ? debitDispatchDate : dispatchDate;
  const metadata = {
    ...orderMetadata(input, { card: dispatchDate, debit: debitDate }, shopId),
    ...(capacityHold !== undefined && { [CAPACITY_HOLD_KEY]: capacityHold }),
  };
  return {
    mode: 'payment',
    currency: 'gbp',
    locale: 'en-GB',
    line_items: [
      {
        price_data: {
          currency: 'gbp',
          unit_amount: quote.unitPricePence,
          product_data: {
            name: `${PRODUCT_NAME} (${DAPHNIA.bottleSize} bottle)`,
            description: `About ${DAPHNIA.countMin}-${DAPHNIA.countMax} live ${DAPHNIA.unit} per bottle.`,
          },
        },
        quantity: quote.bottles,
      },
    ],
    // Delivery as a shipping rate, not a second line item: Stripe shows it as shipping, records it
    // in total_details.amount_shipping, and the line items stay "what was bought" for fulfilment.
    shipping_options: [
      {
        shipping_rate_data: {
          type: 'fixed_amount',
          fixed_amount: { amount: quote.shippingPence, currency: 'gbp' },
          // No date here: one session has one shipping line for every method, and a debit's
          // dispatch day is not a card's (custom_text below gives both).
          display_name: 'UK delivery by Royal Mail 1st Class',
        },
      },
    ],
    customer_email: input.email,
    client_reference_id: clientReferenceId,
    metadata,
    payment_intent_data: {
      // Session metadata does not reach the PaymentIntent: copy it, for refunds and disputes.
      metadata,
      description: `${quote.bottles} x ${PRODUCT_NAME} (${DAPHNIA.bottleSize}), dispatch ${dispatchDate}`,
    },
    expires_at: expiresAt,
    success_url: `${siteUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${siteUrl}/`,
    // By the pay button, before the contract: the dispatch day by card and by debit, and that the right to
    // cancel does not apply to live goods. Fulfilment copies these words onto the order (termsShown).
    custom_text: { submit: { message: payStepMessage(dispatchDate, debitDate) } },
  };
}

/**
 * The words beside Stripe's pay button (at most 1,200 characters): the dispatch day by card and by Bacs
 * Direct Debit (a session cannot show one per method), the weather caveat, shared/live-animals.ts's words.
 */
export function payStepMessage(dispatchDate: IsoDate, debitDispatchDate: IsoDate): string {
  return [
    `Dispatch on ${formatDispatchDate(dispatchDate)} by Royal Mail 1st Class; most orders arrive the next day.`,
    `Paying by Bacs Direct Debit? We dispatch once your bank confirms the payment (up to ${DIRECT_DEBIT_WORKING_DAYS} working days): expect dispatch on ${formatDispatchDate(debitDispatchDate)}.`,
    'Freezing or extreme weather can delay dispatch.',
    NO_CANCELLATION_STATEMENT,
  ].join(' ');
}
