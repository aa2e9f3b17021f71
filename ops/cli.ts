import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { parse as parseCsv } from 'csv-parse/sync';
import type { AdminCapacityRow, AdminDaySummary, AdminOrderView } from '../shared/admin-responses';
import { describeClosedDay, reopeningValue } from '../shared/closed-day';
import {
  dispatchDayOfWeekOf,
  firstComingDispatchDay,
  formatDispatchDate,
  formatLondonTime,
  type IsoDate,
  isCalendarDate,
  londonDate,
  nonWorkingDayKind,
  packingDay,
} from '../shared/dispatch';
import { describeOverLimit } from '../shared/over-limit';
import { formatGbp } from '../shared/pricing';
import { RefusedError } from '../shared/refusal';
import type { SHOP_MODES } from '../shared/shop-status';
import {
  type AdminClient,
  AdminUnavailableError,
  createAdminClient,
  InvalidInputError,
  SignedOutError,
} from './admin-client';
import {
  CONFIRM_FLAGS,
  CONFIRM_HELP,
  confirmEarly,
  confirmPlan,
  fullDate,
  NothingDoneError,
  planAddress,
  planCapacity,
  planDecline,
  planDelay,
  planDispatch,
  plannedDayOf,
  planPause,
  planRefund,
  planRequestPayment,
  planResume,
  planRevokeLink,
  planTracking,
  planTrackingImport,
} from './confirm';
import { formatTable, looseReadingNote, toListRow } from './format';
import {
  type MerchantCommand,
  type MerchantPoolTarget,
  merchantCommand,
  merchantPoolTarget,
} from './merchant-command';
import { type ApiTarget, login, logout, signedInTransport } from './sign-in';
import { apiTarget } from './stack-target';
import {
  chooseTarget,
  describeChoice,
  readRememberedTarget,
  rememberTarget,
  TARGET_FILE_NAME,
  type TargetChoice,
} from './target-choice';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

/** Output and clock of one run: the process's in normal use, a test's in the tests. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
  cwd: string;
  /**
   * Where the target is remembered (main.ts: the repository's .orders-target.json); without it,
   * as in most tests, nothing is remembered and nothing is read.
   */
  targetFile?: string;
  /** Whether stdin and stdout are a terminal: the confirm rule asks there (ops/confirm.ts). */
  isTerminal: boolean;
  /**
   * Asks at the terminal and resolves with the line typed (main.ts: node:readline); an aborted
   * signal withdraws the question (login: the browser came back by itself) and rejects.
   */
  ask(question: string, options?: { signal?: AbortSignal }): Promise<string>;
}

/** The shop a command acts on: the admin API, signed in as a merchant. */
export interface Shop {
  description: string;
  api: AdminClient;
}

interface ShopCommand {
  summary: string;
  usage: string;
  /** Extra lines of --help. */
  details: string[];
  positionals: 'none' | 'one' | 'many';
  run(shop: Shop, values: Values, positionals: string[], io: CliIo): Promise<void>;
}

/** `login` and `logout`: on the target's sign-in, not on the shop. */
interface SignInCommand {
  summary: string;
  usage: string;
  details: string[];
  positionals: 'none';
  runSignIn(target: ApiTarget, io: CliIo): Promise<void>;
}

/** A command on the shop's orders, the sign-in, or `merchant`, on the stage's user pool. */
type Command = ShopCommand | SignInCommand | MerchantCommand;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A mistake in how the command was typed: printed with the command's usage. */
class UsageError extends Error {}

/**
 * A command that could not finish because a service failed (email): its message, one line, says
 * what was done and what was not, and what to run next. Printed as it is; exit 1.
 */
class IncompleteError extends Error {}

/**
 * A date the CLI must resolve itself (a weekend day to its dispatch day, `next`): the rest of
 * every value is checked once, by the admin API's shared schema.
 */
function isoDate(value: unknown, flag: string): IsoDate {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new UsageError(`${flag} needs a date as YYYY-MM-DD.`);
  if (!isCalendarDate(value)) throw new UsageError(`${flag} ${value} is not a date: no such day.`);
  return value;
}

/**
 * The dispatch day a `--date`/`--dispatch` value means; `next` (or none) is the day the merchant
 * packs for next, as the admin API's status says it.
 */
async function dispatchDayFor(
  value: unknown,
  flag: string,
  shop: Shop,
): Promise<{ day: IsoDate; note?: string }> {
  if (value === undefined || value === 'next') return { day: (await shop.api.status()).next.date };
  const asked = isoDate(value, flag);
  const day = packingDay(asked);
  return day === asked
    ? { day }
    : {
        day,
        note: `${formatDispatchDate(asked)} is ${nonWorkingDayKind(asked)}: using the dispatch day ${formatDispatchDate(day)}.`,
      };
}

/** `--set`'s value as POST capacity's `bottles`: a number, null (none) or `default`. */
function capacityValue(value: unknown): number | null | 'default' {
  if (value === 'none') return null;
  if (value === 'default') return value;
  if (typeof value === 'string' && /^\d{1,5}$/.test(value)) return Number(value);
  if (typeof value === 'string' && /^[-+]?\d*[.,]?\d+$/.test(value))
    throw new UsageError(
      `--set ${value}: the bottles must be a whole number, 0 or more (or none, or default with --date).`,
    );
  throw new UsageError('--set needs a number of bottles, none, or default (with --date).');
}

