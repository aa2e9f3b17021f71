import type Stripe from 'stripe';
import * as z from 'zod/mini';
import { orderReference } from '../../../shared/checkout-status';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { isShopSession } from '../checkout/order-metadata';
import { recordOnce } from '../storage/conditional-writes';
import { unpaidRecordTtl } from '../storage/debit-records';
import { PARTITION_KEY, type ShopTable, TTL_ATTRIBUTE } from '../storage/orders-table';

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

/** What both paths' records say of the session (unpaidSessionFacts). */
export type UnpaidSessionFacts = NonNullable<ReturnType<typeof unpaidSessionFacts>>;

/** What both paths' records and emails say of the session: who, what, when; undefined with no email to write to. */
function unpaidSessionFacts(session: UnpaidSession) {
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

/**
 * A retrieved session as `schema` reads it, with its facts, when it is ours: `not-ours` for another
 * deployment's, `otherwise` when it is not what the schema reads or has no email to write to.
 */
export function readUnpaidSession<Session extends UnpaidSession, Otherwise extends string>(
  input: unknown,
  shopId: string,
  schema: z.ZodMiniType<Session>,
  otherwise: Otherwise,
): { kind: 'not-ours' | Otherwise } | { session: Session; facts: UnpaidSessionFacts } {
  if (!isShopSession(input, shopId)) return { kind: 'not-ours' };
  const parsed = schema.safeParse(input, ENGLISH_MESSAGES);
  if (!parsed.success) return { kind: otherwise };
  const facts = unpaidSessionFacts(parsed.data);
  if (facts === undefined) return { kind: otherwise };
  return { session: parsed.data, facts };
}

/** The keys every debit record is written with: its own, when, and when DynamoDB may drop it. */
export interface DebitRecordStamp {
  [PARTITION_KEY]: string;
  recordedAt: string;
  [TTL_ATTRIBUTE]: number;
}

/**
 * A delayed payment's record `pk`, written once: a stored one is read (no Stripe call); else the session is
 * retrieved (never the event's payload), checked and built.
 */
export function recordUnpaidSession<Item extends { [PARTITION_KEY]: string }, Facts, None extends string>(
  sessionId: string,
  deps: { table: ShopTable; stripe: Stripe; now: () => Date },
  steps: {
    pk: string;
    read: () => Promise<Item | undefined>;
    check: (session: Stripe.Checkout.Session) => { kind: None } | { kind: string; facts: Facts };
    build: (facts: Facts, stamp: DebitRecordStamp) => Item;
  },
): Promise<{ item: Item; recorded: boolean } | { none: None }> {
  return recordOnce<Item, None>(deps.table, steps.read, async () => {
    const session = await deps.stripe.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent'] });
    const check = steps.check(session);
    if (!('facts' in check)) return check.kind;
    const now = deps.now();
    return steps.build(check.facts, {
      [PARTITION_KEY]: steps.pk,
      recordedAt: now.toISOString(),
      [TTL_ATTRIBUTE]: unpaidRecordTtl(now),
    });
  });
}
