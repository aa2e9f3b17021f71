import { randomUUID } from 'node:crypto';
import { orderReference } from '../../../shared/checkout-status';
import { formatDispatchDate } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { REPEAT_CHOICES } from '../../../shared/standing-order';
import { logger } from '../../lib/logger';
import { customerEmail, itemLine, type SellerDetails } from '../emails/common';
import { customerContactRows } from '../emails/payment-not-taken';
import { type EmailBlock, type EmailContent, type EmailRow, renderEmail } from '../emails/render';
import {
  type EmailSender,
  isSesAcceptableAddress,
  type OutgoingEmail,
  PermanentEmailRefusalError,
} from '../emails/send-email';
import type { OrderPageLinks } from '../order-page-token';
import type { ShopTable } from '../storage/orders-table';
import { STALE_CLAIM_MS } from '../storage/send-once';
import {
  claimStandingEmail,
  readStandingEmails,
  type StandingEmailEntry,
  type StandingEmailFacts,
  type StandingEmailKind,
  type StandingOrderItem,
  settleStandingEmail,
} from '../storage/standing-orders';

// A standing order's change emails (ADR 0059): rendered from the facts the change wrote with it,
// never from a later read, and sent once each by a claim on the entry.

/** "Every week" or "Every 2 weeks". */
export function repeatText(repeat: StandingOrderItem['repeat']): string {
  return REPEAT_CHOICES.find(({ value }) => value === repeat)?.label ?? repeat;
}

/** The facts every change's email shows, from the record as the change stores it. */
export function standingEmailFacts(
  record: StandingOrderItem,
  extra: Partial<StandingEmailFacts> = {},
): StandingEmailFacts {
  return {
    subscriptionId: record.subscriptionId,
    pageKey: record.pageKey,
    customerName: record.customerName,
    customerEmail: record.customerEmail,
    customerPhone: record.customerPhone,
    repeat: record.repeat,
    bottles: record.bottles,
    totalPence: record.totalPence,
    ...extra,
  };
}

/** What each change tells the customer: the subject's end, and the paragraph that says what happens now. */
function changeText(kind: Exclude<StandingEmailKind, 'cancelNotice'>, facts: StandingEmailFacts) {
  const day = facts.day === undefined ? '' : formatDispatchDate(facts.day);
  switch (kind) {
    case 'skip':
      return {
        subject: `the delivery of ${day} is skipped${facts.refundedPence === undefined ? '' : `, ${formatGbp(facts.refundedPence)} refunded`}`,
        text:
          facts.refundedPence === undefined
            ? `We will not send the delivery of ${day}, and your card will not be charged for it. The deliveries after it go on as before.`
            : `We will not send the delivery of ${day}. Its payment of ${formatGbp(facts.refundedPence)} is refunded to your card, usually within 5 to 10 working days. The deliveries after it go on as before.`,
      };
    case 'quantity':
      return {
        subject: `now ${facts.bottles} bottles a delivery`,
        text: `From the next delivery not yet paid, each delivery is ${itemLine(facts.bottles)}${facts.previousBottles === undefined ? '' : ` (was ${facts.previousBottles})`}, ${formatGbp(facts.totalPence)} each time. A delivery already paid is sent as it was paid for.`,
      };
    case 'pause':
      return {
        subject: 'paused',
        text: 'Your standing order is paused: no payment is taken and nothing is sent until you resume it from its page. A delivery already paid is still sent.',
      };
    case 'resume':
      return {
        subject: 'resumed',
        text: `Your standing order is running again: ${formatGbp(facts.totalPence)} is taken before each delivery's packing cut-off, as before.`,
      };
    case 'cancel':
      return {
        subject: 'cancelled',
        text: `Your standing order is cancelled${facts.by === 'customer' ? ' as you asked' : ''}: no more payments are taken and no more deliveries are sent. A delivery already paid for is still sent.`,
      };
  }
}

