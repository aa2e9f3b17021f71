import type Stripe from 'stripe';
import * as z from 'zod/mini';
import type { EmailKind } from '../../../shared/email-kinds';
import { logger } from '../../lib/logger';
import { orderMetadataSchema } from '../checkout/order-metadata';
import type { SellerDetails } from '../emails/common';
import {
  type FailedDebitFacts,
  renderDebitFailed,
  renderDebitFailedNotice,
} from '../emails/failed-debit-emails';
import type { EmailContent } from '../emails/render';
import { type EmailSender, isSesAcceptableAddress, PermanentEmailRefusalError } from '../emails/send-email';
import { sendEmailOnce } from '../emails/send-email-once';
import { type MerchantPushDeps, pushToMerchants } from '../push/merchant-push';
import { type FailedDebitItem, readFailedDebit } from '../storage/debit-records';
import { failedDebitKey, PARTITION_KEY, type ShopTable } from '../storage/orders-table';
import { emailAttributes, emailClaimStore } from '../storage/send-once';
import { readUnpaidSession, recordUnpaidSession, unpaidSessionShape } from './debit-session';

/** PaymentIntent statuses after a delayed payment failed: it waits for another method, or was cancelled. */
const FAILED_INTENT_STATUSES = ['requires_payment_method', 'canceled'] as const;

/** The session's parts (`payment_intent` expanded) that say its debit failed and whom to tell; parsed. */
const failedSessionSchema = z.object({
  ...unpaidSessionShape,
  metadata: z.pick(orderMetadataSchema, { name: true, phone: true, quantity: true }),
  payment_intent: z.object({
    id: z.string(),
    status: z.enum(FAILED_INTENT_STATUSES),
    last_payment_error: z.optional(z.nullable(z.object({ message: z.optional(z.nullable(z.string())) }))),
  }),
});

export type FailedDebitCheck =
  | { kind: 'not-ours' }
  /** Paid, still with the bank, never completed, or not readable as a failed debit of ours. */
  | { kind: 'not-failed' }
  | { kind: 'failed'; facts: FailedDebitCheckFacts };
type FailedDebitCheckFacts = Omit<FailedDebitFacts, 'recordedAt'>;

/**
 * Ours, complete, unpaid, its PaymentIntent back to `requires_payment_method` (or cancelled), as Stripe
 * leaves a Bacs debit the bank did not pay. Pure.
 */
export function checkFailedDebit(input: unknown, shopId: string): FailedDebitCheck {
  const read = readUnpaidSession(input, shopId, failedSessionSchema, 'not-failed');
  if ('kind' in read) return read;
  const { session, facts } = read;
  return {
    kind: 'failed',
    facts: {
      ...facts,
      paymentIntentId: session.payment_intent.id,
      customerPhone: session.metadata.phone,
      failureMessage: session.payment_intent.last_payment_error?.message ?? undefined,
    },
  };
}

export interface FailedDebitDeps {
  stripe: Stripe;
  /** SHOP_ID: sessions of other deployments are not ours. */
  shopId: string;
  /** The orders table, where the record and its email states live. */
  table: ShopTable;
  sender: EmailSender;
  seller: SellerDetails;
  merchantEmail: string;
  /** SITE_URL: where the customer can order again. */
  siteUrl: string;
  now: () => Date;
  /** The merchants' Web Push sender (ADR 0056); absent: no pushes. */
  pushSender?: MerchantPushDeps['pushSender'] | undefined;
}

/** What happened to each email in this call (see sendEmailOnce): `refused` only for the customer's. */
export type FailedDebitEmailOutcome = 'sent' | 'not-sent' | 'refused';

export type FailedDebitResult =
  | { outcome: 'not-ours' }
  | { outcome: 'not-failed' }
  | {
      outcome: 'notified';
      reference: string;
      /** True when this call wrote the record; false when it already existed. */
      recorded: boolean;
      emails: { customer: FailedDebitEmailOutcome; merchant: FailedDebitEmailOutcome };
    };

/**
 * Tells the customer and the merchant that a Bacs debit failed, each once however often the event comes and
 * the reconciler runs. With no order to hold the emails' states they live on `FAILED_DEBIT#<session id>`
 * (docs/decisions/0025-bacs-debits.md), written by a conditional put. A record found goes straight to the
 * emails; otherwise the session is retrieved from Stripe (an event's payload is never trusted) and checked.
 * @throws Stripe, DynamoDB and SES errors (after both emails were tried): the caller retries.
 */
