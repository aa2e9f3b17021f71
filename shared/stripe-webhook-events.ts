/**
 * The Stripe events the shop's webhook acts on, and so the events its Stripe endpoint is
 * registered for (`npm run setup` creates or updates the endpoint with exactly these). The
 * webhook's handler switches over this list exhaustively, so an event handled there is an event
 * listed here: adding a case without listing it, or listing one without a case, fails to compile.
 */
export const HANDLED_WEBHOOK_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
  // Standing orders (issue 50, ADR 0058): each paid invoice an order, a failed renewal told, a cancel.
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.deleted',
] as const;

/** One of the events the webhook acts on. */
export type HandledWebhookEvent = (typeof HANDLED_WEBHOOK_EVENTS)[number];

/** Whether the webhook acts on events of this type (others are acknowledged and ignored). */
export function isHandledWebhookEvent(type: string): type is HandledWebhookEvent {
  return (HANDLED_WEBHOOK_EVENTS as readonly string[]).includes(type);
}
