import * as z from 'zod/mini';
import { orderReference } from '../../../shared/checkout-status';
import { PUBLIC_API_ROUTES } from '../../../shared/public-routes';
import { isHandledWebhookEvent } from '../../../shared/stripe-webhook-events';
import { releaseExpiredSession, returnSessionBottles } from '../../domain/capacity/session-capacity';
import { hasShopMarker, stripeMetadataSchema } from '../../domain/checkout/order-metadata';
import { notifyFailedDebit } from '../../domain/fulfilment/failed-debit';
import {
  type FulfilmentDeps,
  type FulfilmentResult,
  fulfilCheckout,
} from '../../domain/fulfilment/fulfil-checkout';
import { recordPendingDebit } from '../../domain/fulfilment/pending-debit';
import { type RefundRecorderDeps, recordStripeRefund } from '../../domain/operations/order-actions';
import {
  handleStandingOrderEvent,
  isStandingOrderEvent,
} from '../../domain/standing-orders/standing-order-events';
import { fulfilSubscriptionSession } from '../../domain/standing-orders/subscription-checkout';
import { ConfigError, type Env } from '../../lib/config';
import { type HttpResult, header, json, rawBody } from '../../lib/http';
import { type DepsOrLoader, type HttpRequest, httpEndpoint, type LogKeys } from '../../lib/http-handler';
import { logger } from '../../lib/logger';
import {
  type VerifiedEvent,
  verifyStripeEvent,
  WebhookVerificationError,
} from '../../lib/verify-stripe-event';
import { loadFulfilmentRuntime } from '../../runtime';

export interface WebhookHandlerDeps {
  fulfilment: FulfilmentDeps;
  /** The endpoint's signing secret (whsec_...). Required: verification is never skipped. */
  webhookSecret: string;
  /** STRIPE_LIVEMODE. */
  livemode: boolean;
  /** Records refunds made in the Stripe Dashboard (`charge.refunded`); absent, they are ignored. */
  refunds?: RefundRecorderDeps | undefined;
}

/** Configuration, secrets and clients from the environment: once per cold start (see `handler`). */
export async function loadWebhookDeps(env: Env): Promise<WebhookHandlerDeps> {
  const runtime = await loadFulfilmentRuntime(env);
  if (!runtime.secrets.webhookSecret) {
    throw new ConfigError([
      'STRIPE_WEBHOOK_SECRET_ID (deployed) or STRIPE_WEBHOOK_SECRET (local): required by the webhook',
    ]);
  }
  return {
    fulfilment: runtime.deps,
    webhookSecret: runtime.secrets.webhookSecret,
    livemode: runtime.config.STRIPE_LIVEMODE,
    // Fulfilment's own clients: a refund whose order is not recorded yet records it (born refunded).
    refunds: runtime.deps,
  };
}

/** The part of a Checkout Session event's object the webhook looks at before fulfilling. */
const sessionRefSchema = z.object({
  id: z.string().check(z.minLength(1)),
  metadata: stripeMetadataSchema,
  mode: z.optional(z.string()),
});

/** The part of a refunded Charge the webhook needs: its payment, and whether it is refunded in full. */
const chargeSchema = z.object({
  payment_intent: z.string().check(z.minLength(1)),
  refunded: z.boolean(),
  /** All the charge's refunds so far, in pence: a partial refund's amount goes on the order. */
  amount_refunded: z.optional(z.number().check(z.int())),
  // Listed only on older API versions or when expanded; the command's reason is on the order anyway.
  refunds: z.optional(
    z.nullable(
      z.object({
        data: z.optional(
          z.array(
            z.object({
              id: z.string(),
              metadata: stripeMetadataSchema,
            }),
          ),
        ),
      }),
    ),
  ),
});

type Handled = { handled: string } | FulfilmentResult;

/**
 * The session of a Checkout Session event when it is ours. The event is signed, so its metadata is Stripe's:
 * enough to skip other sales without a Stripe call (fulfilCheckout checks the marker again on its retrieve).
 */
function ourSession(object: unknown, shopId: string): z.output<typeof sessionRefSchema> | undefined {
  const session = sessionRefSchema.safeParse(object);
  return session.success && hasShopMarker(session.data.metadata, shopId) ? session.data : undefined;
}