/** What of a day's answer the capacity lines read: the capacity route's rows and the status's days alike. */
type DayCapacity = Pick<AdminCapacityRow, 'date' | 'capacity' | 'sold' | 'reserved' | 'left'>;

/** "; capacity 60 bottles, 12 left" for a day with a limit; nothing for a day without one. */
function capacityNote(row: DayCapacity): string {
  return row.capacity === null ? '' : `; capacity ${row.capacity} bottles, ${row.left ?? 0} left`;
}

/** Under a list: each coming day's capacity, or that it has no limit. */
function capacityLines(rows: readonly DayCapacity[]): string[] {
  return rows.map(
    (row) =>
      `Capacity ${fullDate(row.date)}: ${row.capacity === null ? `no limit (${row.sold} sold, ${row.reserved} reserved)` : `${row.capacity} bottles, ${row.sold} sold, ${row.reserved} reserved, ${row.left ?? 0} left`}.`,
  );
}

/** The capacity list: one line a day (each dispatch day, and any other holding orders), with the year. */
function capacityTable(rows: readonly AdminCapacityRow[]): string {
  const header = ['DISPATCH DAY', 'CAPACITY', 'RESERVED', 'SOLD', 'LEFT', 'ORDERS', 'BOTTLES'];
  const lines = rows.map((row) => [
    fullDate(row.date),
    row.capacity === null ? 'no limit' : String(row.capacity),
    String(row.reserved),
    String(row.sold),
    row.left === null ? '-' : row.left === 0 ? '0 (full)' : String(row.left),
    String(row.orders),
    String(row.bottles),
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...lines.map((line) => (line[i] ?? '').length)),
  );
  return [header, ...lines]
    .map((line) =>
      line
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

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

const COMMANDS: Record<string, Command> = {
  login: {
    summary: 'Sign in as a merchant (in your browser); later commands act as you',
    usage: 'login',
    details: [
      'Prints the sign-in address and opens it when a browser is at hand; the sign-in comes back to this',
      'machine (http://localhost:47815/callback, or the next port). Over SSH, paste back the address the',
      'browser ended on when asked, or forward the port first: ssh -L 47815:localhost:47815 <server>.',
      'The tokens are kept, for this target only, in ~/.config/live-aquatics-orders (or $XDG_CONFIG_HOME),',
      'readable by you alone, and renewed.',
      "On a stage, the site is found from ORDERS_SITE_URL, the stage's domainName in cdk.json, or its stack.",
    ],
    positionals: 'none',
    runSignIn: (target, io) => login(target, io),
  },
  logout: {
    summary: 'Sign out: the sign-in is revoked and forgotten',
    usage: 'logout',
    details: [],
    positionals: 'none',
    runSignIn: (target, io) => logout(target, io),
  },
  list: {
    summary: 'Orders and order requests, newest first',
    usage: 'list [--status S] [--dispatch next|YYYY-MM-DD] [--weeks N] [--json]',
    details: [
      'Without --dispatch: every dispatch day from --weeks (default 8) weeks back to 8 weeks ahead.',
      'Statuses: paid, dispatched, refunded, requested, invited, declined.',
      'EMAILS lists the emails of each order; a name ending in ! is due and not sent yet.',
    ],
    positionals: 'none',
    async run(shop, values, _p, io) {
      const status = text(values.status);
      const dispatch =
        values.dispatch === undefined ? undefined : await dispatchDayFor(values.dispatch, '--dispatch', shop);
      if (dispatch?.note) io.err(dispatch.note);
      const { records } = await shop.api.list({ status, dispatch: dispatch?.day, weeks: text(values.weeks) });
      const rows = records.map(toListRow);
      if (values.json) {
        io.out(JSON.stringify(rows, null, 2));
        return;
      }
      if (rows.length === 0) {
        io.out(
          `No orders${status ? ` with status ${status}` : ''}${dispatch ? ` for ${formatDispatchDate(dispatch.day)}` : ''}.`,
        );
        return;
      }
      io.out(formatTable(rows, io.now()));
      io.out(`${rows.length} ${rows.length === 1 ? 'row' : 'rows'}.`);
      // Each coming dispatch day the list shows, with its capacity and what is left to sell.
      const today = londonDate(io.now());
      const coming = new Set(records.map((r) => r.dispatchDate).filter((day) => day >= today));
      if (coming.size === 0) return;
      // The capacity route's dispatch days, and the status's days holding orders (a delay's Tuesday).
      const [{ rows: capacity }, week] = await Promise.all([shop.api.capacity(), shop.api.status()]);
      const byDay = new Map<string, DayCapacity>();
      for (const row of [...capacity, week.next, ...week.overdue, ...week.later]) byDay.set(row.date, row);
      const shown = [...coming].sort().flatMap((day) => byDay.get(day) ?? []);
      for (const line of capacityLines(shown)) io.out(line);
    },
  },
  find: {
    summary: 'Find orders and requests by reference (any case), email, name or postcode',
    usage: 'find <text> [--weeks N] [--json]',
    details: [
      'A reference is found in any case, O read as 0 and I or L as 1, whatever its date; every',
      'candidate is listed. An email (the whole address, any case),',
      "part of a name or of a postcode is looked for among list's days: --weeks (default 8) weeks back",
      'to 8 weeks ahead. Quotes are optional: find Jane Smith.',
    ],
    positionals: 'many',
    async run(shop, values, words, io) {
      const q = words.join(' ');
      const rows = (await shop.api.list({ q, weeks: text(values.weeks) })).records.map(toListRow);
      if (values.json) {
        io.out(JSON.stringify(rows, null, 2));
        return;
      }
      if (rows.length === 0) {
        io.out(`Nothing found for "${q}".`);
        return;
      }
      const note = looseReadingNote(q, rows);
      if (note) io.out(note);
      io.out(formatTable(rows, io.now()));
      io.out(`${rows.length} ${rows.length === 1 ? 'row' : 'rows'}.`);
    },
  },
  'dispatch-list': {
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
  },
  weather: {
    summary:
      "The coming dispatch day's orders by the forecast: fine, watch or at risk, and why; --delay moves those at risk",
    usage: `weather [--date next|YYYY-MM-DD] [--delay ${CONFIRM_FLAGS}] [--json]`,
    details: [
      "Reads the forecast at the dispatch postcode (in the seller address) and at each order's postcode,",
      'for the dispatch day and the day after, against the thresholds set in /admin.',
      'Before 18:00 two days ahead it says when it will know.',
      'Each order at risk is planned to its first later working day the forecast already read does not put',
      'at risk; --delay moves each there and emails its customer once. One with no such day within the',
      "forecast is listed and stays: decide by hand. /admin's week does the same in one press.",
      ...CONFIRM_HELP,
    ],
    positionals: 'none',
    async run(shop, values, _p, io) {
      const asked = values.date === undefined || values.date === 'next' ? undefined : values.date;
      const dispatch = asked === undefined ? undefined : await dispatchDayFor(asked, '--date', shop);
      const check = await shop.api.weather({ date: dispatch?.day });
      if (values.json && !values.delay) {
        io.out(JSON.stringify(check, null, 2));
        return;
      }
      if (dispatch?.note) io.out(dispatch.note);
      io.out(check.summary);
      if (check.state === 'checked')
        for (const order of check.orders) {
          io.out(`  ${order.reference}  ${order.verdict.padEnd(7)}  ${order.customerName}: ${order.reason}`);
          if (order.move) io.out(`      ${order.move.to === null ? 'stays' : 'delay'}: ${order.move.why}`);
        }
      if (!values.delay) return;
      // The plan is printed above, order by order; the question comes before anything moves.
      if (!(await confirmPlan(io, values, async () => []))) return;
      const result = await shop.api.delayAtRisk({ date: check.day });
      if (values.json) {
        io.out(JSON.stringify(result, null, 2));
        return;
      }
      for (const order of result.orders)
        io.out(
          order.to === null
            ? `  ${order.reference}  ${order.customerName}: not moved. ${order.why}`
            : `  ${order.reference}  ${order.customerName}: moved to ${fullDate(order.to)}. ${order.why}`,
        );
      const moved = result.moved.length;
      io.out(
        `Moved ${moved} ${moved === 1 ? 'order' : 'orders'} at risk from ${fullDate(result.from)}; delay emails sent: ${result.emailed.length}.`,
      );
      for (const over of result.overLimit ?? []) io.out(describeOverLimit(fullDate(over.date), over));
      const left = result.orders.filter((order) => order.to === null).length;
      if (left > 0) io.out(`Not moved, decide by hand: ${left} ${left === 1 ? 'order' : 'orders'} (above).`);
    },
  },
  'mark-dispatched': {
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
          const order = await shop.api.order({ reference }).then(
            ({ record }) => record,
            () => undefined,
          );
          const email = order?.emails.find((e) => e.kind === 'dispatch');
          if (order?.kind !== 'order' || order.status !== 'dispatched' || email?.state === 'sent')
            throw error;
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
  },
  delay: {
    summary: "Move a dispatch day's undispatched orders to a later day and tell each customer",
    usage: `delay --dispatch next|YYYY-MM-DD --to YYYY-MM-DD --reason weather|supply|other ${CONFIRM_FLAGS}`,
    details: [
      '--to: a working day (no weekend or bank holiday) after --dispatch and today, at most 8 weeks ahead.',
      'Each customer is emailed once with the new date; running it again sends nothing more.',
      "Their sold bottles move too, even past the new day's limit (the output then says so).",
      '--dispatch is closed (capacity 0) so checkout does not sell it again; `capacity --set` reopens it.',
      ...CONFIRM_HELP,
    ],
    positionals: 'none',
    async run(shop, values, _p, io) {
      if (values.dispatch === undefined)
        throw new UsageError('--dispatch needs next or a date as YYYY-MM-DD.');
      const from =
        values.dispatch === 'next'
          ? (await dispatchDayFor('next', '--dispatch', shop)).day
          : isoDate(values.dispatch, '--dispatch');
      const to = isoDate(values.to, '--to');
      const reason = text(values.reason);
      if (reason !== 'weather' && reason !== 'supply' && reason !== 'other')
        throw new UsageError('--reason must be one of: weather, supply, other.');
      if (!(await confirmPlan(io, values, () => planDelay(shop.api, from, to, reason)))) return;
      const result = await shop.api.delay({ from, to, reason });
      io.out(
        `Moved ${result.moved.length} ${result.moved.length === 1 ? 'order' : 'orders'} from ${fullDate(from)} to ${fullDate(to)} (${reason})${result.moved.length ? `: ${result.moved.join(', ')}` : ''}.`,
      );
      io.out(
        `Delay emails sent: ${result.emailed.length}${result.emailed.length ? ` (${result.emailed.join(', ')})` : ''}.`,
      );
      if (result.overLimit) io.out(describeOverLimit(fullDate(to), result.overLimit));
      if (result.closed)
        io.out(
          describeClosedDay(
            fullDate(result.closed.date),
            `npm run orders -- capacity --set ${reopeningValue(result.closed)} --date ${result.closed.date}`,
          ),
        );
    },
  },
  tracking: {
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
        if (early || !(error instanceof RefusedError) || plannedDayOf(error.message) === undefined)
          throw error;
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
  },
  address: {
    summary:
      "Correct an order's delivery address, postcode or phone before packing; the customer is told once",
    usage: `address <reference> [--address LINE]... [--postcode POSTCODE] [--phone NUMBER] ${CONFIRM_FLAGS}`,
    details: [
      'Each --address is one line of the new address; what is not given stays as it is.',
      "The checkout's own rules apply (UK postcodes only). Refused once the day's packing cut-off has passed.",
      "The order's history keeps before and after; the dispatch CSV and slips use the new details.",
      ...CONFIRM_HELP,
    ],
    positionals: 'one',
    async run(shop, values, [reference = ''], io) {
      const lines = Array.isArray(values.address) ? values.address.filter((v) => typeof v === 'string') : [];
      const postcode = text(values.postcode);
      const phone = text(values.phone);
      if (lines.length === 0 && postcode === undefined && phone === undefined)
        throw new UsageError('Give at least one of --address, --postcode or --phone.');
      const { record: order } = await shop.api.order({ reference });
      const after = {
        address: lines.length > 0 ? lines.join('\n') : order.deliveryAddress,
        postcode: postcode ?? order.postcode,
        phone: phone ?? order.customerPhone,
      };
      if (!(await confirmPlan(io, values, async () => planAddress(order, after)))) return;
      const result = await shop.api.address({ reference, ...after });
      if (!result.changed) {
        io.out(`${result.reference}: those are already its delivery details; nothing changed, nothing sent.`);
        return;
      }
      const o = result.record;
      io.out(`${result.reference}: delivery details corrected for ${formatDispatchDate(o.dispatchDate)}:`);
      io.out(
        `  ${o.deliveryAddress.replace(/\n/g, ', ')} ${o.postcode}${o.customerPhone ? `  phone ${o.customerPhone}` : ''}`,
      );
      io.out(
        result.email === 'sent'
          ? `Confirmation email sent to ${o.customerEmail}.`
          : 'Confirmation email not sent now (already being sent); the order shows its state.',
      );
    },
  },
  'revoke-link': {
    summary: "Revoke an order's page link (the old one stops opening) and email the customer a new one",
    usage: `revoke-link <reference> ${CONFIRM_FLAGS}`,
    details: [
      'For a link that reached the wrong person: every link sent so far opens nothing any more.',
      'Each run makes a new link and emails it once; run it again only to revoke that one too.',
      ...CONFIRM_HELP,
    ],
    positionals: 'one',
    async run(shop, values, [reference = ''], io) {
      if (!(await confirmPlan(io, values, () => planRevokeLink(shop.api, reference)))) return;
      const revokes = (order: Pick<AdminOrderView, 'history'>) =>
        order.history.filter((entry) => entry.action === 'page-link-revoked').length;
      const before = await shop.api.order({ reference });
      const result = await shop.api.revokePageLink({ reference }).catch(async (error: unknown) => {
        if (!(error instanceof AdminUnavailableError)) throw error;
        // No answer (email down): the order's history says whether the link was revoked all the same.
        const order = await shop.api.order({ reference }).then(
          ({ record }) => record,
          () => undefined,
        );
        if (order === undefined || revokes(order) <= revokes(before.record)) throw error;
        throw new IncompleteError(
          `${order.reference}: order page link revoked (the old link no longer opens), but the new link email could not be sent (${error.status === undefined ? 'no answer' : `HTTP ${error.status}`}). Nothing retries it by itself: run revoke-link ${order.reference} again once email works.`,
        );
      });
      io.out(
        `${result.reference}: order page link revoked (the old link no longer opens); ${
          result.email === 'sent'
            ? `new link emailed to ${result.record.customerEmail}.`
            : 'new link email not sent by this run (another request is sending it): list shows when it has gone.'
        }`,
      );
    },
  },
  refund: {
    summary: 'Refund an order (what part refunds left of it) through Stripe and email the customer',
    usage: `refund <reference> --reason supply|doa|other [--bottles N] [--delivery] [--again] ${CONFIRM_FLAGS}`,
    details: [
      'Refused for an order already refunded (here or in the Stripe Dashboard).',
      'If Stripe refuses, the order is left unchanged and the reason is printed.',
      '--bottles N and/or --delivery refund that part only (again later, up to what was paid); the',
      'customer is emailed the amount and what it was for. Bottles not dispatched go back on sale.',
      "--reason is needed (no default): the customer's email says it.",
      'The same part as one refunded in the last 15 minutes is refused as a repeat: --again refunds it again on purpose.',
      ...CONFIRM_HELP,
    ],
    positionals: 'one',
    async run(shop, values, [reference = ''], io) {
      const reason = text(values.reason);
      if (reason === undefined)
        throw new UsageError("--reason is needed: supply, doa or other (the customer's email says it)");
      if (reason !== 'supply' && reason !== 'doa' && reason !== 'other')
        throw new UsageError('--reason must be one of: supply, doa, other.');
      if (values.bottles !== undefined || values.delivery === true) {
        const typed = text(values.bottles) ?? '0';
        if (!/^\d{1,2}$/.test(typed)) throw new UsageError('--bottles is a whole number of bottles.');
        const asked = { bottles: Number(typed), delivery: values.delivery === true };
        if (!(await confirmPlan(io, values, () => planRefund(shop.api, reference, reason, asked)))) return;
        const part = await shop.api.refundPart({
          reference,
          ...asked,
          reason,
          ...(values.again === true && { again: true }),
        });
        io.out(
          `${part.reference}: refunded ${formatGbp(part.pence)} (Stripe refund ${part.refundId}, reason ${reason}); ${formatGbp(part.record.partlyRefundedPence ?? part.pence)} of ${formatGbp(part.record.totalPence)} refunded in all; refund email ${part.email === 'sent' ? 'sent' : 'not sent'}.`,
        );
        return;
      }
      if (!(await confirmPlan(io, values, () => planRefund(shop.api, reference, reason)))) return;
      const result = await shop.api.refund({ reference, reason }).catch(async (error: unknown) => {
        if (!(error instanceof AdminUnavailableError)) throw error;
        // No answer: the order says what was done (a refund cannot be made twice).
        const order = await shop.api.order({ reference }).then(
          ({ record }) => record,
          () => undefined,
        );
        if (order?.kind !== 'order') throw error;
        const why = error.status === undefined ? 'no answer' : `HTTP ${error.status}`;
        if (order.status !== 'refunded')
          throw new IncompleteError(
            `The refund did not go through (${why}): ${order.reference} was not refunded and is still ${order.status}. Run refund ${order.reference} again once Stripe answers: it cannot refund twice.`,
          );
        if (order.emails.find((e) => e.kind === 'refund')?.state !== 'sent')
          throw new IncompleteError(
            `${order.reference}: refunded${order.partlyRefundedPence ? ` the remaining ${formatGbp(order.totalPence - order.partlyRefundedPence)}` : ` ${formatGbp(order.totalPence)} in full`}${order.refundId ? ` (Stripe refund ${order.refundId})` : ''}, but the refund email could not be sent (${why}). Run refund ${order.reference} again once email works: it refunds nothing twice and sends the email.`,
          );
        throw error;
      });
      const email = result.refundEmail;
      io.out(
        `${result.reference}: refunded ${result.pence < result.record.totalPence ? `the remaining ${formatGbp(result.pence)} (all ${formatGbp(result.record.totalPence)} now refunded)` : `${formatGbp(result.pence)} in full`} (Stripe refund ${result.refundId}, reason ${reason}); ${
          email.state === 'sent'
            ? `refund email sent${email.by === 'this run' ? '' : ` (by ${email.by})`}`
            : email.state === 'being sent'
              ? 'refund email being sent by the Stripe webhook or another refund request (list shows when it has gone)'
              : 'refund email not sent yet (run refund again to send it)'
        }.`,
      );
    },
  },
  pause: {
    summary: 'Stop taking orders (the page shows the message), or take requests without payment',
    usage: `pause --message "..." | pause --requests [--message "..."] ${CONFIRM_FLAGS}`,
    details: [
      'pause --message: checkout answers 503 with the message; the page shows it and disables checkout.',
      'pause --requests: the shop takes order requests without payment; answer them with request-payment or decline.',
      'Takes effect within a few seconds. resume reopens the shop.',
      "Either kind closes this shop's open Stripe checkouts, so no one can pay them; pause --requests",
      'leaves open the payment links sent with request-payment. An order paid in the moment before its',
      'checkout closed is kept and marked "while paused" in list and in its notice: refund or delay it.',
      ...CONFIRM_HELP,
    ],
    positionals: 'none',
    async run(shop, values, _p, io) {
      const mode = values.requests ? 'requests' : 'paused';
      const message = text(values.message);
      if (!(await confirmPlan(io, values, () => planPause(shop.api, io.now(), mode, message)))) return;
      const result = await shop.api.pause({ mode, message });
      const { settings, closed, paymentLinksKept, completedMeanwhile } = result;
      io.out(
        mode === 'paused'
          ? `Shop paused: checkout is refused with "${settings.message ?? ''}".`
          : `Shop taking order requests without payment${settings.message ? ` ("${settings.message}")` : ''}.`,
      );
      const checkouts = (n: number) => `${n} open ${n === 1 ? 'checkout' : 'checkouts'}`;
      io.out(
        closed.length === 0
          ? 'No open checkouts to close.'
          : `Closed ${checkouts(closed.length)} (customers can no longer pay ${closed.length === 1 ? 'it' : 'them'}).`,
      );
      if (paymentLinksKept.length > 0)
        io.out(
          `Left ${paymentLinksKept.length} payment ${paymentLinksKept.length === 1 ? 'link' : 'links'} of order requests open (sent with request-payment).`,
        );
      const one = completedMeanwhile.length === 1;
      if (completedMeanwhile.length > 0)
        io.out(
          `${completedMeanwhile.length} ${one ? 'checkout was completed before it' : 'checkouts were completed before they'} could be closed: ${one ? 'its order is' : 'their orders are'} kept, marked "while paused" in list (refund or delay ${one ? 'it' : 'them'}).`,
        );
      if (result.listingFailed !== undefined)
        io.err(
          `Could not list the open checkouts (Stripe: ${result.listingFailed}): customers may still pay those opened before the pause. Run the same pause again.`,
        );
      for (const { sessionId, message } of result.failed)
        io.err(
          `Could not close ${sessionId} (Stripe: ${message}): it can still be paid. Run the same pause again.`,
        );
    },
  },
  resume: {
    summary: 'Take paid orders again',
    usage: `resume ${CONFIRM_FLAGS}`,
    details: CONFIRM_HELP,
    positionals: 'none',
    async run(shop, values, _p, io) {
      if (!(await confirmPlan(io, values, () => planResume(shop.api)))) return;
      await shop.api.resume();
      io.out('Shop open: checkout takes paid orders again.');
    },
  },
  status: {
    summary: 'Whether the shop is open, paused or taking requests, and the next dispatch day',
    usage: 'status',
    details: [],
    positionals: 'none',
    async run(shop, _v, _p, io) {
      // The weather is a line of its own: a check that fails never hides the week.
      const [week, weather] = await Promise.all([
        shop.api.status(),
        shop.api.weather().then(
          (check) => check.summary,
          (error: unknown) =>
            `Weather: not checked (${error instanceof Error ? error.message : 'the admin API did not answer'}).`,
        ),
      ]);
      const { shop: settings } = week;
      const modes: Record<(typeof SHOP_MODES)[number], string> = {
        open: 'open (taking paid orders)',
        paused: 'paused (checkout refused)',
        requests: 'taking order requests without payment',
      };
      io.out(
        `Shop: ${modes[settings.mode]}${settings.message ? `; message: "${settings.message}"` : ''}${settings.modeSince ? ` (since ${formatLondonTime(settings.modeSince, io.now())})` : ''}.`,
      );
      const summary = (day: AdminDaySummary) =>
        `${day.orders} ${day.orders === 1 ? 'order' : 'orders'}, ${day.bottles} bottles${capacityNote(day)}`;
      io.out(`Next dispatch: ${fullDate(week.next.date)}: ${summary(week.next)}.`);
      // Orders on any other day (moved by a delay, or left from a past week) are never hidden.
      for (const day of week.overdue) io.out(`Overdue: ${fullDate(day.date)}: ${summary(day)}.`);
      for (const day of week.later) io.out(`Then: ${fullDate(day.date)}: ${summary(day)}.`);
      io.out(weather);
    },
  },
  capacity: {
    summary: 'Bottles per dispatch day: what each coming day may sell, holds, has sold and has left',
    usage: `capacity [--weeks N] [--json] | capacity --set N|none [--date next|YYYY-MM-DD] | capacity --set default --date D ${CONFIRM_FLAGS}`,
    details: [
      'Lists the next --weeks (default 8) dispatch days, and any other day holding orders (a delay moved them there).',
      'RESERVED: checkouts not paid yet and order requests. ORDERS, BOTTLES: still to dispatch.',
      '--set N: every dispatch day sells at most N bottles; --set none: no limit (as before capacity existed).',
      '--set N|none --date D: that day only; --set default --date D: that day follows the weekly default again.',
      'Lowering a day below what it has sold is allowed: nothing is cancelled, and it sells no more.',
      'Checkout moves an order that does not fit to the next dispatch day with room (8 weeks at most).',
      ...CONFIRM_HELP.map((line) => line.replace('Asks first', '--set asks first')),
    ],
    positionals: 'none',
    async run(shop, values, _p, io) {
      if (values.set === undefined) {
        if (values.date !== undefined) throw new UsageError('--date goes with --set.');
        const weeks = text(values.weeks);
        if (weeks !== undefined && !/^\d{1,2}$/.test(weeks))
          throw new UsageError('--weeks must be a whole number from 1 to 52.');
        const { rows } = await shop.api.capacity({ weeks });
        io.out(values.json ? JSON.stringify(rows, null, 2) : capacityTable(rows));
        return;
      }
      const bottles = capacityValue(values.set);
      let date: IsoDate | undefined;
      if (values.date === 'next') date = firstComingDispatchDay(io.now());
      else if (values.date !== undefined) {
        const asked = isoDate(values.date, '--date');
        date = dispatchDayOfWeekOf(asked);
        if (date !== asked)
          io.err(`${formatDispatchDate(asked)} is not a dispatch day: using that week's, ${fullDate(date)}.`);
      }
      if (bottles === 'default' && date === undefined)
        throw new UsageError(
          '--set default goes with --date: the day that follows the weekly default again.',
        );
      if (!(await confirmPlan(io, values, () => planCapacity(shop.api, date, bottles)))) return;
      const { settings, oversold } = await shop.api.setCapacity({ date: date ?? 'default', bottles });
      const count = (n: number | null | undefined) =>
        n === undefined || n === null ? 'no limit' : `${n} ${n === 1 ? 'bottle' : 'bottles'}`;
      io.out(
        date === undefined
          ? `Every dispatch day: ${count(settings.weekly)}${settings.weekly === null ? '' : ' each'}, except days set on their own.`
          : bottles === 'default'
            ? `${fullDate(date)}: follows the weekly default again (${count(settings.weekly)}).`
            : `${fullDate(date)}: ${count(settings.days[date])}.`,
      );
      for (const day of oversold)
        io.out(
          `${fullDate(day.date)} has already sold ${count(day.sold)}, more than its capacity of ${day.capacity}: nothing is cancelled, and it sells no more.`,
        );
    },
  },
  'request-payment': {
    summary: 'Email an order request a Stripe payment link',
    usage: `request-payment <reference> ${CONFIRM_FLAGS}`,
    details: [
      'Paying the link makes an ordinary order (confirmation emails, dispatch list).',
      ...CONFIRM_HELP,
    ],
    positionals: 'one',
    async run(shop, values, [reference = ''], io) {
      if (!(await confirmPlan(io, values, () => planRequestPayment(shop.api, reference)))) return;
      const result = await shop.api.requestPayment({ reference });
      io.out(
        `${result.reference}: payment link emailed (valid until ${formatLondonTime(result.expiresAt, io.now())}): ${result.url}`,
      );
    },
  },
  decline: {
    summary: 'Decline an order request and email the customer',
    usage: `decline <reference> ${CONFIRM_FLAGS}`,
    details: CONFIRM_HELP,
    positionals: 'one',
    async run(shop, values, [reference = ''], io) {
      if (!(await confirmPlan(io, values, () => planDecline(shop.api, reference)))) return;
      const result = await shop.api.decline({ reference });
      io.out(
        result.withheld === undefined
          ? `${result.reference}: declined; customer ${result.email === 'sent' ? 'emailed' : 'not emailed (already sent)'}.`
          : `${result.reference}: declined; no email: ${result.withheld}.`,
      );
    },
  },
  merchant: merchantCommand,
};

/** Whether a command follows the confirm rule (it takes --yes): what a script must add to act. */
export function asksFirst(name: string): boolean {
  const command = COMMANDS[name];
  return command !== undefined && 'yes' in optionsOf(command.usage);
}

const TARGET_HELP = [
  'Where: --local (the stack of `npm start`) or --stage NAME [--region R] (a deployed stage,',
  'found from its CloudFormation outputs with your own AWS credentials). The first one given is',
  `remembered in ${TARGET_FILE_NAME} (delete it to choose again); ORDERS_STAGE=NAME or local`,
  '(and ORDERS_REGION) sets it for a shell. Given on the command line, --local or --stage wins.',
];

const WHERE = '[--local | --stage NAME]';

/** The lines that follow a mistyped command: its usage and where to read more. */
function usageLines(name: string, command: Command): string {
  return [
    `Usage: npm run orders -- ${command.usage} ${WHERE}`,
    `(\`npm run orders -- ${name} --help\` says more.)`,
  ].join('\n');
}

function commandHelp(command: Command): string {
  return [
    `npm run orders -- ${command.usage} ${WHERE}`,
    '',
    `${command.summary}.`,
    ...command.details,
    '',
    ...TARGET_HELP,
  ].join('\n');
}

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  return [
    `npm run orders -- <command> [options] ${WHERE}`,
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    ...TARGET_HELP,
    'A command that emails, refunds or changes an order prints what it will do and asks "Go ahead? [y/N]";',
    'without a terminal it acts only with --yes; --dry-run prints the plan and changes nothing.',
    "Run `npm run orders -- <command> --help` for a command's options.",
  ].join('\n');
}

/**
 * The options a command's usage line names, so the line and the parser cannot disagree: `--name
 * VALUE` takes a value, a bare `--name` is a flag, and `[--name VALUE]...` may be given again.
 */
function optionsOf(usage: string): Options {
  const options: Options = {};
  for (const [, name = '', value, repeats] of usage.matchAll(/--([a-z-]+)( [^\s[\]|-][^\s\]]*)?(\]\.\.\.)?/g))
    options[name] = value ? { type: 'string', ...(repeats && { multiple: true }) } : { type: 'boolean' };
  return options;
}

