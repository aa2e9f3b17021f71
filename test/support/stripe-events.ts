import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import Stripe from 'stripe';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from './api-gateway-event';

export type CheckoutEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';

/** A Stripe event envelope around an object, as Stripe sends it. */
export function stripeEvent(
  type: string,
  object: unknown,
  options: { created: number; livemode?: boolean; id?: string },
): Record<string, unknown> {
  return {
    id: options.id ?? `evt_test_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: options.created,
    data: { object },
    livemode: options.livemode ?? false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** Pretty-printed, like Stripe's payloads: whitespace that a re-serialised body would lose. */
export function eventPayload(event: unknown): string {
  return JSON.stringify(event, null, 2);
}

export interface DeliveryOptions {
  secret: string;
  /** Signing time, in seconds. */
  timestamp: number;
  /** The header's name as sent; API Gateway lower-cases it, other callers may not. */
  headerName?: string;
  /** Replaces the computed header (`null`: no header at all). */
  header?: string | null;
  /** Deliver the body base64-encoded, as API Gateway does for some content types. */
  base64?: boolean;
}

/** The signature header Stripe would send, made by the SDK's own test helper. */
export function signPayload(payload: string, secret: string, timestamp: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

/** A webhook delivery as the Lambda receives it from API Gateway (payload 2.0). */
export function webhookDelivery(payload: string, options: DeliveryOptions): APIGatewayProxyEventV2 {
  const signature =
    options.header === undefined ? signPayload(payload, options.secret, options.timestamp) : options.header;
  return apiGatewayEvent({
    method: 'POST',
    path: PUBLIC_API_ROUTES.stripeWebhook.path,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature !== null && { [options.headerName ?? 'stripe-signature']: signature }),
    },
    body: payload,
    isBase64Encoded: options.base64 ?? false,
  });
}
