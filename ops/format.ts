import type { ShopRecord } from '../lambdas/domain/storage/records';
import { emailAttributes } from '../lambdas/domain/storage/send-once';
import { formatLondonTime } from '../shared/dispatch';
import { EMAIL_KINDS, type EmailKind } from '../shared/email-kinds';
import { formatGbp } from '../shared/pricing';

/** One row of `list`: the columns the merchant reads, as plain values. */
export interface ListRow {
  reference: string;
  kind: 'order' | 'request';
  paid: string;
  name: string;
  postcode: string;
  bottles: number;
  totalPence: number;
  dispatchDate: string;
  status: string;
  /** Email kinds sent, and those due but not sent (marked `!`). */
  emails: string;
  /** An order paid while the shop was paused: the merchant refunds or delays it (ADR 0021). */
  /** Refunded in part so far (pence): the shop's part refunds and the Stripe Dashboard's. */
  partlyRefundedPence?: number;
  placedWhilePaused?: true;
}

const EMAIL_LABELS: Record<EmailKind, string> = {
  confirmation: 'confirmation',
  merchantNotice: 'notice',
  dispatch: 'dispatch',
  delay: 'delay',
  refund: 'refund',
  trackingUpdate: 'tracking-update',
  partRefund: 'part-refund',
  requestReceived: 'received',
  requestNotice: 'notice',
  paymentInvitation: 'invitation',
  decline: 'decline',
  debitFailed: 'debit-failed',
  debitFailedNotice: 'debit-failed-notice',
  addressCorrected: 'address-corrected',
};

/**
 * "confirmation notice dispatch!": each email the record has, `!` when it is due and not yet sent,
 * `(refused)` when SES refused the address for good, `(superseded)` when it will never be sent.
 */
function emailSummary(item: Record<string, unknown>): string {
  return EMAIL_KINDS.flatMap((kind) => {
    const state = item[emailAttributes(kind).state];
    if (state === undefined) return [];
    // `failed`: SES refused the customer's address for good (money's CustomerEmailRefused).
    // `superseded`: never sent, the order moved on first (refunded before its dispatch email).
    const mark =
      state === 'sent'
        ? ''
        : state === 'failed'
          ? '(refused)'
          : state === 'superseded'
            ? '(superseded)'
            : '!';
    return [`${EMAIL_LABELS[kind]}${mark}`];
  }).join(' ');
}

export function toListRow(record: ShopRecord): ListRow {
  // A request has no payment: it lists at the time it was made, and its status says what it is.
  const [item, paid, status] =
    record.kind === 'order'
      ? [record.order, record.order.paidAt, record.order.status]
      : [record.request, record.request.createdAt, `request:${record.request.status}`];
  return {
    reference: item.reference,
    kind: record.kind,
    paid,
    name: item.customerName,
    postcode: item.postcode,
    bottles: item.bottles,
    totalPence: item.totalPence,
    dispatchDate: item.dispatchDate,
    status,
    emails: emailSummary(item),
    ...(record.kind === 'order' && record.order.placedWhilePaused && { placedWhilePaused: true }),
    ...(record.kind === 'order' &&
      (record.order.partlyRefundedPence ?? 0) > 0 && {
        partlyRefundedPence: record.order.partlyRefundedPence,
      }),
  };
}

/** Cuts a value to `width` characters on one line, so one odd name cannot break the table. */
function cell(value: string, width: number): string {
  const line = value.replace(/\s+/g, ' ');
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** A readable fixed-width table of list rows; times as London's clock read them, seen from `now`. */
export function formatTable(rows: readonly ListRow[], now: Date): string {
  const header = [
    'REFERENCE',
    'PAID',
    'NAME',
    'POSTCODE',
    'BOTTLES',
    'TOTAL',
    'DISPATCH',
    'STATUS',
    'EMAILS',
  ];
  const body = rows.map((row) => [
    row.reference,
    row.kind === 'request' ? `(req) ${formatLondonTime(row.paid, now)}` : formatLondonTime(row.paid, now),
    cell(row.name, 24),
    row.postcode,
    String(row.bottles),
    formatGbp(row.totalPence),
    row.dispatchDate,
    [row.status, row.placedWhilePaused && '(while paused)', row.partlyRefundedPence && '(refunded in part)']
      .filter(Boolean)
      .join(' '),
    row.emails,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 4 || i === 5 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...body.map(line)].join('\n');
}
