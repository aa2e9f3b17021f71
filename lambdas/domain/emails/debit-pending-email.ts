import { formatDispatchDate, type IsoDate } from '../../../shared/dispatch';
import { formatGbp } from '../../../shared/pricing';
import { customerEmail, itemLine, orderPageBlocks, type SellerDetails } from './common';
import type { EmailContent } from './render';

/** What the email to a customer whose delayed payment waits for the bank shows: its record's facts. */
export interface PendingDebitFacts {
  reference: string;
  customerName: string;
  bottles: number;
  totalPence: number;
  /** The day it goes if the bank pays in time: the success page's and the confirmation's (ADR 0047). */
  dispatchDate: IsoDate;
}

/**
 * Sent at once when a checkout completes with the money still with the bank: received, waiting, reference,
 * the day it goes and the page. Never "paid" or "confirmed": the bank can still refuse the debit.
 */
export function renderDebitPending(
  debit: PendingDebitFacts,
  seller: SellerDetails,
  orderPageUrl: string | undefined,
): EmailContent {
  const dispatch = formatDispatchDate(debit.dispatchDate);
  return customerEmail(
    seller,
    `${seller.name}: order ${debit.reference} received, waiting for your bank`,
    debit.customerName,
    [
      {
        kind: 'paragraph',
        text: `Thank you for your order from ${seller.name}. We have received your order ${debit.reference} and your Direct Debit instruction, and we are now waiting for your bank. A Bacs Direct Debit takes up to 7 working days to be collected; nothing is confirmed until your bank has paid.`,
      },
      {
        kind: 'rows',
        rows: [
          ['Order reference', debit.reference, { mono: true }],
          ['Item', itemLine(debit.bottles)],
          ['Total', `${formatGbp(debit.totalPence)} (to be collected by Direct Debit)`],
          ['Dispatch if your bank pays', dispatch],
        ],
      },
      {
        kind: 'paragraph',
        text: `We are holding your bottles. If your bank pays, we dispatch your order on ${dispatch} by Royal Mail 1st Class and email you a confirmation. If your bank turns the Direct Debit down, we email you too: nothing is taken and the order is cancelled. You do not need to do anything or order again.`,
      },
      // The same link the confirmation will carry: the page follows the order from here.
      ...orderPageBlocks(orderPageUrl),
    ],
  );
}
