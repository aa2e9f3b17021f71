// Reads back Click & Drop's CSV export (our "Order reference" and Royal Mail's tracking number). Its columns
// vary with the account's settings, so they are found by heading, in any case and order; the export's
// headings are not publicly documented (only the import's, help.parcel.royalmail.com article 360000250093),
// so the usual names pass.
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
 * Records with their starting line (quoted fields, CRLF or LF, Excel's BOM); a row with more or fewer fields
 * than the heading is kept, not refused. @throws UnreadableExportError naming the line of a broken CSV.
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
 * The rows carrying a reference or tracking number, as written (trimmed); rows with neither are skipped.
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
