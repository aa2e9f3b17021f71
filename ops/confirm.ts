import type { AdminRecordView } from '../shared/admin-responses';
import { formatDispatchDate, formatLondonTime, type IsoDate, londonDate } from '../shared/dispatch';
import { formatGbp } from '../shared/pricing';
import { RefusedError } from '../shared/refusal';
import type { AdminClient } from './admin-client';

// The confirm rule (issue 45, C2): a command that emails, refunds or changes an order first says
// what will happen, then acts only on a "yes" typed at a terminal, or `--yes` for a script.

export interface ConfirmIo {
  out: (line: string) => void;
  isTerminal: boolean;
  ask: (question: string) => Promise<string>;
}

/** Nothing was done, on purpose: not confirmed, or no terminal and no `--yes`. Exit 1. */
export class NothingDoneError extends Error {}

/** In a usage line, so the parser takes them. */
export const CONFIRM_FLAGS = '[--dry-run | --yes]';

export const CONFIRM_HELP = [
  'Asks first: prints what it will do (who is emailed what, which amount, which day), then asks',
  '"Go ahead? [y/N]". Without a terminal (a script) it acts only with --yes; --dry-run prints the plan',
  'and changes nothing.',
];

const NO_TERMINAL =
  'Nothing done: no terminal to ask in. Run again with --yes to do it (or --dry-run to only see it).';

const YES = /^y(es)?$/i;

/** With `--yes` no plan is built: a script's answer says what was done. `--dry-run` resolves false. */
export async function confirmPlan(
  io: ConfirmIo,
  values: Readonly<Record<string, unknown>>,
  plan: () => Promise<readonly string[]>,
): Promise<boolean> {
  const dryRun = values['dry-run'] === true;
  if (values.yes === true && !dryRun) return true;
  for (const line of await plan()) io.out(line);
  if (dryRun) {
    io.out('Dry run: nothing changed.');
    return false;
  }
  if (!io.isTerminal) throw new NothingDoneError(NO_TERMINAL);
  if (YES.test((await io.ask('Go ahead? [y/N] ')).trim())) return true;
  throw new NothingDoneError('Nothing done.');
}

/** C3's refusal: "ABC… is planned for Monday 14 December: dispatch it now only on purpose (early)". */
export function plannedDayOf(refusal: string): string | undefined {
  return /\bis planned for ([A-Z][a-z]+day \d{1,2} [A-Z][a-z]+)/.exec(refusal)?.[1];
}

/** Whether to send again with `early: true` the orders refused as planned for a later day. */
export async function confirmEarly(
  io: ConfirmIo,
  early: boolean,
  refused: ReadonlyArray<{ reference: string; refused: string }>,
): Promise<boolean> {
  if (refused.length === 0) return false;
  if (early) return true;
  if (!io.isTerminal) return false;
  const days = [...new Set(refused.map((r) => plannedDayOf(r.refused) ?? ''))];
  const n = refused.length;
  const orders = n === 1 ? '1 order is' : `${n} orders are`;
  const when = days.length === 1 ? `for ${days[0]}` : `for later days (${days.join(', ')})`;
  const answer = await io.ask(`${orders} planned ${when}: dispatch ${n === 1 ? 'it' : 'them'} now? [y/N] `);
  return YES.test(answer.trim());
}

/** "Monday 30 November 2026": the merchant's lists always say the year. */
export function fullDate(day: string): string {
  return `${formatDispatchDate(day)} ${day.slice(0, 4)}`;
}

function customer(record: Pick<AdminRecordView, 'customerName' | 'customerEmail'>): string {
  return `${record.customerName} <${record.customerEmail}>`;
}

