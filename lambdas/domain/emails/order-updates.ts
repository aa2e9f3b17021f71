import { formatDispatchDate, londonDate } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { royalMailTrackingUrl } from '../../../shared/royal-mail';
import type { DelayReason, EmailFacts, PartRefund, RefundReason } from '../storage/managed-order';
import {
  customerEmail,
  deliverToRow,
  itemLine,
  liveAnimalRights,
  orderPageBlocks,
  type SellerDetails,
} from './common';
import type { EmailBlock, EmailContent, EmailRow } from './render';

/** What to do when live animals arrive: the dispatch email and the order page say the same. */
export const ARRIVAL_ADVICE = [
  'Please open it as soon as it arrives. Keep the bottles upright, out of direct sun and away from heaters and frost, and loosen the caps so the water can breathe. Let the bottles reach room temperature slowly, then add the Daphnia with their water to your culture or tank the same day.',
  'If nobody will be in, tell the courier where to leave the parcel somewhere sheltered and not in the sun.',
] as const;

// Each email renders from the facts its outbox entry holds (storage/outbox.ts): the order as the
// change that caused it wrote it, never a later read.

/** An email about the customer's order: the greeting, what happened, the order page's link and the seller. */
function orderUpdate(
  order: Pick<EmailFacts, 'customerName'>,
  seller: SellerDetails,
  orderPageUrl: string | undefined,
  subject: string,
  body: EmailBlock[],
): EmailContent {
  return customerEmail(seller, `${seller.name}: ${subject}`, order.customerName, [
    ...body,
    ...orderPageBlocks(orderPageUrl),
  ]);
}

/**
 * The dispatch email: the parcel is on its way, it holds live animals, what to do on arrival,
 * and the tracking number when the merchant gave one.
 */
export function renderDispatchEmail(
  order: Omit<EmailFacts<'dispatch'>, 'sessionId' | 'customerEmail'>,
  seller: SellerDetails,
  orderPageUrl?: string,
): EmailContent {
  const rows: EmailRow[] = [
    referenceRow(order),
    ['Item', itemLine(order.bottles)],
    ['Dispatched', formatDispatchDate(londonDate(new Date(order.dispatchedAt ?? order.dispatchDate)))],
    deliverToRow(order),
  ];
  if (order.trackingNumber) rows.push(['Tracking number', order.trackingNumber]);
  return orderUpdate(order, seller, orderPageUrl, `your order ${order.reference} is on its way`, [
    {
      kind: 'paragraph',
      text: `Your order has been dispatched.${order.trackingNumber ? ` You can follow it with the tracking number ${order.trackingNumber}.` : ''}`,
    },
    { kind: 'rows', rows },
    ...trackingLink(order.trackingNumber),
    { kind: 'heading', text: 'This parcel holds live animals' },
    ...ARRIVAL_ADVICE.map((text): EmailBlock => ({ kind: 'paragraph', text })),
    { kind: 'heading', text: 'If something is wrong' },
    ...liveAnimalRights(seller, order.reference),
  ]);
}

const referenceRow = (order: Pick<EmailFacts, 'reference'>): EmailRow => [
  'Order reference',
  order.reference,
  { mono: true },
];

/** The number as a link to Royal Mail's tracking page, when there is one. */
function trackingLink(trackingNumber: string | undefined): EmailBlock[] {
  return trackingNumber
    ? [
        {
          kind: 'link',
          text: `Track ${trackingNumber} with Royal Mail`,
          href: royalMailTrackingUrl(trackingNumber),
        },
      ]
    : [];
}

/** The short update sent when a tracking number is added or corrected after the dispatch email. */
export function renderTrackingUpdateEmail(
  order: Pick<EmailFacts<'trackingUpdate'>, 'reference' | 'customerName'> & {
    trackingNumber?: string | undefined;
  },
  seller: SellerDetails,
  orderPageUrl?: string,
): EmailContent {
  const number = order.trackingNumber ?? '';
  return orderUpdate(order, seller, orderPageUrl, `tracking number for order ${order.reference}`, [
    {
      kind: 'paragraph',
      text: `The tracking number of your order ${order.reference} is ${number}. Please use this one: it replaces any number we sent before.`,
    },
    ...trackingLink(number),
  ]);
}

