import type Stripe from 'stripe';
import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import { logger } from '../../lib/logger';
import { orderMetadataSchema } from '../checkout/order-metadata';
import type { SellerDetails } from '../emails/common';
import { renderDebitPending } from '../emails/debit-pending-email';
import { type EmailSender, PermanentEmailRefusalError } from '../emails/send-email';
import { sendEmailOnce } from '../emails/send-email-once';
import { newPageKey, type OrderPageLinks } from '../order-page-token';
import { PENDING_DEBIT_STATUS, type PendingDebitItem, readPendingDebit } from '../storage/debit-records';
import { pendingDebitKey, type ShopTable } from '../storage/orders-table';
import { emailClaimStore } from '../storage/send-once';
import {
  readUnpaidSession,
  recordUnpaidSession,
  type UnpaidSessionFacts,
  unpaidSessionShape,
} from './debit-session';

/**
 * The parts of a Checkout Session (retrieved with `expand: ['payment_intent']`) that say its
 * payment is still with the bank, and whom to tell. Parsed, not cast: data from outside.
 */
const pendingSessionSchema = z.object({
  ...unpaidSessionShape,
  metadata: z.extend(z.pick(orderMetadataSchema, { name: true, quantity: true }), {
    debit_dispatch_date: calendarDateSchema,
  }),
  payment_intent: z.object({ status: z.literal('processing') }),
});

/** What a pending debit's record and email say: who, what, and the day it goes if the bank pays. */
export type PendingDebitCheckFacts = UnpaidSessionFacts & { dispatchDate: string };

export type PendingDebitCheck =
  | { kind: 'not-ours' }
  /** Paid already, failed, never completed, or not readable as a debit of ours with the bank. */
  | { kind: 'not-pending' }
  | { kind: 'pending'; facts: PendingDebitCheckFacts };

/**
 * Whether a retrieved Checkout Session is ours and its payment is with the bank: complete, unpaid,
 * its PaymentIntent `processing` (a Bacs Direct Debit before collection). Pure: a unit test per rule.
 * The day is the session's `debit_dispatch_date`: the one the success page shows for it.
 */
export function checkPendingDebit(input: unknown, shopId: string): PendingDebitCheck {
  const read = readUnpaidSession(input, shopId, pendingSessionSchema, 'not-pending');
  if ('kind' in read) return read;
  return {
    kind: 'pending',
    facts: { ...read.facts, dispatchDate: read.session.metadata.debit_dispatch_date },
  };
}

export interface PendingDebitDeps {
  stripe: Stripe;
  /** SHOP_ID: sessions of other deployments are not ours. */
  shopId: string;
  table: ShopTable;
  sender: EmailSender;
  seller: SellerDetails;
  /** The order pages' links; absent (no secret), the email goes without one. */
  orderPage?: OrderPageLinks | undefined;
  now: () => Date;
}

export type PendingDebitResult =
  | { outcome: 'not-ours' }
  | { outcome: 'not-pending' }
  /** The order was recorded first (the bank paid meanwhile): its confirmation says the rest. */
  | { outcome: 'order-recorded'; reference: string | undefined }
  | {
      outcome: 'told';
      reference: string;
      /** True when this call wrote the record; false when it already existed. */
      recorded: boolean;
      /** `not-sent`: sent before, or another attempt holds the claim, or the order was recorded meanwhile. */
      email: 'sent' | 'not-sent' | 'refused';
    };

/**
 * Tells the customer at once that a checkout completed with its money still with the bank (a Bacs
 * Direct Debit): received, waiting for the bank, the reference, the day it goes if the bank pays,
 * and the order page's link. Once however often `checkout.session.completed` is delivered and
 * however many reconciler runs find the session (docs/decisions/0047-delayed-payments-told-at-once.md).
 *
 * 1. A record already written goes straight to the email (1 DynamoDB read; no Stripe call).
 * 2. Otherwise the session is retrieved (an event's payload is never trusted) and checked: ours,
 *    complete, unpaid, its PaymentIntent `processing`. Anything else does nothing.
 * 3. The record `PENDING_DEBIT#<session id>` is written once (a conditional put) with a new page
 *    key, the one the order takes when the bank pays (takePendingPageKey), and the email `pending`.
 * 4. The email is sent once (sendEmailOnce), claimed only while the record is still `pending`.
 *
 * @throws Stripe, DynamoDB and SES errors: the caller retries.
 */
export async function recordPendingDebit(
  sessionId: string,
  deps: PendingDebitDeps,
): Promise<PendingDebitResult> {
  const found = await recordUnpaidSession<
    PendingDebitItem,
    PendingDebitCheckFacts,
    'not-ours' | 'not-pending'
  >(sessionId, deps, {
    pk: pendingDebitKey(sessionId),
    read: () => readPendingDebit(deps.table, sessionId),
    check: (session) => checkPendingDebit(session, deps.shopId),
    build: (facts, stamp) => ({
      ...stamp,
      ...facts,
      pageKey: newPageKey(),
      status: PENDING_DEBIT_STATUS.pending,
      debitPendingEmailState: 'pending',
    }),
  });
  if ('none' in found) return { outcome: found.none };
  const { item, recorded } = found;
  if (recorded) logger.info('Delayed payment waiting for the bank recorded', { reference: item.reference });
  const facts = factsOf(item);
  if (item.status === PENDING_DEBIT_STATUS.recorded || facts === undefined) {
    return { outcome: 'order-recorded', reference: item.reference };
  }
  const state = item.debitPendingEmailState;
  if (state === 'sent') {
    return { outcome: 'told', reference: facts.reference, recorded, email: 'not-sent' };
  }
  if (state === 'failed') return { outcome: 'told', reference: facts.reference, recorded, email: 'refused' };
  const link = deps.orderPage?.linkFor({ sessionId, pageKey: item.pageKey });
  const result = await sendEmailOnce(
    {
      id: item.pk,
      kind: 'debitPending',
      message: () => ({
        to: facts.customerEmail,
        replyTo: deps.seller.email,
        content: renderDebitPending(facts, deps.seller, link),
      }),
      refusedForGood: (error) => (error instanceof PermanentEmailRefusalError ? error.reason : undefined),
      log: { reference: facts.reference },
      // Not once the order is recorded: its confirmation is then the email to read.
      guard: { status: PENDING_DEBIT_STATUS.pending },
    },
    { store: emailClaimStore(deps.table), sender: deps.sender, now: deps.now },
  );
  if (result.outcome === 'sent') {
    logger.info('Waiting-for-the-bank email sent', {
      reference: facts.reference,
      messageId: result.messageId,
    });
  }
  return {
    outcome: 'told',
    reference: facts.reference,
    recorded,
    email: result.outcome === 'claimed-elsewhere' ? 'not-sent' : result.outcome,
  };
}

/** The email's facts, when the record was written by the pending path (not only by fulfilment). */
function factsOf(item: PendingDebitItem) {
  const { reference, customerName, customerEmail, bottles, totalPence, dispatchDate } = item;
  if (
    reference === undefined ||
    customerName === undefined ||
    customerEmail === undefined ||
    bottles === undefined ||
    totalPence === undefined ||
    dispatchDate === undefined
  )
    return undefined;
  return { reference, customerName, customerEmail, bottles, totalPence, dispatchDate };
}