async function handleEvent(event: VerifiedEvent, deps: WebhookHandlerDeps): Promise<Handled> {
  const { type } = event;
  if (!isHandledWebhookEvent(type)) return { handled: 'ignored' };
  if (isStandingOrderEvent(type)) return handleStandingOrderEvent(type, event.data.object, deps.fulfilment);
  switch (type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed': {
      const session = ourSession(event.data.object, deps.fulfilment.shopId);
      if (session === undefined) return { outcome: 'not-ours' };
      if (type === 'checkout.session.async_payment_failed') {
        // No order exists for an unpaid session: its bottles go back to their day (once), and the
        // customer and the merchant are each emailed once.
        const returned = deps.fulfilment.capacity
          ? await returnSessionBottles(session.metadata, deps.fulfilment.capacity)
          : false;
        const notified = await notifyFailedDebit(session.id, deps.fulfilment);
        logger.warn('Delayed payment failed; no order', {
          eventId: event.id,
          reference: orderReference(session.id),
          bottlesReturned: returned,
          ...(notified.outcome === 'notified' && { emails: notified.emails }),
        });
        return { handled: notified.outcome === 'notified' ? 'payment-failed' : notified.outcome };
      }
      // A standing order's checkout: its first invoice's order, never one of the session's own.
      if (session.mode === 'subscription') return fulfilSubscriptionSession(session.id, deps.fulfilment);
      // The payment time comes from Stripe's charge, not from this event (a retry may be days late).
      const fulfilled = await fulfilCheckout(session.id, deps.fulfilment);
      if (type === 'checkout.session.completed' && fulfilled.outcome === 'not-paid') {
        // Completed with the money still with the bank (a Bacs Direct Debit): the customer hears
        // at once, once, with the order page's link (ADR 0047).
        const told = await recordPendingDebit(session.id, deps.fulfilment);
        logger.info('Delayed payment waiting for the bank', {
          eventId: event.id,
          reference: orderReference(session.id),
          outcome: told.outcome,
          ...(told.outcome === 'told' && { email: told.email }),
        });
      }
      return fulfilled;
    }
    case 'charge.refunded': {
      const charge = chargeSchema.safeParse(event.data.object);
      if (!charge.success || !deps.refunds) return { handled: 'ignored' };
      const refund = charge.data.refunds?.data?.[0];
      const outcome = await recordStripeRefund(
        {
          paymentIntentId: charge.data.payment_intent,
          fullyRefunded: charge.data.refunded,
          refundId: refund?.id,
          metadataReason: refund?.metadata?.reason,
          amountRefundedPence: charge.data.amount_refunded,
        },
        deps.refunds,
      );
      return { handled: `refund-${outcome}` };
    }
    case 'checkout.session.expired': {
      const session = ourSession(event.data.object, deps.fulfilment.shopId);
      if (session === undefined) return { outcome: 'not-ours' };
      // An abandoned checkout wrote only its hold: the bottles go back to their day, once however
      // often this is delivered, and never once the session was paid.
      const released = deps.fulfilment.capacity
        ? await releaseExpiredSession(session.metadata, deps.fulfilment.capacity)
        : false;
      logger.info('Checkout session expired', { eventId: event.id, bottlesReleased: released });
      return { handled: 'expired' };
    }
    default:
      // Every listed event has its case: a new one without a case does not compile.
      return type satisfies never;
  }
}

/**
 * `POST /functions/v1/stripe-webhook`: verifies, then turns events into orders (fulfilCheckout). 2xx only
 * once the order is durably written or found; 5xx on a transient failure so Stripe's retry finishes the work;
 * 400, with no side effect, for anything failing verification.
 */
export function createWebhookHandler(deps: DepsOrLoader<WebhookHandlerDeps>) {
  return httpEndpoint({
    route: PUBLIC_API_ROUTES.stripeWebhook,
    deps,
    handle: receiveWebhook,
    mapError: webhookErrorResponse,
  });
}

async function receiveWebhook({
  event: request,
  deps,
  logKeys,
}: HttpRequest<WebhookHandlerDeps>): Promise<HttpResult> {
  const event = verifyStripeEvent(rawBody(request), header(request, 'stripe-signature'), {
    secret: deps.webhookSecret,
    livemode: deps.livemode,
    now: deps.fulfilment.now(),
  });
  logKeys.eventId = event.id;
  logKeys.eventType = event.type;
  const result = await handleEvent(event, deps);
  const outcome = 'outcome' in result ? result.outcome : result.handled;
  logger.info('Webhook handled', { ...logKeys, statusCode: 200, outcome });
  return json(200, { received: true, outcome });
}

/** Verification failures are this endpoint's 400; anything else a 5xx, so Stripe retries (detail logged). */
function webhookErrorResponse(error: unknown, logKeys: LogKeys): HttpResult | undefined {
  if (error instanceof WebhookVerificationError) {
    logger.warn('Webhook refused', { ...logKeys, statusCode: 400, reason: error.reason });
    return json(400, { error: 'Webhook signature verification failed.' });
  }
  return undefined;
}

/** The Lambda entry point: configuration, secrets and clients built once per cold start. */
export const handler = createWebhookHandler(() => loadWebhookDeps(process.env));