const TARGET_OPTIONS: Options = {
  local: { type: 'boolean' },
  stage: { type: 'string' },
  region: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** Edits (insert, delete, replace) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known name a typo most likely meant: within two edits, ignoring case, else none. */
function closest(typed: string, known: readonly string[]): string | undefined {
  const scored = known
    .map((name) => ({ name, distance: editDistance(typed.toLowerCase(), name.toLowerCase()) }))
    .filter((s) => s.distance <= 2)
    .sort((a, b) => a.distance - b.distance);
  return scored[0]?.name;
}

/**
 * node:util parseArgs's refusal in the command's own words ("unknown flag --dispach (did you mean
 * --dispatch?)", "--to needs a value") instead of Node's text, which talks about positionals and
 * option arguments. Anything else parseArgs throws is not a typing mistake and is rethrown.
 */
function parseMistake(error: unknown, options: Options): string {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  const message = error instanceof Error ? error.message : '';
  // Node quotes the option first: "Unknown option '--x'", "Option '--to <value>' argument missing".
  const flag = /'(-[^' ]*)/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const guess = flag.startsWith('--') ? closest(flag.slice(2), Object.keys(options)) : undefined;
      return `unknown flag ${flag}${guess === undefined ? '' : ` (did you mean --${guess}?)`}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(message) ? `${flag} takes no value` : `${flag} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const argument = /Unexpected argument '([^']*)'/.exec(message)?.[1] ?? '';
      return `unexpected "${argument}": this command takes no reference`;
    }
    default:
      throw error;
  }
}

