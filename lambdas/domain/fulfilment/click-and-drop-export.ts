// Reads back the CSV Click & Drop exports once labels are printed: each row is one of our orders
// (its "Order reference", which our import file set, dispatch-files.ts) with the tracking number
// Royal Mail gave its label. The export's columns vary with the account's export settings, so
// columns are found by their heading, in any case and order, never by position.

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
 * RFC 4180 records: quoted fields (with doubled quotes, commas and line breaks inside), CRLF or
 * LF, a UTF-8 byte order mark (Excel and Click & Drop write one). Each record with the line it
 * starts on. Twenty lines instead of a dependency for the one file the shop reads.
 */
export function parseCsv(text: string): Array<{ line: number; fields: string[] }> {
  const records: Array<{ line: number; fields: string[] }> = [];
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line += 1;
        field += c;
      }
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && body[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else field += c;
  }
  if (field !== '' || fields.length > 0) endRecord();
  return records;
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