/** Why a dispatch moved, after "because of": the delay email and the order page. */
export const DELAY_REASON_TEXT: Record<DelayReason, string> = {
  weather: 'freezing or extreme weather, which would put live animals at risk in transit',
  supply: 'a problem with the supply of live cultures',
  other: 'a delay on our side',
};

/** The delay email: the dispatch day has moved, why, and the new date. */
export function renderDelayEmail(
  order: Pick<EmailFacts<'delay'>, 'reference' | 'customerName' | 'bottles' | 'dispatchDate' | 'delayedAt'>,
  previousDate: string,
  reason: DelayReason,
  seller: SellerDetails,
  orderPageUrl?: string,
): EmailContent {
  // The day the merchant moved it: a date in another year then carries its year.
  const today = order.delayedAt === undefined ? undefined : londonDate(new Date(order.delayedAt));
  const newDate = formatDispatchDate(order.dispatchDate, { today });
  return orderUpdate(
    order,
    seller,
    orderPageUrl,
    `new dispatch date for order ${order.reference}: ${newDate}`,
    [
      {
        kind: 'paragraph',
        text: `We have had to move the dispatch of your order from ${formatDispatchDate(previousDate, { today })} to ${newDate}, because of ${DELAY_REASON_TEXT[reason]}.`,
      },
      {
        kind: 'rows',
        rows: [referenceRow(order), ['Item', itemLine(order.bottles)], ['New dispatch date', newDate]],
      },
      {
        kind: 'paragraph',
        text: 'You do not need to do anything. If the new date does not suit you, reply to this email before then: your order has not been dispatched, so we will cancel it and refund you in full.',
      },
    ],
  );
}

/**
 * The merchant's reason and no more: only `doa` says the animals arrived in a bad way, `supply` that we were
 * short; `other` (and a Dashboard refund) claims nothing.
 */
const REFUND_REASON_TEXT: Record<RefundReason | 'stripe', string> = {
  supply: ' because we could not supply live Daphnia of the quality we sell this week',
  doa: ' for animals that did not arrive in good condition',
  other: '',
  stripe: '',
};

/** A part refund's `supply`: the culture was short, so some of the order could not be sent. */
const PART_REFUND_REASON_TEXT: Record<RefundReason, string> = {
  ...REFUND_REASON_TEXT,
  supply: ' because our culture was short and we could not supply all of your order this week',
};

/** Where a refund goes and how long banks take: the same words in every refund email. */
const REFUND_ARRIVES =
  'The refund goes back to the card or account you paid with and usually arrives within 5 to 10 working days, depending on your bank.';

/** The refund email: the full amount, where it goes, and how long banks take. */
export function renderRefundEmail(
  order: Omit<EmailFacts<'refund'>, 'sessionId' | 'customerEmail'>,
  seller: SellerDetails,
  orderPageUrl?: string,
): EmailContent {
  const reason = REFUND_REASON_TEXT[order.refundReason ?? 'other'];
  // After part refunds Stripe refunds only what is left: the email says that figure, not the total.
  const before = order.partlyRefundedPence ?? 0;
  if (before > 0) {
    const rest = order.totalPence - before;
    return orderUpdate(order, seller, orderPageUrl, `refund for order ${order.reference}`, [
      {
        kind: 'paragraph',
        text: `We have refunded the remaining ${formatGbp(rest)} of your order ${order.reference}${reason}, so all of the ${formatGbp(order.totalPence)} you paid has now been refunded. ${REFUND_ARRIVES}`,
      },
      {
        kind: 'rows',
        rows: [
          referenceRow(order),
          ['Refunded now', formatGbp(rest)],
          ['Refunded before', formatGbp(before)],
        ],
      },
      { kind: 'paragraph', text: 'We are sorry for the trouble.' },
    ]);
  }
  return orderUpdate(order, seller, orderPageUrl, `refund for order ${order.reference}`, [
    {
      kind: 'paragraph',
      text: `We have refunded ${formatGbp(order.totalPence)} in full for your order ${order.reference}${reason}. ${REFUND_ARRIVES}`,
    },
    {
      kind: 'rows',
      rows: [
        referenceRow(order),
        ['Item', itemLine(order.bottles)],
        ['Refunded', `${formatGbp(order.totalPence)} (including delivery)`],
      ],
    },
    { kind: 'paragraph', text: 'We are sorry for the trouble.' },
  ]);
}