/** To the customer: one change of their standing order, confirmed. */
export function renderStandingChange(
  kind: Exclude<StandingEmailKind, 'cancelNotice'>,
  facts: StandingEmailFacts,
  seller: SellerDetails,
  pageUrl: string | undefined,
): EmailContent {
  const reference = orderReference(facts.subscriptionId);
  const { subject, text } = changeText(kind, facts);
  const blocks: EmailBlock[] = [
    { kind: 'paragraph', text },
    {
      kind: 'rows',
      rows: [
        ['Standing order', reference, { mono: true }],
        ['Item', itemLine(facts.bottles)],
        ['How often', repeatText(facts.repeat)],
        ['Each delivery', formatGbp(facts.totalPence)],
      ],
    },
    ...(pageUrl === undefined || kind === 'cancel'
      ? []
      : [{ kind: 'button' as const, text: 'Manage your standing order', href: pageUrl }]),
  ];
  return customerEmail(
    seller,
    `${seller.name}: your standing order ${reference} is ${subject}`,
    facts.customerName,
    blocks,
  );
}

/** To the merchant: a customer cancelled their standing order from its page. */
export function renderCancelNotice(facts: StandingEmailFacts, shopName: string): EmailContent {
  const reference = orderReference(facts.subscriptionId);
  const rows: EmailRow[] = [
    ['Standing order', reference, { mono: true }],
    ['Was', `${itemLine(facts.bottles)}, ${repeatText(facts.repeat).toLowerCase()}`],
    ['Each delivery', formatGbp(facts.totalPence)],
    ...customerContactRows(facts),
    ['Stripe subscription', facts.subscriptionId],
  ];
  return renderEmail(
    `Standing order cancelled by the customer: ${reference}, ${facts.bottles} bottles`,
    [
      {
        kind: 'paragraph',
        text: `The customer cancelled standing order ${reference} from its page. No more payments are taken; a delivery already paid is still to be sent. The customer has been emailed.`,
      },
      { kind: 'rows', rows },
    ],
    shopName,
  );
}

/** What sending a standing order's emails needs. */
export interface StandingEmailDeps {
  table: ShopTable;
  sender: EmailSender;
  seller: SellerDetails;
  merchantEmail: string;
  orderPage?: OrderPageLinks | undefined;
  now: () => Date;
}

function messageOf(entry: StandingEmailEntry, deps: StandingEmailDeps): OutgoingEmail {
  const { facts } = entry;
  if (entry.kind === 'cancelNotice') {
    return {
      to: deps.merchantEmail,
      replyTo: isSesAcceptableAddress(facts.customerEmail) ? facts.customerEmail : undefined,
      content: renderCancelNotice(facts, deps.seller.shopName),
    };
  }
  const pageUrl = deps.orderPage?.linkFor({
    sessionId: facts.subscriptionId,
    subscriptionId: facts.subscriptionId,
    standingPageKey: facts.pageKey,
  });
  return {
    to: facts.customerEmail,
    replyTo: deps.seller.email,
    content: renderStandingChange(entry.kind, facts, deps.seller, pageUrl),
  };
}

/**
 * Sends every owed email (pending, or a crashed attempt's claim), oldest first, each at most once; safe from
 * any writer. A transient SES failure puts the claim back and throws; a refusal for good is marked `failed`.
 * @returns how many were sent by this call.
 */
export async function sendStandingOrderEmails(
  subscriptionId: string,
  deps: StandingEmailDeps,
): Promise<number> {
  let sent = 0;
  for (const entry of await readStandingEmails(deps.table, subscriptionId)) {
    if (entry.state === 'sent' || entry.state === 'failed') continue;
    const now = deps.now();
    const token = randomUUID();
    const claim = { name: entry.name, token, now, staleBefore: new Date(now.getTime() - STALE_CLAIM_MS) };
    if (!(await claimStandingEmail(deps.table, subscriptionId, claim))) continue;
    try {
      const messageId = await deps.sender.send(messageOf(entry, deps));
      await settleStandingEmail(deps.table, subscriptionId, claim, { state: 'sent', messageId });
      logger.info('Standing order email sent', { subscriptionId, kind: entry.kind, messageId });
      sent += 1;
    } catch (error) {
      if (error instanceof PermanentEmailRefusalError && entry.kind !== 'cancelNotice') {
        await settleStandingEmail(deps.table, subscriptionId, claim, {
          state: 'failed',
          reason: error.reason,
        });
        logger.warn('Standing order email refused for good', { subscriptionId, kind: entry.kind });
        continue;
      }
      await settleStandingEmail(deps.table, subscriptionId, claim, { state: 'pending' });
      throw error;
    }
  }
  return sent;
}
