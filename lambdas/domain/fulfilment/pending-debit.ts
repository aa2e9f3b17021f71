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

/** The session's parts (`payment_intent` expanded) saying its money is with the bank, and whom to tell. */
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
 * Ours, complete, unpaid, its PaymentIntent `processing` (a Bacs debit before collection). Pure. The day is
 * the session's `debit_dispatch_date`, the one the success page shows.
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
 * Tells the customer at once that the money is with the bank (received, waiting, reference, the day it goes,
 * the page link), once however often the event comes or the reconciler runs (ADR 0047). A record found goes
 * straight to the email; else the session is retrieved (never the payload) and checked, and
 * `PENDING_DEBIT#<session id>` written once with the page key the order will take (takePendingPageKey).
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