export async function notifyFailedDebit(
  sessionId: string,
  deps: FailedDebitDeps,
): Promise<FailedDebitResult> {
  const pk = failedDebitKey(sessionId);
  const found = await recordUnpaidSession<FailedDebitItem, FailedDebitCheckFacts, 'not-ours' | 'not-failed'>(
    sessionId,
    deps,
    {
      pk,
      read: () => readFailedDebit(deps.table, sessionId),
      check: (session) => checkFailedDebit(session, deps.shopId),
      build: (facts, stamp) => ({
        ...stamp,
        ...facts,
        debitFailedEmailState: 'pending',
        debitFailedNoticeEmailState: 'pending',
      }),
    },
  );
  if ('none' in found) return { outcome: found.none };
  const { item: record, recorded } = found;
  if (recorded) logger.info('Failed Direct Debit recorded', { reference: record.reference });
  // Beside the emails (it never throws), once: claimed on the record; a finished one writes nothing.
  const pushing =
    deps.pushSender !== undefined && (recorded || record.debitFailedNoticeEmailState !== 'sent')
      ? pushToMerchants(
          {
            pk,
            kind: 'failedDebit',
            reference: record.reference,
            detail: 'the bank refused the Direct Debit; no order was made',
          },
          { table: deps.table, pushSender: deps.pushSender, now: deps.now },
        )
      : undefined;
  try {
    return await sendFailedDebitEmails(record, recorded, deps);
  } finally {
    await pushing;
  }
}

/** The customer's email, then the merchant's, each at most once; both tried before any throws. */
async function sendFailedDebitEmails(
  record: FailedDebitItem,
  recorded: boolean,
  deps: FailedDebitDeps,
): Promise<FailedDebitResult> {
  const emails = await sendCustomerThenMerchant(
    {
      record,
      customerKind: 'debitFailed',
      merchantKind: 'debitFailedNotice',
      customerContent: () => renderDebitFailed(record, deps.seller, deps.siteUrl),
      merchantContent: (customerEmailed) =>
        renderDebitFailedNotice(record, customerEmailed, deps.seller.shopName),
      log: { reference: record.reference },
      sentLog: 'Failed debit email sent',
    },
    deps,
  );
  return { outcome: 'notified', reference: record.reference, recorded, emails };
}

/**
 * A failed payment's two emails (a debit's or a renewal's), customer first, the merchant's saying whether the
 * customer was told; each at most once, both tried before any throws.
 */
export async function sendCustomerThenMerchant<Kind extends EmailKind>(
  emails: {
    record: { [PARTITION_KEY]: string; customerEmail: string } & Partial<Record<`${Kind}EmailState`, string>>;
    customerKind: Kind;
    merchantKind: Kind;
    customerContent: () => EmailContent;
    merchantContent: (customerEmailed: boolean) => EmailContent;
    log: Record<string, string>;
    sentLog: string;
  },
  deps: FailedDebitDeps,
): Promise<{ customer: FailedDebitEmailOutcome; merchant: FailedDebitEmailOutcome }> {
  const { record, log, sentLog } = emails;
  const send = (kind: Kind, message: Parameters<typeof sendEmailOnce>[0]['message']) =>
    attempt(() =>
      sendRecordEmail(
        {
          id: record[PARTITION_KEY],
          kind,
          state: record[emailAttributes(kind).state],
          toCustomer: kind === emails.customerKind,
          message,
          log,
          sentLog,
        },
        deps,
      ),
    );
  const customer = await send(emails.customerKind, () => ({
    to: record.customerEmail,
    replyTo: deps.seller.email,
    content: emails.customerContent(),
  }));
  const customerEmailed =
    record[emailAttributes(emails.customerKind).state] !== 'failed' &&
    !(customer.ok && customer.outcome === 'refused');
  const merchant = await send(emails.merchantKind, () => ({
    to: deps.merchantEmail,
    replyTo: isSesAcceptableAddress(record.customerEmail) ? record.customerEmail : undefined,
    content: emails.merchantContent(customerEmailed),
  }));
  if (!customer.ok) throw customer.error;
  if (!merchant.ok) throw merchant.error;
  return { customer: customer.outcome, merchant: merchant.outcome };
}

/** Runs `run`, keeping its error to throw later: both of a record's emails are tried before any throws. */
export async function attempt<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; outcome: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, outcome: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * One of a record's two emails, at most once (sendEmailOnce); a state read as final saves a write. Only the
 * customer's address can be refused for good: the merchant's is configuration.
 */
export async function sendRecordEmail<Kind extends EmailKind>(
  email: {
    id: string;
    kind: Kind;
    state: string | undefined;
    toCustomer: boolean;
    message: Parameters<typeof sendEmailOnce>[0]['message'];
    log: Record<string, string>;
    sentLog: string;
  },
  deps: Pick<FailedDebitDeps, 'table' | 'sender' | 'now'>,
): Promise<FailedDebitEmailOutcome> {
  if (email.state === 'sent') return 'not-sent';
  if (email.state === 'failed') return 'refused';
  const result = await sendEmailOnce(
    {
      id: email.id,
      kind: email.kind,
      message: email.message,
      refusedForGood: (error) =>
        error instanceof PermanentEmailRefusalError && email.toCustomer ? error.reason : undefined,
      log: email.log,
    },
    { store: emailClaimStore(deps.table), sender: deps.sender, now: deps.now },
  );
  if (result.outcome === 'sent') {
    logger.info(email.sentLog, { ...email.log, kind: email.kind, messageId: result.messageId });
  }
  return result.outcome === 'claimed-elsewhere' ? 'not-sent' : result.outcome;
}
