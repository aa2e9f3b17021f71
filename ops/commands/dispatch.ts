import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { AdminOrderView } from '../../shared/admin-responses';
import { formatLondonTime } from '../../shared/dispatch';
import { RefusedError } from '../../shared/refusal';
import { AdminUnavailableError } from '../admin-client';
import {
  CONFIRM_FLAGS,
  CONFIRM_HELP,
  confirmEarly,
  confirmPlan,
  fullDate,
  planDispatch,
  plannedDayOf,
  planTracking,
  planTrackingImport,
} from '../confirm';
import {
  dispatchDayFor,
  IncompleteError,
  orderIfAnswered,
  type ShopCommand,
  text,
  UsageError,
} from './command';

/* Dispatching: the day's Click & Drop CSV and packing slips, marking orders dispatched, tracking numbers. */

/** One `mark-dispatched` or `tracking import` line for an order the API marked. */
function dispatchedLine(
  result: { changed: boolean; email: string; record: AdminOrderView },
  now: Date,
): string {
  const order = result.record;
  return result.changed
    ? `${order.reference}: dispatched${order.trackingNumber ? ` (tracking ${order.trackingNumber})` : ''}; dispatch email ${result.email === 'sent' ? 'sent' : 'not sent (already sent or being sent)'}.`
    : `${order.reference}: already dispatched${order.dispatchedAt ? ` on ${formatLondonTime(order.dispatchedAt, now)}` : ''}; ${result.email === 'sent' ? 'its dispatch email, not sent before, sent now' : 'nothing sent again'}.`;
}

/** The Click & Drop CSV's rows whose City is empty: Click & Drop will not import them. */
function rowsWithoutTown(csv: string): Array<{ reference: string; address: string; postcode: string }> {
  const rows: Array<Record<string, string>> = parseCsv(csv, { columns: true, skip_empty_lines: true });
  return rows.flatMap((row) => {
    const values = Object.entries(row);
    const cell = (pattern: RegExp) => values.find(([name]) => pattern.test(name))?.[1] ?? '';
    if (cell(/^city/i) !== '') return [];
    return [
      {
        reference: cell(/order reference/i),
        address: [cell(/address line 1/i), cell(/address line 2/i), cell(/address line 3/i)]
          .filter((part) => part !== '')
          .join(', '),
        postcode: cell(/postcode/i),
      },
    ];
  });
}

export const dispatchListCommand: ShopCommand = {
  summary: 'The orders to pack for a dispatch day: Click & Drop CSV, packing slips, total bottles',
  usage: 'dispatch-list [--date next|YYYY-MM-DD] [--out DIR]',
  details: [
    "Writes click-and-drop-YYYY-MM-DD.csv (Royal Mail Click & Drop's import headings, one parcel a row)",
    'and packing-slips-YYYY-MM-DD.html (print it; one A6 slip per order) into DIR (default: ./dispatch).',
    'Names the orders whose address has no town: fill in City before importing them.',
    "A date in a bank-holiday week picks that week's dispatch day (Tuesday after Easter Monday).",
  ],
  positionals: 'none',
  async run(shop, values, _p, io) {
    const { day, note } = await dispatchDayFor(values.date, '--date', shop);
    if (note) io.out(note);
    const [csv, slips, { records }] = await Promise.all([
      shop.api.file('dispatchCsv', day),
      shop.api.file('packingSlips', day),
      shop.api.list({ dispatch: day, status: 'paid' }),
    ]);
    // Packed in the order they were paid, as the CSV and the slips list them.
    const orders = [...records].reverse();
    const bottles = orders.reduce((sum, order) => sum + order.bottles, 0);
    // Customers' addresses stay out of the repository: ./dispatch is in .gitignore.
    const dir = resolve(io.cwd, text(values.out) ?? 'dispatch');
    mkdirSync(dir, { recursive: true });
    const csvPath = join(dir, `click-and-drop-${day}.csv`);
    const htmlPath = join(dir, `packing-slips-${day}.html`);
    writeFileSync(csvPath, csv);
    writeFileSync(htmlPath, slips);
    io.out(
      `Dispatch ${fullDate(day)}: ${orders.length} ${orders.length === 1 ? 'order' : 'orders'}, ${bottles} bottles to prepare.`,
    );
    for (const order of orders)
      io.out(`  ${order.reference}  ${String(order.bottles).padStart(2)} bottles  ${order.postcode}`);
    io.out(`Click & Drop CSV: ${csvPath}`);
    io.out(`Packing slips:    ${htmlPath}`);
    const townless = rowsWithoutTown(csv);
    if (townless.length > 0) {
      io.out('No town in the address (Click & Drop needs City): fill it in before importing:');
      for (const row of townless) io.out(`  ${row.reference}  ${row.address}  ${row.postcode}`);
    }
    if (orders.length > 0)
      io.out('Post them Royal Mail 1st Class or faster: live animals may not go 2nd Class.');
  },
};

