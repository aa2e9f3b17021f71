import { formatDispatchDate, londonDate } from '../../shared/dispatch';
import { formatTable, looseReadingNote, toListRow } from '../format';
import { capacityLines, type DayCapacity } from './capacity';
import { dispatchDayFor, type ShopCommand, text } from './command';

/* Reading the orders: `list` by status and dispatch day, `find` by reference, email, name or postcode. */

export const listCommand: ShopCommand = {
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
};

export const findCommand: ShopCommand = {
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
};