/**
 * The command line with a negative number after a flag that takes a value joined to it
 * (`--set -1` as `--set=-1`): parseArgs takes a word starting with a dash for a flag, and would
 * say "--set needs a value", when the command can say what is wrong with the number.
 */
function negativeNumbersAsValues(args: readonly string[], options: Options): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    const next = args[index + 1];
    const takesValue = arg.startsWith('--') && options[arg.slice(2)]?.type === 'string';
    if (takesValue && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else joined.push(arg);
  }
  return joined;
}

/** What is wrong with the references given, or undefined when their number is right. */
function referencesMistake(expected: Command['positionals'], given: readonly string[]): string | undefined {
  if (expected === 'one' && given.length === 0) return 'give the order reference';
  if (expected === 'one' && given.length > 1)
    return `give one order reference, not ${given.length} (${given.join(' ')})`;
  if (expected === 'many' && given.length === 0) return 'give at least one order reference';
  return undefined;
}

/** Runs one command line; resolves with the exit code (0 done, 1 refused, 2 mistyped). */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  openShop: (target: ApiTarget, io: CliIo) => Promise<Shop> = signedInShop,
  makeMerchantPool: (choice: TargetChoice) => Promise<MerchantPoolTarget> = merchantPoolTarget,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(overview());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    const guess = closest(name, Object.keys(COMMANDS));
    io.err(
      `Unknown command "${name}"${guess === undefined ? '' : ` (did you mean ${guess}?)`}.\n\n${overview()}`,
    );
    return 2;
  }
  const options = { ...optionsOf(command.usage), ...TARGET_OPTIONS };
  const mistyped = (mistake: string) => {
    io.err(`${name}: ${mistake}\n${usageLines(name, command)}`);
    return 2;
  };
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args: negativeNumbersAsValues(rest, options),
      options,
      allowPositionals: command.positionals !== 'none',
      strict: true,
    });
  } catch (error) {
    return mistyped(parseMistake(error, options));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(commandHelp(command));
    return 0;
  }
  const wrongReferences =
    'positionalsMistake' in command
      ? command.positionalsMistake(positionals)
      : referencesMistake(command.positionals, positionals);
  if (wrongReferences !== undefined) return mistyped(wrongReferences);
  let target: { close(): void } | undefined;
  let choice: TargetChoice | undefined;
  try {
    const remembered = io.targetFile === undefined ? undefined : readRememberedTarget(io.targetFile);
    const chosen = chooseTarget(
      { local: values.local === true, stage: text(values.stage), region: text(values.region) },
      io.env,
      remembered,
    );
    if (chosen === 'both') return mistyped('say where once: --local or --stage NAME, not both');
    if (chosen === undefined) {
      io.err(
        `Say where: --local, --stage NAME, or set ORDERS_STAGE (the first --local or --stage is then remembered in ${TARGET_FILE_NAME}).\n${usageLines(name, command)}`,
      );
      return 2;
    }
    choice = chosen.choice;
    const opened =
      'runOnPool' in command
        ? await makeMerchantPool(choice).then((pool) => ({
            target: pool,
            run: () => command.runOnPool(pool, values, positionals, io),
          }))
        : await openApiTarget(choice, io, command, values, positionals, openShop);
    target = opened.target;
    io.err(
      `[${opened.target.description}]${chosen.source === 'command line' ? '' : chosen.source === 'file' ? ` remembered in ${io.targetFile}` : ' from ORDERS_STAGE'}`,
    );
    if (
      io.targetFile !== undefined &&
      chosen.source === 'command line' &&
      remembered === undefined &&
      !io.env.ORDERS_STAGE
    ) {
      rememberTarget(io.targetFile, choice);
      io.err(
        `Remembered: later commands act on ${describeChoice(choice)} without --local or --stage (${io.targetFile}; delete it to choose again).`,
      );
    }
    await opened.run();
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return mistyped(error.message);
    if (error instanceof InvalidInputError) return mistyped(error.message);
    if (error instanceof RefusedError) {
      io.err(`Refused: ${error.message}`);
      return 1;
    }
    if (error instanceof IncompleteError || error instanceof NothingDoneError) {
      io.err(error.message);
      return 1;
    }
    if (error instanceof SignedOutError && choice !== undefined) {
      io.err(
        `${error.message} Sign in first: npm run orders -- login${choice.kind === 'local' ? ' --local' : ` --stage ${choice.stage}`}`,
      );
      return 1;
    }
    if (error instanceof AdminUnavailableError) {
      io.err(
        choice?.kind === 'local' && /ECONNREFUSED|fetch failed/.test(error.message)
          ? 'The local stack is not running: start it with `npm start` (or set ORDERS_LOCAL_URL to its address).'
          : error.message,
      );
      return 1;
    }
    throw error;
  } finally {
    target?.close();
  }
}

/**
 * The target's admin API, or its sign-in for `login`/`logout`: a signed-in command finds its
 * site and token in the kept sign-in, so it needs no AWS credentials.
 */
async function openApiTarget(
  choice: TargetChoice,
  io: CliIo,
  command: ShopCommand | SignInCommand,
  values: Values,
  positionals: string[],
  openShop: (target: ApiTarget, io: CliIo) => Promise<Shop>,
): Promise<{ target: { description: string; close(): void }; run(): Promise<void> }> {
  const target = apiTarget(choice, io.env);
  if ('runSignIn' in command)
    return { target: { ...target, close() {} }, run: () => command.runSignIn(target, io) };
  const shop = await openShop(target, io);
  return { target: { ...shop, close() {} }, run: () => command.run(shop, values, positionals, io) };
}

async function signedInShop(target: ApiTarget, io: CliIo): Promise<Shop> {
  return { description: target.description, api: createAdminClient(signedInTransport(target, io)) };
}