export const markDispatchedCommand: ShopCommand = {
  summary: 'Mark orders dispatched and email each customer once',
  usage: `mark-dispatched <reference>[=TRACKING]... [--tracking NUMBER] [--early] ${CONFIRM_FLAGS}`,
  details: [
    'Run it again safely: an order already dispatched is not emailed again.',
    'Each order its own number: mark-dispatched AB12CD34EF56=AB123456789GB GH78IJ90KL12=CD987654321GB.',
    '--tracking applies to one reference at a time. A new number for a dispatched order corrects it.',
    'An order planned for a later dispatch day goes now only on purpose: asked at a terminal, else --early.',
    ...CONFIRM_HELP,
  ],
  positionals: 'many',
  async run(shop, values, words, io) {
    const tracking = text(values.tracking);
    if (tracking !== undefined && words.length > 1)
      throw new UsageError('--tracking goes with one reference at a time.');
    const items = words.map((word) => {
      const [reference = word, own] = word.split('=', 2);
      return { reference, trackingNumber: own ?? tracking };
    });
    const early = values.early === true;
    if (!(await confirmPlan(io, values, () => planDispatch(shop.api, io.now(), items, early)))) return;
    let refused = 0;
    const emailsNotSent: string[] = [];
    let emailFailure = '';
    // One call an order, as the orders are independent: one that fails leaves the others to go on.
    const send = async (item: (typeof items)[number], sendEarly: boolean) => {
      const { reference, trackingNumber } = item;
      const planned: Array<{ reference: string; refused: string; item: typeof item }> = [];
      try {
        const { results } = await shop.api.dispatch({
          references: [reference],
          ...(trackingNumber !== undefined && { trackingNumber }),
          ...(sendEarly && { early: true }),
        });
        for (const result of results) {
          if (!('refused' in result)) io.out(dispatchedLine(result, io.now()));
          else if (!sendEarly && plannedDayOf(result.refused) !== undefined)
            planned.push({ ...result, item });
          else {
            refused += 1;
            io.err(`${result.reference}: ${result.refused}`);
          }
        }
      } catch (error) {
        if (!(error instanceof AdminUnavailableError)) throw error;
        // Dispatched, then the email failed (SES down): say so, and go on with the other orders.
        const order = await orderIfAnswered(shop, reference);
        const email = order?.emails.find((e) => e.kind === 'dispatch');
        if (order?.kind !== 'order' || order.status !== 'dispatched' || email?.state === 'sent') throw error;
        emailsNotSent.push(order.reference);
        emailFailure = 'the admin API could not send it';
        io.out(`${order.reference}: dispatched; dispatch email NOT sent (${emailFailure}).`);
      }
      return planned;
    };
    const planned: Awaited<ReturnType<typeof send>> = [];
    for (const item of items) planned.push(...(await send(item, early)));
    // Orders planned for a later day (C3): asked about once, then sent again on purpose.
    if (await confirmEarly(io, early, planned)) {
      for (const { item } of planned) await send(item, true);
    } else if (planned.length > 0) {
      refused += planned.length;
      for (const result of planned) io.err(`${result.reference}: ${result.refused}`);
      io.err(`Run again with --early to dispatch ${planned.length === 1 ? 'it' : 'them'} now.`);
    }
    if (emailsNotSent.length > 0) {
      const list = emailsNotSent.join(' ');
      throw new IncompleteError(
        `Marked dispatched, but the dispatch email could not be sent for ${list} (${emailFailure}). Nothing retries it by itself: run mark-dispatched ${list} again once email works (each email is sent once).${refused > 0 ? ` ${refused} of ${words.length} not marked dispatched.` : ''}`,
      );
    }
    if (refused > 0) throw new RefusedError(`${refused} of ${words.length} not marked dispatched.`);
  },
};

