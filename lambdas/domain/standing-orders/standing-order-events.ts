import * as z from 'zod/mini';
import type { FulfilmentDeps, FulfilmentResult } from '../fulfilment/fulfil-checkout';
import { recordSubscriptionCancelled } from './cancelled';
import { notifyFailedRenewal } from './failed-renewal';
import { fulfilInvoice } from './fulfil-invoice';

/** The standing orders' webhook events (issue 50), listed in shared/stripe-webhook-events.ts. */
export type StandingOrderEvent = 'invoice.paid' | 'invoice.payment_failed' | 'customer.subscription.deleted';

const STANDING_ORDER_EVENTS: readonly string[] = [
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.deleted',
] satisfies StandingOrderEvent[];

export function isStandingOrderEvent(type: string): type is StandingOrderEvent {
  return STANDING_ORDER_EVENTS.includes(type);
}

/** An event's object names what it is about; everything else is retrieved from Stripe. */
const objectIdSchema = z.object({ id: z.string().check(z.minLength(1)) });

/**
 * `invoice.paid`: one order; `invoice.payment_failed`: no order, one email each;
 * `customer.subscription.deleted`: the record cancelled. Each repeats safely, in any order.
 */
export async function handleStandingOrderEvent(
  type: StandingOrderEvent,
  object: unknown,
  deps: FulfilmentDeps,
): Promise<{ handled: string } | FulfilmentResult> {
  const parsed = objectIdSchema.safeParse(object);
  if (!parsed.success) return { handled: 'ignored' };
  const { id } = parsed.data;
  switch (type) {
    case 'invoice.paid':
      return fulfilInvoice(id, deps);
    case 'invoice.payment_failed': {
      const result = await notifyFailedRenewal(id, deps);
      return { handled: result.outcome === 'notified' ? 'renewal-failed' : result.outcome };
    }
    case 'customer.subscription.deleted':
      return { handled: `subscription-${await recordSubscriptionCancelled(id, deps)}` };
  }
}
