import { normaliseTrackingNumber, TRACKING_NUMBER_MESSAGE } from '../../../shared/tracking-number';
import { readClickAndDropExport, UnreadableExportError } from '../fulfilment/click-and-drop-export';
import { RefusedError } from '../refusal';
import { type ActionResult, markDispatched } from './order-actions';
import type { ShopDeps } from './shop-deps';

/** A row of the export that marked nothing, and why, in the merchant's words. */
export interface UnmatchedRow {
  line: number;
  reference: string;
  trackingNumber: string;
  reason: string;
}

export interface TrackingImportResult {
  dispatched: ActionResult[];
  unmatched: UnmatchedRow[];
}

/**
 * Marks every order of a Click & Drop export dispatched with its tracking number, in one step:
 * each row through markDispatched, so each order's dispatch email goes once however often the
 * same file is imported (a second import changes nothing; a row whose number differs from the
 * one stored corrects it, with its one update email). A row that matches no order, or whose order
 * cannot be dispatched (refunded), or whose number is not one, is listed and the others go on.
 * @throws RefusedError when the file is not a Click & Drop export with tracking numbers.
 */
export async function importClickAndDropTracking(
  csv: string,
  options: { actor: string },
  deps: ShopDeps,
): Promise<TrackingImportResult> {
  let rows: ReturnType<typeof readClickAndDropExport>;
  try {
    rows = readClickAndDropExport(csv);
  } catch (error) {
    if (error instanceof UnreadableExportError) throw new RefusedError(error.message, { cause: error });
    throw error;
  }
  const dispatched: ActionResult[] = [];
  const unmatched: UnmatchedRow[] = [];
  for (const row of rows) {
    const skip = (reason: string) => unmatched.push({ ...row, reason });
    if (row.reference === '') {
      skip('No order reference on this row: not an order from this shop.');
      continue;
    }
    // A label not printed yet has no number: the order waits for the next export.
    if (row.trackingNumber === '') {
      skip('No tracking number on this row yet.');
      continue;
    }
    if (normaliseTrackingNumber(row.trackingNumber) === undefined) {
      skip(TRACKING_NUMBER_MESSAGE);
      continue;
    }
    try {
      dispatched.push(
        await markDispatched(
          row.reference,
          { trackingNumber: row.trackingNumber, actor: options.actor },
          deps,
        ),
      );
    } catch (error) {
      if (!(error instanceof RefusedError)) throw error;
      skip(error.message);
    }
  }
  return { dispatched, unmatched };
}
