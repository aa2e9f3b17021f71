import type { IsoDate } from '../../../shared/dispatch';
import { normaliseTrackingNumber, TRACKING_NUMBER_MESSAGE } from '../../../shared/tracking-number';
import {
  type ClickAndDropRow,
  readClickAndDropExport,
  UnreadableExportError,
} from '../fulfilment/click-and-drop-export';
import { RefusedError } from '../refusal';
import type { ManagedOrder } from '../storage/managed-order';
import { earlyDispatchRefusal, PlannedLaterError } from './early-dispatch';
import { type ActionResult, findOrder, markDispatched, refundedRefusal } from './order-actions';
import type { ShopDeps } from './shop-deps';

/** A row of the export that marked nothing, and why, in the merchant's words. */
export interface UnmatchedRow {
  line: number;
  reference: string;
  trackingNumber: string;
  reason: string;
  /** The order is planned for this later dispatch day: import again with `early` to send it now. */
  plannedFor?: IsoDate;
}

/** `dispatch` (its email), `trackingUpdate` (the update email), `unchanged`, or `refused` with why. */
export type ImportRowAction = 'dispatch' | 'trackingUpdate' | 'unchanged' | 'refused';

/** One row of the file and what the import does with it (the preview's answer). */
export type ImportRowPlan = {
  line: number;
  /** The order's own reference when the row names one, else the row's as written. */
  reference: string;
  /** As stored (capitals, no spaces) on a row that goes ahead; as written on a refused one. */
  trackingNumber: string;
  customerName?: string;
  customerEmail?: string;
  /** The order's dispatch day, when it is later than the coming one. */
  plannedFor?: IsoDate;
} & (
  | { action: 'refused'; reason: string }
  /** `reason`: why a row does nothing (the same number as an earlier line). */
  | { action: Exclude<ImportRowAction, 'refused'>; reason?: string }
);

export interface TrackingImportResult {
  dispatched: ActionResult[];
  unmatched: UnmatchedRow[];
  /** With `preview`: every row and what the import would do with it. */
  rows?: ImportRowPlan[];
}

/** A row naming an order, with its number as stored. */
type OrderRow = ClickAndDropRow & { number: string };

/** The rows of the file that name one order, in the file's order. */
interface OrderRows {
  order: ManagedOrder;
  rows: [OrderRow, ...OrderRow[]];
}

/**
 * Marks every order of a Click & Drop export dispatched with its number through markDispatched, so a
 * re-import sends nothing twice (a differing number corrects, with its one update email). A row matching no
 * order, not dispatchable, or without a number is listed and the others go on. The file is read whole first:
 * an order given two numbers is refused. With `preview` nothing is changed or sent; the answer says what each
 * row would do.
 * @throws RefusedError when the file is not a Click & Drop export with tracking numbers.
 */
export async function importClickAndDropTracking(
  csv: string,
  options: { actor: string; early?: boolean | undefined; preview?: boolean | undefined },
  deps: ShopDeps,
): Promise<TrackingImportResult> {
  const rows = readExport(csv);
  const plans = new Map<number, ImportRowPlan>();
  const refuse = (row: ClickAndDropRow, reason: string, order?: ManagedOrder, plannedFor?: IsoDate) =>
    plans.set(row.line, {
      line: row.line,
      reference: row.reference,
      trackingNumber: row.trackingNumber,
      ...(order && customerOf(order)),
      action: 'refused',
      reason,
      ...(plannedFor && { plannedFor }),
    });
  const orders = await ordersOfRows(rows, refuse, deps);
  const now = deps.now();
  const toDispatch: OrderRows[] = [];
  for (const group of orders) {
    const { order, rows: lines } = group;
    const [first, ...again] = lines;
    const numbers = new Set(lines.map((row) => row.number));
    if (numbers.size > 1) {
      const listed = lines.map((row) => `${row.number} on line ${row.line}`).join(', ');
      const reason = `${numbers.size === 2 ? 'Two' : numbers.size} tracking numbers for ${order.reference} in this file (${listed}): fix the file and import again.`;
      for (const row of lines) refuse(row, reason, order);
      continue;
    }
    const later = earlyDispatchRefusal(order, false, now);
    const plannedFor = later?.plannedFor;
    const refusal =
      order.status === 'refunded' ? refundedRefusal(order, now) : options.early ? undefined : later?.message;
    if (refusal !== undefined) {
      for (const row of lines) refuse(row, refusal, order, plannedFor);
      continue;
    }
    plans.set(first.line, {
      ...rowAsStored(first),
      ...customerOf(order),
      action: actionFor(order, first.number),
      ...(plannedFor && { plannedFor }),
    });
    for (const row of again) {
      plans.set(row.line, {
        ...rowAsStored(row),
        ...customerOf(order),
        action: 'unchanged',
        reason: `The same number as line ${first.line}: one email.`,
      });
    }
    toDispatch.push(group);
  }
  const dispatched = options.preview ? [] : await dispatchEach(toDispatch, options, refuse, deps);
  const planned = [...plans.values()].sort((a, b) => a.line - b.line);
  return { dispatched, unmatched: unmatchedOf(planned), ...(options.preview && { rows: planned }) };
}

