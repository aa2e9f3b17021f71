import * as z from 'zod/mini';
import type { IsoDate } from '../../../shared/dispatch';

/**
 * One day's counters (`CAPACITY#<date>`): `taken` (what the limit applies to), `sold`, and the hold ids
 * behind them: `holds` (unpaid), `standing` (ADR 0060) and `sales`. An id names its bottles, so each change
 * is made once from the id alone (holds.ts).
 */
export interface CapacityDay {
  date: IsoDate;
  taken: number;
  sold: number;
  holds: ReadonlySet<string>;
  standing: ReadonlySet<string>;
  sales: ReadonlySet<string>;
}

/** The item's attribute names; every expression names them through `#taken`, `#sold`, `#holds`, `#standing`, `#sales`. */
const ATTRIBUTES = ['taken', 'sold', 'holds', 'standing', 'sales'] as const;

const count = z._default(z.number().check(z.int()), 0);
const members = z._default(z.set(z.string()), () => new Set<string>());
const dayItemSchema = z.object({
  taken: count,
  sold: count,
  holds: members,
  standing: members,
  sales: members,
});

/** A day's counters from its item as the document client reads it; absent: nothing yet. */
export function capacityDayFromItem(date: IsoDate, item: Record<string, unknown> | undefined): CapacityDay {
  const parsed = dayItemSchema.safeParse(item ?? {});
  // A day item is only ever written by holds.ts; one that does not parse is a hand edit, and
  // reading it as empty would sell bottles that may be gone.
  if (!parsed.success) throw new Error(`The capacity item of ${date} is malformed`);
  return { date, ...parsed.data };
}

/** One conditional update of a day's item: expressions over `#taken`, `#sold`, `#holds`, `#sales` and named values. */
export interface CapacityChange {
  update: string;
  condition: string;
  values: Readonly<Record<string, string | number | ReadonlySet<string>>>;
}

/** The capacity items as the domain uses them (over the document client: capacity-table.ts). */
export interface CapacityStore {
  /** Makes `change` on the day's item: the day after it, or undefined when its condition did not hold. */
  change(date: IsoDate, change: CapacityChange): Promise<CapacityDay | undefined>;
  /** As `change`, answering only whether it was made: the day's every hold id need not come over the wire. */
  apply(date: IsoDate, change: CapacityChange): Promise<boolean>;
  /** The day's counters, read strongly consistent (a failed reservation must see the write that beat it). */
  read(date: IsoDate): Promise<CapacityDay>;
}

/** The `#name` placeholders an expression uses, and nothing more: DynamoDB refuses unused names. */
export function attributeNames(change: CapacityChange): Record<string, string> {
  const text = `${change.update} ${change.condition}`;
  return Object.fromEntries(
    ATTRIBUTES.filter((name) => new RegExp(`#${name}\\b`).test(text)).map((name) => [`#${name}`, name]),
  );
}

/** The change's values its expressions use, and no others: DynamoDB refuses unused values too. */
export function usedValues(change: CapacityChange): CapacityChange['values'] {
  const text = `${change.update} ${change.condition}`;
  return Object.fromEntries(
    Object.entries(change.values).filter(([name]) => new RegExp(`${name}\\b`).test(text)),
  );
}
