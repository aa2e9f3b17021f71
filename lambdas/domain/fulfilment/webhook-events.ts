// The list lives in shared/: `npm run setup` registers the Stripe endpoint for exactly these.
export {
  HANDLED_WEBHOOK_EVENTS,
  type HandledWebhookEvent,
  isHandledWebhookEvent,
} from '../../../shared/stripe-webhook-events';
