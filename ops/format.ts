import type { AdminRecordView } from '../shared/admin-responses';
import { formatLondonTime } from '../shared/dispatch';
import type { RecordEmailKind } from '../shared/email-kinds';
import { foldReference } from '../shared/order-reference';
import { formatGbp } from '../shared/pricing';

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
  /** The shop's part refunds and the Stripe Dashboard's. */
  partlyRefundedPence?: number;
  /** The merchant refunds or delays such an order (ADR 0021). */
  placedWhilePaused?: true;
  holdsUntil?: string;
}

const EMAIL_LABELS: Record<RecordEmailKind, string> = {
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
  addressCorrected: 'address-corrected',
  pageLink: 'page-link',
};

/** When `query` matched only as a person may misread it (O for 0, I or L for 1): check which is meant. */
export function looseReadingNote(
  query: string,
  rows: readonly Pick<ListRow, 'reference'>[],
): string | undefined {
  const wanted = query.trim();
  const loose = rows.filter(
    (row) =>
      row.reference.toLowerCase() !== wanted.toLowerCase() &&
      foldReference(row.reference) === foldReference(wanted),
  );
  if (loose.length === 0) return undefined;
  const candidates = loose.length === 1 ? '1 candidate' : `${loose.length} candidates`;
  return `Reference "${wanted}" read loosely (O as 0, I and L as 1, any case): ${candidates}; check which is meant.`;
}

/** "confirmation notice dispatch!": `!` due and not yet sent, `(refused)` when SES refused it for good. */
function emailSummary(record: AdminRecordView): string {
  return record.emails
    .map(
      ({ kind, state }) =>
        `${EMAIL_LABELS[kind]}${state === 'sent' ? '' : state === 'failed' ? '(refused)' : '!'}`,
    )
    .join(' ');
}

export function toListRow(record: AdminRecordView): ListRow {
  // A request has no payment: it lists at the time it was made, and its status says what it is.
  return {
    reference: record.reference,
    kind: record.kind,
    paid: record.kind === 'order' ? record.paidAt : record.createdAt,
    name: record.customerName,
    postcode: record.postcode,
    bottles: record.bottles,
    totalPence: record.totalPence,
    dispatchDate: record.dispatchDate,
    status: record.kind === 'order' ? record.status : `request:${record.status}`,
    emails: emailSummary(record),
    ...(record.kind === 'order' && record.placedWhilePaused && { placedWhilePaused: true }),
    ...(record.kind === 'order' &&
      (record.partlyRefundedPence ?? 0) > 0 && { partlyRefundedPence: record.partlyRefundedPence }),
    ...(record.kind === 'request' && record.holdsUntil !== undefined && { holdsUntil: record.holdsUntil }),
  };
}

/** One odd name cannot break the table. */
function cell(value: string, width: number): string {
  const line = value.replace(/\s+/g, ' ');
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** Once lapsed, the bottles are back on sale though the request waits: worth knowing before inviting payment. */
function holdNote(holdsUntil: string, now: Date): string {
  const when = formatLondonTime(holdsUntil, now);
  return Date.parse(holdsUntil) > now.getTime() ? `holds until ${when}` : `hold lapsed ${when}`;
}

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
    [
      row.status,
      row.placedWhilePaused && '(while paused)',
      row.partlyRefundedPence && '(refunded in part)',
      row.holdsUntil !== undefined && holdNote(row.holdsUntil, now),
    ]
      .filter(Boolean)
      .join(' '),
    row.emails,
  ]);
  return alignColumns([header, ...body], [4, 5]).join('\n');
}

export function alignColumns(lines: readonly string[][], right: readonly number[] = []): string[] {
  const widths = (lines[0] ?? []).map((_, i) => Math.max(...lines.map((line) => (line[i] ?? '').length)));
  return lines.map((line) =>
    line
      .map((c, i) => (right.includes(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
