import type { AdminCapacityRow } from '../../shared/admin-responses';
import {
  dispatchDayOfWeekOf,
  firstComingDispatchDay,
  formatDispatchDate,
  type IsoDate,
} from '../../shared/dispatch';
import { CONFIRM_FLAGS, CONFIRM_HELP, confirmPlan, fullDate, planCapacity } from '../confirm';
import { alignColumns } from '../format';
import { isoDate, type ShopCommand, text, UsageError } from './command';

/* `capacity`: the bottles each dispatch day may sell; the capacity lines `list` and `status` print too. */

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
export type DayCapacity = Pick<
  AdminCapacityRow,
  'date' | 'capacity' | 'sold' | 'reserved' | 'standing' | 'left'
>;

/** "; capacity 60 bottles, 12 left" for a day with a limit; nothing for a day without one. */
export function capacityNote(row: DayCapacity): string {
  return row.capacity === null ? '' : `; capacity ${row.capacity} bottles, ${row.left ?? 0} left`;
}

/** Under a list: each coming day's capacity, or that it has no limit. */
export function capacityLines(rows: readonly DayCapacity[]): string[] {
  return rows.map((row) => {
    const reserved = `${row.reserved} reserved${standingNote(row)}`;
    return `Capacity ${fullDate(row.date)}: ${row.capacity === null ? `no limit (${row.sold} sold, ${reserved})` : `${row.capacity} bottles, ${row.sold} sold, ${reserved}, ${row.left ?? 0} left`}.`;
  });
}

/** ", 6 held for standing orders": the coming deliveries' bottles, apart as the admin shows them (ADR 0060). */
function standingNote(row: Pick<DayCapacity, 'standing'>): string {
  return row.standing === undefined ? '' : `, ${row.standing} held for standing orders`;
}

/** The capacity list: one line a day (each dispatch day, and any other holding orders), with the year. */
function capacityTable(rows: readonly AdminCapacityRow[]): string {
  // A STANDING column only when a standing order holds bottles: a shop without any reads as before.
  const standing = rows.some((row) => row.standing !== undefined);
  const header = [
    'DISPATCH DAY',
    'CAPACITY',
    'RESERVED',
    ...(standing ? ['STANDING'] : []),
    'SOLD',
    'LEFT',
    'ORDERS',
    'BOTTLES',
  ];
  const lines = rows.map((row) => [
    fullDate(row.date),
    row.capacity === null ? 'no limit' : String(row.capacity),
    String(row.reserved),
    ...(standing ? [String(row.standing ?? 0)] : []),
    String(row.sold),
    row.left === null ? '-' : row.left === 0 ? '0 (full)' : String(row.left),
    String(row.orders),
    String(row.bottles),
  ]);
  return alignColumns([header, ...lines]).join('\n');
}

export const capacityCommand: ShopCommand = {
  summary: 'Bottles per dispatch day: what each coming day may sell, holds, has sold and has left',
  usage: `capacity [--weeks N] [--json] | capacity --set N|none [--date next|YYYY-MM-DD] | capacity --set default --date D ${CONFIRM_FLAGS}`,
  details: [
    'Lists the next --weeks (default 8) dispatch days, and any other day holding orders (a delay moved them there).',
    'RESERVED: checkouts not paid yet and order requests. ORDERS, BOTTLES: still to dispatch.',
    "STANDING (shown when any): bottles held for standing orders' coming deliveries, apart from RESERVED.",
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
      throw new UsageError('--set default goes with --date: the day that follows the weekly default again.');
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
};