async function recordsOf(
  api: AdminClient,
  references: readonly string[],
): Promise<Array<{ reference: string; record?: AdminRecordView; refused?: string }>> {
  return Promise.all(
    references.map((reference) =>
      api.order({ reference }).then(
        ({ record }) => ({ reference, record }),
        (error: unknown) => {
          if (!(error instanceof RefusedError)) throw error;
          return { reference, refused: error.message };
        },
      ),
    ),
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `mark-dispatched`: who gets the dispatch email, today's date, and orders planned for later. */
export async function planDispatch(
  api: AdminClient,
  now: Date,
  items: ReadonlyArray<{ reference: string; trackingNumber?: string | undefined }>,
  early: boolean,
): Promise<string[]> {
  const [found, week] = await Promise.all([
    recordsOf(
      api,
      items.map((item) => item.reference),
    ),
    api.status(),
  ]);
  const lines = [
    `Mark ${plural(items.length, 'order')} dispatched today, ${fullDate(londonDate(now))}; each customer gets the dispatch email once:`,
  ];
  items.forEach((item, index) => {
    const { record, refused } = found[index] ?? {};
    if (record === undefined) {
      lines.push(`  ${item.reference}: ${refused ?? 'not found'} (refused)`);
      return;
    }
    const tracking = item.trackingNumber ? ` (tracking ${item.trackingNumber})` : '';
    lines.push(
      `  ${record.reference}  ${customer(record)}: ${dispatchNote(record, week.next.date, early)}${tracking}`,
    );
  });
  return lines;
}

function dispatchNote(record: AdminRecordView, comingDay: IsoDate, early: boolean): string {
  if (record.kind === 'request') return 'an order request, not an order (refused)';
  if (record.status === 'refunded') return 'refunded (refused)';
  if (record.status === 'dispatched') return 'already dispatched: nothing sent again';
  // C3: an order planned for a later week goes now only on purpose (asked again, or --early).
  const later = record.dispatchDate > comingDay;
  return `dispatch email${later ? `; planned for ${fullDate(record.dispatchDate)}, so early${early ? '' : ' (asked again)'}` : ''}`;
}

/** `tracking REF NUMBER`: the new number and the one email it sends. */
export async function planTracking(
  api: AdminClient,
  now: Date,
  reference: string,
  trackingNumber: string,
): Promise<string[]> {
  const [{ record }, week] = await Promise.all([api.order({ reference }), api.status()]);
  const who = `${record.reference} (${customer(record)})`;
  if (record.kind === 'request') return [`${who} is an order request, not an order: refused.`];
  if (record.status === 'dispatched')
    return record.trackingNumber === trackingNumber
      ? [`${who} already has tracking ${trackingNumber}: nothing changes, nothing is sent.`]
      : [
          `Tracking of ${who}: ${trackingNumber}${record.trackingNumber ? ` (was ${record.trackingNumber})` : ''}; the customer gets one short email with it.`,
        ];
  if (record.status === 'refunded') return [`${who} was refunded: refused.`];
  // C3: a first number dispatches the order.
  return [
    `${who} is not dispatched yet: marked dispatched today, ${fullDate(londonDate(now))}, with tracking ${trackingNumber}; ${dispatchNote(record, week.next.date, false)}.`,
  ];
}

/** `tracking import FILE`: as the admin API previews it, row by row, refusals with why. */
export async function planTrackingImport(
  api: AdminClient,
  file: string,
  csv: string,
  early: boolean,
): Promise<string[]> {
  const { rows = [] } = await api.trackingImport({ csv, preview: true, ...(early && { early: true }) });
  const emails = rows.filter((row) => row.action === 'dispatch' || row.action === 'trackingUpdate').length;
  return [
    `Import ${file} (${plural(rows.length, 'row')}): ${plural(emails, 'customer')} emailed once each:`,
    ...rows.map((row) => {
      const who = row.customerName ? ` ${row.customerName} <${row.customerEmail ?? ''}>` : '';
      const later = row.plannedFor ? `, planned for ${fullDate(row.plannedFor)}` : '';
      return `  line ${row.line}  ${row.reference || '(no reference)'}${who}  ${row.trackingNumber}: ${IMPORT_ACTION[row.action]}${later}${row.reason ? ` (${row.reason})` : ''}`;
    }),
  ];
}

const IMPORT_ACTION = {
  dispatch: 'marked dispatched today, dispatch email',
  trackingUpdate: 'number corrected, one short update email',
  unchanged: 'unchanged, nothing sent',
  refused: 'refused, nothing sent',
} as const;

/** `delay`: the orders moved, the emails, the new day. */
export async function planDelay(
  api: AdminClient,
  from: IsoDate,
  to: IsoDate,
  reason: string,
): Promise<string[]> {
  const { records } = await api.list({ dispatch: from, status: 'paid' });
  if (records.length === 0)
    return [`No undispatched orders on ${fullDate(from)} to move: the delay will be refused.`];
  return [
    `Move ${plural(records.length, 'order')} from ${fullDate(from)} to ${fullDate(to)} (${reason}); each customer gets one email with the new day:`,
    ...[...records].reverse().map((record) => `  ${record.reference}  ${customer(record)}`),
    `${fullDate(from)} is then closed to new orders (capacity --set reopens it).`,
  ];
}

/** `refund`: the amount, in full or the part, the reason, and the email. */
export async function planRefund(
  api: AdminClient,
  reference: string,
  reason: string,
  part?: { bottles: number; delivery: boolean },
): Promise<string[]> {
  const { record } = await api.order({ reference });
  const who = `${record.reference} (${customer(record)})`;
  if (record.kind === 'request') return [`${who} is an order request, not an order: nothing to refund.`];
  if (record.status === 'refunded') return [`${who} is already refunded: the refund will be refused.`];
  const email = `the customer gets the refund email (reason ${reason})`;
  if (part === undefined) {
    const whole = record.refundablePence === record.totalPence;
    return [
      `Refund ${who} ${whole ? `${formatGbp(record.totalPence)} in full` : `the remaining ${formatGbp(record.refundablePence)} of ${formatGbp(record.totalPence)}`} through Stripe; ${email}.`,
    ];
  }
  // Priced as the admin API prices it: the bottles at the price paid, the delivery as paid.
  const pence = part.bottles * record.unitPricePence + (part.delivery ? record.shippingPence : 0);
  const what = [part.bottles > 0 && plural(part.bottles, 'bottle'), part.delivery && 'the delivery']
    .filter(Boolean)
    .join(' and ');
  return [
    `Refund ${who} ${formatGbp(pence)} for ${what} through Stripe (${formatGbp(record.refundablePence)} of ${formatGbp(record.totalPence)} not refunded yet); ${email}.`,
  ];
}

/** `address`: the details before and after, and the one email. */
export function planAddress(
  record: AdminRecordView,
  after: { address: string; postcode: string; phone: string },
): string[] {
  const details = (d: { address: string; postcode: string; phone: string }) =>
    `${d.address.replace(/\n/g, ', ')} ${d.postcode}${d.phone ? `  phone ${d.phone}` : ''}`;
  return [
    `Correct the delivery details of ${record.reference} (${customer(record)}), dispatch ${fullDate(record.dispatchDate)}:`,
    `  now:   ${details({ address: record.deliveryAddress, postcode: record.postcode, phone: record.customerPhone })}`,
    `  after: ${details(after)}`,
    `The customer gets one email at ${record.customerEmail} confirming the new details.`,
  ];
}

/** A plan of one line about one order, as the admin API has it. */
const planOfOrder =
  (line: (record: AdminRecordView) => string) =>
  async (api: AdminClient, reference: string): Promise<string[]> => [
    line((await api.order({ reference })).record),
  ];

export const planRevokeLink = planOfOrder(
  (record) =>
    `Revoke the order page link of ${record.reference} (${customer(record)}): every link sent so far stops opening; a new link is emailed to ${record.customerEmail}.`,
);

export const planRequestPayment = planOfOrder(
  (record) =>
    `Email ${record.reference} (${customer(record)}) a Stripe payment link for ${formatGbp(record.totalPence)} (${plural(record.bottles, 'bottle')}, dispatch ${fullDate(record.dispatchDate)}), valid 23 hours.`,
);

export const planDecline = planOfOrder(
  (record) =>
    `Decline ${record.reference} (${customer(record)}, ${plural(record.bottles, 'bottle')} for ${fullDate(record.dispatchDate)}): the customer gets one email saying so.`,
);

/** `pause`: the mode, the message, and the checkouts closed. */
export async function planPause(
  api: AdminClient,
  now: Date,
  mode: 'paused' | 'requests',
  message: string | undefined,
): Promise<string[]> {
  const { shop } = await api.status();
  const was = `now ${shop.mode}${shop.modeSince ? ` since ${formatLondonTime(shop.modeSince, now)}` : ''}`;
  return [
    mode === 'paused'
      ? `Pause the shop (${was}): checkout is refused with "${message ?? ''}"; open Stripe checkouts are closed, payment links included; standing orders take no payment until resume. No customer is emailed.`
      : `Take order requests without payment (${was})${message ? ` with "${message}"` : ''}; open Stripe checkouts are closed, payment links sent with request-payment stay open; standing orders take no payment until resume. No customer is emailed.`,
  ];
}

/** `resume`: the mode left. */
export async function planResume(api: AdminClient): Promise<string[]> {
  const { shop } = await api.status();
  return [
    `Open the shop (now ${shop.mode}${shop.message ? `, "${shop.message}"` : ''}): checkout takes paid orders again and standing orders their payments. No customer is emailed.`,
  ];
}

/** `capacity --set`: the limit before and after, and a day already sold past it. */
export async function planCapacity(
  api: AdminClient,
  date: IsoDate | undefined,
  bottles: number | null | 'default',
): Promise<string[]> {
  const { settings, rows } = await api.capacity();
  const limit = (n: number | null | undefined) =>
    n === null || n === undefined ? 'no limit' : `at most ${plural(n, 'bottle')}`;
  if (date === undefined)
    return [
      `Every dispatch day: ${limit(bottles === 'default' ? null : bottles)} (now ${limit(settings.weekly)}), except days set on their own. No customer is emailed.`,
    ];
  const own = Object.hasOwn(settings.days, date);
  const now = own ? settings.days[date] : settings.weekly;
  const row = rows.find((r) => r.date === date);
  const after = bottles === 'default' ? settings.weekly : bottles;
  const sold =
    row !== undefined && after !== null && after !== undefined && row.sold > after
      ? ` It has sold ${plural(row.sold, 'bottle')} already: nothing is cancelled, it sells no more.`
      : '';
  return [
    `${fullDate(date)}: ${bottles === 'default' ? `back to the weekly default, ${limit(settings.weekly)}` : limit(bottles)} (now ${limit(now)}${own ? '' : ', the weekly default'}).${sold} No customer is emailed.`,
  ];
}
