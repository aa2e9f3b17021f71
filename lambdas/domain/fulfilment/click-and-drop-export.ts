// Reads back the CSV Click & Drop exports once labels are printed: each row is one of our orders
// (its "Order reference", which our import file set, dispatch-files.ts) with the tracking number
// Royal Mail gave its label. The export's columns vary with the account's export settings, so
// columns are found by their heading, in any case and order, never by position. The headings: Royal
// Mail's help centre documents the order import's fields ("Order Import spreadsheet field
// specifications", help.parcel.royalmail.com, article 360000250093); the export's own headings
// were not found in a public source here, so the usual names are all accepted.
import { CsvError, parse } from 'csv-parse/sync';

/** Headings that carry our reference: Click & Drop echoes ours as "Order reference"; "Channel reference" in some exports. */
const REFERENCE_HEADINGS = ['order reference', 'channel reference', 'reference', 'customer reference'];
/** Headings that carry the label's tracking number. */
const TRACKING_HEADINGS = [
  'tracking number',
  'tracking no',
  'tracking no.',
  'tracking code',
  'tracking reference',
];

export interface ClickAndDropRow {
  /** The row's line in the file (1 is the heading), for the merchant to find it. */
  line: number;
  reference: string;
  trackingNumber: string;
}

export class UnreadableExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableExportError';
  }
}

/**
 * The file's records, each with the line it starts on: csv-parse reads quoted fields (doubled
 * quotes, commas and line breaks inside), CRLF or LF and the byte order mark Excel and Click &
 * Drop write; a row with more or fewer fields than the heading is kept (relaxed), not refused.
 * @throws UnreadableExportError naming the line where the CSV itself is broken (an open quote).
 */
export function parseCsv(text: string): Array<{ line: number; fields: string[] }> {
  try {
    const records: Array<{ line: number; fields: string[] }> = [];
    parse(text, {
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      // context.lines is the line the record ends on; it starts as many line breaks earlier.
      on_record: (fields: string[], context) => {
        const breaks = fields.reduce((sum, field) => sum + (field.match(/\r?\n/g)?.length ?? 0), 0);
        records.push({ line: context.lines - breaks, fields });
        return fields;
      },
    });
    return records;
  } catch (error) {
    if (error instanceof CsvError) {
      throw new UnreadableExportError(
        `The file is not a readable CSV (line ${error.lines ?? '?'}): ${error.message}`,
      );
    }
    throw error;
  }
}

function columnOf(headings: string[], names: readonly string[]): number {
  const normalised = headings.map((h) => h.trim().toLowerCase());
  for (const name of names) {
    const index = normalised.indexOf(name);
    if (index !== -1) return index;
  }
  return -1;
}

/**
 * The rows of a Click & Drop export that carry a reference or a tracking number, as written
 * (trimmed; matching and checking are the caller's). Rows with neither (a blank line, a total) are
 * skipped.
 * @throws UnreadableExportError when the file has no reference or no tracking number column.
 */
export function readClickAndDropExport(text: string): ClickAndDropRow[] {
  const [heading, ...rows] = parseCsv(text);
  if (heading === undefined) throw new UnreadableExportError('The file is empty.');
  const referenceColumn = columnOf(heading.fields, REFERENCE_HEADINGS);
  const trackingColumn = columnOf(heading.fields, TRACKING_HEADINGS);
  if (referenceColumn === -1 || trackingColumn === -1) {
    throw new UnreadableExportError(
      `This is not a Click & Drop export with tracking numbers: it needs an "Order reference" and a "Tracking number" column (it has ${heading.fields
        .slice(0, 8)
        .map((h) => `"${h.trim()}"`)
        .join(', ')}${heading.fields.length > 8 ? ', …' : ''}).`,
    );
  }
  return rows.flatMap(({ line, fields }) => {
    const reference = (fields[referenceColumn] ?? '').trim();
    const trackingNumber = (fields[trackingColumn] ?? '').trim();
    return reference === '' && trackingNumber === '' ? [] : [{ line, reference, trackingNumber }];
  });
}