export const trackingCommand: ShopCommand = {
  summary: "Add or correct a dispatched order's tracking number, or import Click & Drop's export",
  usage: `tracking <reference> <number> | tracking import <file.csv> [--early] ${CONFIRM_FLAGS}`,
  details: [
    'tracking REF NUMBER: the customer gets one short email with the new number (none if unchanged).',
    "tracking import FILE: the CSV Click & Drop exports after printing labels; each row's order",
    '(by Order reference) is marked dispatched with its number, emailed once; rows matching none are listed.',
    'An order planned for a later dispatch day goes now only on purpose: asked at a terminal, else --early.',
    ...CONFIRM_HELP,
  ],
  positionals: 'many',
  async run(shop, values, words, io) {
    const [first = '', second, ...rest] = words;
    if (second === undefined || rest.length > 0)
      throw new UsageError('Give a reference and a number, or import and a file.');
    const early = values.early === true;
    if (first === 'import') {
      const csv = readFileSync(resolve(io.cwd, second), 'utf8');
      if (!(await confirmPlan(io, values, () => planTrackingImport(shop.api, second, csv, early)))) return;
      const result = await shop.api.trackingImport({ csv, ...(early && { early: true }) });
      const planned = result.results.flatMap((done) =>
        'refused' in done && plannedDayOf(done.refused) !== undefined ? [done] : [],
      );
      // Orders planned for a later day (C3): asked about once; the file sent again dispatches
      // them, and what it had done already is done, not done twice.
      const again = (await confirmEarly(io, early, planned))
        ? (await shop.api.trackingImport({ csv, early: true })).results.filter((done) =>
            planned.some((p) => p.reference === done.reference),
          )
        : [];
      let matched = 0;
      for (const done of [...result.results, ...again]) {
        if ('refused' in done) {
          if (again.length > 0 && planned.includes(done)) continue;
          io.err(`${done.reference}: ${done.refused}`);
          continue;
        }
        matched += 1;
        io.out(
          `${done.reference}: ${done.changed ? 'dispatched' : 'already dispatched'} (tracking ${done.record.trackingNumber ?? 'none'}); ${done.email === 'sent' ? 'email sent' : 'nothing sent again'}.`,
        );
      }
      if (planned.length > 0 && again.length === 0)
        io.err(`Run again with --early to dispatch ${planned.length === 1 ? 'it' : 'them'} now.`);
      for (const row of result.unmatched)
        io.out(
          `Line ${row.line} not matched (${row.reference || 'no reference'} ${row.trackingNumber}): ${row.reason}`,
        );
      io.out(`${matched} matched, ${result.unmatched.length} not matched.`);
      return;
    }
    if (!(await confirmPlan(io, values, () => planTracking(shop.api, io.now(), first, second)))) return;
    const track = (sendEarly: boolean) =>
      shop.api.tracking({ reference: first, trackingNumber: second, ...(sendEarly && { early: true }) });
    // An order planned for a later day (C3) is refused as a whole: asked about, then sent again.
    const result = await track(early).catch(async (error: unknown) => {
      if (early || !(error instanceof RefusedError) || plannedDayOf(error.message) === undefined) throw error;
      if (!(await confirmEarly(io, early, [{ reference: first, refused: error.message }])))
        throw new RefusedError(`${error.message} Run again with --early to dispatch it now.`);
      return track(true);
    });
    io.out(
      result.changed
        ? `${result.reference}: tracking ${result.record.trackingNumber}; customer ${result.email === 'sent' ? 'emailed' : 'not emailed'}.`
        : `${result.reference}: already has tracking ${result.record.trackingNumber}; nothing sent.`,
    );
  },
};