/** What a part refund was for, in words: "2 bottles and the delivery". */
export function partRefundWhat(part: Pick<PartRefund, 'bottles' | 'delivery'>): string {
  const bottles = part.bottles > 0 ? `${part.bottles} ${part.bottles === 1 ? 'bottle' : 'bottles'}` : '';
  return [bottles, part.delivery ? 'the delivery' : ''].filter(Boolean).join(' and ');
}

/** The part refund email: how much, for what, why; the rest of the order stands. */
export function renderPartRefundEmail(
  order: Pick<EmailFacts<'partRefund'>, 'reference' | 'customerName' | 'totalPence'> & {
    partlyRefundedPence?: number | undefined;
  },
  part: PartRefund,
  seller: SellerDetails,
  orderPageUrl?: string,
): EmailContent {
  const what = partRefundWhat(part);
  return orderUpdate(
    order,
    seller,
    orderPageUrl,
    `${formatGbp(part.pence)} refunded for order ${order.reference}`,
    [
      {
        kind: 'paragraph',
        text: `We have refunded ${formatGbp(part.pence)} for ${what} of your order ${order.reference}${PART_REFUND_REASON_TEXT[part.reason]}. ${REFUND_ARRIVES}`,
      },
      {
        kind: 'rows',
        rows: [
          referenceRow(order),
          ['Refunded', `${formatGbp(part.pence)} for ${what}`],
          [
            'Refunded in all',
            `${formatGbp(order.partlyRefundedPence ?? part.pence)} of ${formatGbp(order.totalPence)}`,
          ],
        ],
      },
      { kind: 'paragraph', text: 'We are sorry for the trouble.' },
    ],
  );
}

/** The short note after a correction of the delivery details: what the parcel will now carry. */
export function renderAddressCorrectedEmail(
  order: Omit<EmailFacts<'addressCorrected'>, 'sessionId' | 'customerEmail'>,
  seller: SellerDetails,
  orderPageUrl?: string,
): EmailContent {
  const rows: EmailRow[] = [referenceRow(order), deliverToRow(order)];
  if (order.customerPhone !== '') rows.push(['Phone', order.customerPhone]);
  rows.push(['Dispatch date', formatDispatchDate(order.dispatchDate)]);
  return orderUpdate(order, seller, orderPageUrl, `delivery details updated for order ${order.reference}`, [
    {
      kind: 'paragraph',
      text: 'We have updated the delivery details of your order. Your parcel will be sent here:',
    },
    { kind: 'rows', rows },
    {
      kind: 'paragraph',
      text: `If you did not ask for this change, reply to this email before ${formatDispatchDate(order.dispatchDate)}.`,
    },
  ]);
}

/** The new link to the order's page, after the merchant revoked the one sent before. */
export function renderPageLinkEmail(
  order: Pick<EmailFacts, 'reference' | 'customerName'>,
  seller: SellerDetails,
  orderPageUrl: string,
): EmailContent {
  return orderUpdate(order, seller, orderPageUrl, `a new link to your order ${order.reference}`, [
    {
      kind: 'paragraph',
      text: 'Here is a new link to follow your order. The link in our earlier emails no longer works.',
    },
    { kind: 'rows', rows: [referenceRow(order)] },
  ]);
}
