import * as z from 'zod/mini';
import { orderReference } from '../../../shared/checkout-status';

// A completed Checkout Session not paid yet (a Bacs Direct Debit), as both delayed-payment paths
// read it: pending-debit.ts while the bank has it, failed-debit.ts once the bank refused it.

/** The fields of such a session (retrieved with `expand: ['payment_intent']`) that both paths read. */
export const unpaidSessionShape = {
  id: z.string().check(z.minLength(1)),
  livemode: z.boolean(),
  created: z.number().check(z.int()),
  status: z.literal('complete'),
  payment_status: z.literal('unpaid'),
  amount_total: z.number().check(z.int()),
  customer_email: z.optional(z.nullable(z.string())),
  customer_details: z.optional(z.nullable(z.object({ email: z.optional(z.nullable(z.string())) }))),
};

type UnpaidSession = z.output<z.ZodMiniObject<typeof unpaidSessionShape>> & {
  metadata: { name: string; quantity: string };
};

/** What both paths' records and emails say of the session: who, what, when; undefined with no email to write to. */
export function unpaidSessionFacts(session: UnpaidSession) {
  const email = session.customer_details?.email ?? session.customer_email;
  if (!email) return undefined;
  return {
    reference: orderReference(session.id),
    sessionId: session.id,
    livemode: session.livemode,
    bottles: Number(session.metadata.quantity),
    totalPence: session.amount_total,
    customerName: session.metadata.name,
    customerEmail: email,
    checkoutCreatedAt: new Date(session.created * 1000).toISOString(),
  };
}
