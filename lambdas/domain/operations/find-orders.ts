import { DISPATCH_WINDOW_WEEKS } from '../../../shared/dispatch';
import { RefusedError } from '../refusal';
import { recordsByReference, type ShopRecord } from '../storage/records';
import { itemOf, type ListOptions, listRecords, recordInstant } from './listing';
import type { ShopDeps } from './shop-deps';

/** Lower case, and no spaces: "bs1 4dj" finds "BS1 4DJ", "BS14DJ" too. */
function squeezed(value: string): string {
  return value.toLowerCase().replace(/\s/g, '');
}

/** Whether a record's customer is the one `text` describes: whole email, or part of name or postcode. */
function customerMatches(record: ShopRecord, text: string): boolean {
  const item = itemOf(record);
  const wanted = text.toLowerCase();
  return (
    item.customerEmail.toLowerCase() === wanted ||
    item.customerName.toLowerCase().includes(wanted) ||
    squeezed(item.postcode).includes(squeezed(text))
  );
}

/**
 * What the merchant means by `text`, newest first, each once: the order or request of that reference (any
 * case or date), and within listRecords' days those whose email is `text` or whose name or postcode contains
 * it (any case, spaces ignored), searching `weeksBack` weeks of dispatch days back (8 by default).
 * @throws RefusedError for empty text.
 */
export async function findRecords(
  text: string,
  deps: Pick<ShopDeps, 'table' | 'now'>,
  options: { weeksBack?: number | undefined } = {},
): Promise<ShopRecord[]> {
  const wanted = text.trim();
  if (wanted === '') throw new RefusedError('Say what to find: a reference, an email, a name or a postcode.');
  const [byReference, listed] = await Promise.all([
    recordsByReference(deps.table, wanted),
    listRecords({ weeksBack: options.weeksBack ?? DISPATCH_WINDOW_WEEKS }, deps),
  ]);
  const found = new Map<string, ShopRecord>();
  // Each once: a record found both ways keeps its read by reference (the later set), a strong read.
  for (const record of [...listed.filter((r) => customerMatches(r, wanted)), ...byReference])
    found.set(itemOf(record).pk, record);
  return [...found.values()].sort((a, b) => recordInstant(b).localeCompare(recordInstant(a)));
}

/** What a list asks: a search (`text`) or a window of dispatch days, either narrowed as asked. */
export interface RecordQuery extends ListOptions {
  /** A reference, email, name or postcode (findRecords); absent for a plain list. */
  text?: string | undefined;
}

/** listRecords without text; with it, findRecords' matches of the status and day asked. */
export async function listOrFindRecords(
  query: RecordQuery,
  deps: Pick<ShopDeps, 'table' | 'now'>,
): Promise<ShopRecord[]> {
  const { text, status, dispatchDate, weeksBack } = query;
  if (text === undefined) return listRecords(query, deps);
  const found = await findRecords(text, deps, { weeksBack });
  return found.filter(
    (record) =>
      (status === undefined || itemOf(record).status === status) &&
      (dispatchDate === undefined || itemOf(record).dispatchDate === dispatchDate),
  );
}