/** The export's rows; a file that is not a Click & Drop export with tracking numbers is refused. */
function readExport(csv: string): ClickAndDropRow[] {
  try {
    return readClickAndDropExport(csv);
  } catch (error) {
    if (error instanceof UnreadableExportError) throw new RefusedError(error.message, { cause: error });
    throw error;
  }
}

/** Each order marked dispatched with its number; one refused meanwhile has its rows refused. */
async function dispatchEach(
  toDispatch: readonly OrderRows[],
  options: { actor: string; early?: boolean | undefined },
  refuse: (row: ClickAndDropRow, reason: string, order?: ManagedOrder, plannedFor?: IsoDate) => void,
  deps: ShopDeps,
): Promise<ActionResult[]> {
  const dispatched: ActionResult[] = [];
  for (const group of toDispatch) {
    try {
      dispatched.push(
        await markDispatched(
          group.order.reference,
          {
            trackingNumber: group.rows[0].number,
            actor: options.actor,
            early: options.early,
            seen: group.order,
          },
          deps,
        ),
      );
    } catch (error) {
      if (!(error instanceof RefusedError)) throw error;
      const plannedFor = error instanceof PlannedLaterError ? error.plannedFor : undefined;
      for (const row of group.rows) refuse(row, error.message, group.order, plannedFor);
    }
  }
  return dispatched;
}

/** The orders the rows name (any case), each once with its rows in order; a bad row refused with why. */
async function ordersOfRows(
  rows: readonly ClickAndDropRow[],
  refuse: (row: ClickAndDropRow, reason: string) => void,
  deps: ShopDeps,
): Promise<OrderRows[]> {
  const bySession = new Map<string, OrderRows>();
  for (const row of rows) {
    if (row.reference === '') {
      refuse(row, 'No order reference on this row: not an order from this shop.');
      continue;
    }
    // A label not printed yet has no number: the order waits for the next export.
    if (row.trackingNumber === '') {
      refuse(row, 'No tracking number on this row yet.');
      continue;
    }
    const trackingNumber = normaliseTrackingNumber(row.trackingNumber);
    if (trackingNumber === undefined) {
      refuse(row, TRACKING_NUMBER_MESSAGE);
      continue;
    }
    let order: ManagedOrder;
    try {
      order = await findOrder(deps, row.reference);
    } catch (error) {
      if (!(error instanceof RefusedError)) throw error;
      refuse(row, error.message);
      continue;
    }
    const named = { ...row, reference: order.reference, number: trackingNumber };
    const group = bySession.get(order.sessionId);
    if (group === undefined) bySession.set(order.sessionId, { order, rows: [named] });
    else group.rows.push(named);
  }
  return [...bySession.values()];
}

/** The email a number brings its order, as markDispatched and updateTrackingNumber decide it. */
function actionFor(order: ManagedOrder, trackingNumber: string): Exclude<ImportRowAction, 'refused'> {
  // Dispatched, its dispatch email not gone yet: that email goes, carrying the number.
  if (order.status === 'paid' || order.dispatchEmailState === 'pending') return 'dispatch';
  return order.trackingNumber === trackingNumber ? 'unchanged' : 'trackingUpdate';
}

/** The row with its order's reference and its number as stored. */
function rowAsStored(row: OrderRow): ClickAndDropRow {
  return { line: row.line, reference: row.reference, trackingNumber: row.number };
}

function customerOf(order: ManagedOrder): { customerName: string; customerEmail: string } {
  return { customerName: order.customerName, customerEmail: order.customerEmail };
}

/** The refused rows, as the import has always listed them. */
function unmatchedOf(plans: readonly ImportRowPlan[]): UnmatchedRow[] {
  return plans.flatMap(({ action, line, reference, trackingNumber, reason, plannedFor }) =>
    action === 'refused'
      ? [{ line, reference, trackingNumber, reason, ...(plannedFor && { plannedFor }) }]
      : [],
  );
}
