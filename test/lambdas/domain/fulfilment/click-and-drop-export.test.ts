import { describe, expect, it } from 'vitest';
import {
  parseCsv,
  readClickAndDropExport,
  UnreadableExportError,
} from '../../../../lambdas/domain/fulfilment/click-and-drop-export';

// As Click & Drop writes an export: a byte order mark, CRLF, every field quoted, an address with a
// comma and a doubled quote, a line break inside a field, and a trailing blank line.
const EXPORT = [
  '\uFEFF"Order number","Order reference","Channel","Recipient name","Address line 1","Postcode","Service","Tracking number","Despatch date"',
  '"1001","AbC123dEf456","Imported","Zoë O\'Brien","Flat 2, ""The Mill""","SW1A 1AA","Royal Mail 1st Class","AB 1234 5678 9GB","30/11/2026"',
  '"1002","XYZ987uvw654","Imported","Sam Lee","1 High St\nRear entrance","M1 1AE","Royal Mail Tracked 24","TT123456785GB","30/11/2026"',
  '"1003","","Imported","No Ref","2 Low St","B1 1AA","Royal Mail 1st Class","",""',
  '',
].join('\r\n');

describe('readClickAndDropExport', () => {
  it('reads each row’s reference and tracking number by heading, through quotes, BOM and CRLF', () => {
    expect(readClickAndDropExport(EXPORT)).toEqual([
      { line: 2, reference: 'AbC123dEf456', trackingNumber: 'AB 1234 5678 9GB' },
      { line: 3, reference: 'XYZ987uvw654', trackingNumber: 'TT123456785GB' },
    ]);
  });

  it('finds the reference in a "Channel reference" column, in any case, with LF line ends', () => {
    const csv = 'tracking number,CHANNEL REFERENCE\nAB123456789GB,AbC123dEf456\n';
    expect(readClickAndDropExport(csv)).toEqual([
      { line: 2, reference: 'AbC123dEf456', trackingNumber: 'AB123456789GB' },
    ]);
  });

  it('refuses a file without a tracking number column, naming its headings', () => {
    expect(() => readClickAndDropExport('"Full name","Order reference"\r\n"A","B"\r\n')).toThrow(
      new UnreadableExportError(
        'This is not a Click & Drop export with tracking numbers: it needs an "Order reference" and a "Tracking number" column (it has "Full name", "Order reference").',
      ),
    );
  });

  it('refuses an empty file', () => {
    expect(() => readClickAndDropExport('\uFEFF')).toThrow('The file is empty.');
  });
});

describe('parseCsv', () => {
  it('keeps commas, doubled quotes and line breaks inside quoted fields, and counts lines', () => {
    expect(parseCsv('a,"b,c"\r\n"d ""e""","f\ng"\r\nh,i')).toEqual([
      { line: 1, fields: ['a', 'b,c'] },
      { line: 2, fields: ['d "e"', 'f\ng'] },
      { line: 4, fields: ['h', 'i'] },
    ]);
  });
});

describe('parseCsv through csv-parse', () => {
  it('keeps a row shorter or longer than the heading, and a stray quote inside a field', () => {
    expect(parseCsv('a,b,c\r\n1,2\r\n3,4,5,6\r\n7,x"y,8')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', '2'] },
      { line: 3, fields: ['3', '4', '5', '6'] },
      { line: 4, fields: ['7', 'x"y', '8'] },
    ]);
  });

  it('refuses a file whose quote never closes, naming it as not a readable CSV', () => {
    expect(() => parseCsv('a,b\r\n1,"open\r\n2,3')).toThrow(UnreadableExportError);
    expect(() => parseCsv('a,b\r\n1,"open\r\n2,3')).toThrow(/^The file is not a readable CSV \(line \d+\): /);
  });
});
