import * as z from 'zod/mini';
import { hasShopMarker, stripeMetadataSchema } from '../checkout/order-metadata';
import type { FulfilmentDeps, FulfilmentResult } from '../fulfilment/fulfil-checkout';
import { fulfilInvoice } from './fulfil-invoice';

/** The parts of a subscription-mode Checkout Session that lead to its first invoice. */
const subscriptionSessionSchema = z.object({
  id: z.string(),
  mode: z.literal('subscription'),
  payment_status: z.string(),
  metadata: stripeMetadataSchema,
  invoice: z.optional(z.nullable(z.union([z.string(), z.object({ id: z.string() })]))),
});

/**
 * A standing order's `checkout.session.completed` makes its first invoice's order through fulfilInvoice, so
 * one order comes whichever of `completed` and `invoice.paid` comes first, or alone (session retrieved).
 */
export async function fulfilSubscriptionSession(
  sessionId: string,
  deps: FulfilmentDeps,
): Promise<FulfilmentResult> {
  const retrieved = await deps.stripe.checkout.sessions.retrieve(sessionId);
  const parsed = subscriptionSessionSchema.safeParse(retrieved);
  if (!parsed.success || !hasShopMarker(parsed.data.metadata, deps.shopId)) return { outcome: 'not-ours' };
  const session = parsed.data;
  const invoiceId = typeof session.invoice === 'string' ? session.invoice : session.invoice?.id;
  if (session.payment_status !== 'paid' || invoiceId === undefined) {
    return { outcome: 'not-paid', paymentStatus: session.payment_status };
  }
  return fulfilInvoice(invoiceId, deps);
}
