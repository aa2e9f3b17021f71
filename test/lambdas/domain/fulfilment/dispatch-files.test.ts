import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  clickAndDropCsv,
  clickAndDropDate,
  csvField,
  packageSize,
  packingSlipsHtml,
  parcelWeightKg,
  splitAddress,
} from '../../../../lambdas/domain/fulfilment/dispatch-files';
import { quoteOrder } from '../../../../shared/pricing';
import { orderFixture, paidCheckout, SELLER } from '../../../support/order-fixtures';

const HEADER =
  'Full name,Address line 1,Address line 2,Address line 3,City,County,Postcode,Country,Email,Phone,Order reference,Special instructions,Weight (kg),Package size,Service code,Planned despatch date';

describe('Click & Drop CSV: the address in its fields', () => {
  it('puts three address lines in Address line 1–3 and the last line before the postcode in City', () => {
    expect(splitAddress('Flat 2\nRiverside House\n12 High St\nLeeds', 'LS1 1AA')).toEqual({
      line1: 'Flat 2',
      line2: 'Riverside House',
      line3: '12 High St',
      city: 'Leeds',
      county: '',
    });
    expect(splitAddress('12 High St\nFlat 2\nLeeds', 'LS1 1AA')).toEqual({
      line1: '12 High St',
      line2: 'Flat 2',
      line3: '',
      city: 'Leeds',
      county: '',
    });
  });

  it('joins a fourth and later line onto the third, so nothing is lost', () => {
    expect(splitAddress('Unit 4\nMill Yard\nBack Lane\nHolbeck\nLeeds', 'LS11 5AA')).toEqual({
      line1: 'Unit 4',
      line2: 'Mill Yard',
      line3: 'Back Lane, Holbeck',
      city: 'Leeds',
      county: '',
    });
  });

  it('splits a one-line address at its commas, the county last', () => {
    expect(splitAddress('12 High St, Leeds, West Yorkshire', 'LS1 1AA')).toEqual({
      line1: '12 High St',
      line2: '',
      line3: '',
      city: 'Leeds',
      county: 'West Yorkshire',
    });
  });

  it('keeps commas inside the lines a customer typed, and splits the last line at its commas', () => {
    expect(splitAddress('Flat 2, 10 Downing Street\nLondon', 'SW1A 2AA')).toEqual({
      line1: 'Flat 2, 10 Downing Street',
      line2: '',
      line3: '',
      city: 'London',
      county: '',
    });
    expect(splitAddress('12 High St\nHebden Bridge, West Yorkshire', 'HX7 8AA')).toMatchObject({
      line1: '12 High St',
      city: 'Hebden Bridge',
      county: 'West Yorkshire',
    });
  });

  it('recognises counties by name, by "shire" and by "County"/"Co.", and a town named like its county stays the town', () => {
    expect(splitAddress('1 Mill Lane\nClitheroe\nLancashire', 'BB7 1AA')).toMatchObject({
      city: 'Clitheroe',
      county: 'Lancashire',
    });
    expect(splitAddress('1 Main St, Newry, Co. Down', 'BT34 1AA')).toMatchObject({
      city: 'Newry',
      county: 'Co. Down',
    });
    expect(splitAddress('1 Quay St\nTruro\nCornwall', 'TR1 2AA')).toMatchObject({
      city: 'Truro',
      county: 'Cornwall',
    });
    expect(splitAddress('1 Market Place, Durham', 'DH1 3AA')).toMatchObject({
      line1: '1 Market Place',
      city: 'Durham',
      county: '',
    });
  });

  it('drops the postcode and a country the customer typed into the address (they have their own columns)', () => {
    expect(splitAddress('1 Pond Lane\nBristol BS1 4DJ', 'BS1 4DJ')).toMatchObject({
      line1: '1 Pond Lane',
      city: 'Bristol',
    });
    expect(splitAddress('1 Pond Lane, Bristol, bs14dj, UK', 'BS1 4DJ')).toMatchObject({
      line1: '1 Pond Lane',
      line2: '',
      city: 'Bristol',
    });
    expect(splitAddress('1 Pond Lane\nBristol\nBS1 4DJ', 'BS1 4DJ')).toMatchObject({
      line1: '1 Pond Lane',
      city: 'Bristol',
    });
    expect(splitAddress('12 High St, Leeds, West Yorkshire, LS1 1AA, England', 'LS1 1AA')).toMatchObject({
      city: 'Leeds',
      county: 'West Yorkshire',
    });
    // A postcode-like ending that is not the order's postcode is left alone.
    expect(splitAddress('1 Pond Lane\nBristol BS2 0AA', 'BS1 4DJ')).toMatchObject({
      city: 'Bristol BS2 0AA',
    });
  });

  it('reads the address alike whatever blank lines, spaces and stray commas the customer typed', () => {
    const fields = {
      line1: '12 High St',
      line2: '',
      line3: '',
      city: 'Leeds',
      county: 'West Yorkshire',
    };
    expect(splitAddress('12 High St\nLeeds, West Yorkshire\n', 'LS1 1AA')).toEqual(fields);
    expect(splitAddress('12 High St\r\nLeeds, West Yorkshire\r\n  \r\n', 'LS1 1AA')).toEqual(fields);
    expect(splitAddress('12 High St, Leeds, West Yorkshire,', 'LS1 1AA')).toEqual(fields);
    expect(splitAddress('12 High St, Brighton, East  Sussex', 'BN1 1AA')).toEqual({
      ...fields,
      city: 'Brighton',
      county: 'East  Sussex',
    });
    expect(splitAddress('1 Pond Lane\nBristol  BS1 4DJ', 'BS1 4DJ')).toMatchObject({ city: 'Bristol' });
  });

  it('takes "Co Down" without its dot as a county, and a name with "shire" or "Co" inside it as the town', () => {
    expect(splitAddress('1 Main St, Newry, Co Down', 'BT34 1AA')).toMatchObject({
      city: 'Newry',
      county: 'Co Down',
    });
    expect(splitAddress('Unit 1\nCheshire Oaks', 'CH65 9JJ')).toMatchObject({
      line1: 'Unit 1',
      city: 'Cheshire Oaks',
      county: '',
    });
    expect(splitAddress('50 Porters Walk\nTobacco Dock', 'E1W 2SF')).toMatchObject({
      line1: '50 Porters Walk',
      city: 'Tobacco Dock',
      county: '',
    });
  });

  it('gives empty fields for an address that is empty or only the postcode', () => {
    const empty = { line1: '', line2: '', line3: '', city: '', county: '' };
    expect(splitAddress('', 'LS1 1AA')).toEqual(empty);
    expect(splitAddress('LS1 1AA', 'LS1 1AA')).toEqual(empty);
    expect(splitAddress('LS1 1AA, UK', 'LS1 1AA')).toEqual(empty);
  });

  it('leaves City empty for a one-part address, and names that order as needing its town', () => {
    expect(splitAddress('12 High St', 'LS1 1AA')).toEqual({
      line1: '12 High St',
      line2: '',
      line3: '',
      city: '',
      county: '',
    });
    expect(splitAddress('12 High St, Kent', 'CT1 1AA')).toMatchObject({
      line1: '12 High St',
      city: '',
      county: 'Kent',
    });
  });
});

describe('Click & Drop CSV: fields a spreadsheet cannot turn into formulas', () => {
  it('keeps a +44 phone exactly as typed, with no apostrophe', () => {
    expect(csvField('+44 7700 900123', 'phone')).toBe('"+44 7700 900123"');
    expect(csvField('+44 (0)7700-900123', 'phone')).toBe('"+44 (0)7700-900123"');
    expect(csvField('07700 900123', 'phone')).toBe('"07700 900123"');
  });

  it('still defuses a phone that is not only digits after its +, and a +44 anywhere but the phone column', () => {
    expect(csvField("+cmd|' /C calc'!A0", 'phone')).toBe(`"'+cmd|' /C calc'!A0"`);
    expect(csvField('+44+SUM(A1)', 'phone')).toBe(`"'+44+SUM(A1)"`);
    expect(csvField('=1+1', 'phone')).toBe(`"'=1+1"`);
    expect(csvField('+44 7700 900123')).toBe(`"'+44 7700 900123"`);
  });

  it('defuses every formula-shaped start in the other fields and doubles quotes', () => {
    expect(['=A1', '+A1', '-A1', '@A1', '\tA1', '\rA1'].map((value) => csvField(value))).toEqual([
      `"'=A1"`,
      `"'+A1"`,
      `"'-A1"`,
      `"'@A1"`,
      `"'\tA1"`,
      `"'\rA1"`,
    ]);
    expect(csvField('=HYPERLINK("http://evil.test")')).toBe(`"'=HYPERLINK(""http://evil.test"")"`);
  });
});

describe('Click & Drop CSV: the parcel', () => {
  it('weighs 280 g a bottle plus 250 g of packaging, in kilograms with three decimals', () => {
    expect([3, 6, 9].map(parcelWeightKg)).toEqual(['1.090', '1.930', '2.770']);
  });

  it('is a small parcel up to 2 kg (3 and 6 bottles) and a medium parcel above (9 bottles)', () => {
    expect([3, 6, 9].map(packageSize)).toEqual(['small parcel', 'small parcel', 'medium parcel']);
  });

  it('names the package size from the weight it declares, whatever the number of bottles', () => {
    const bottles = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(bottles.map(parcelWeightKg)).toEqual([
      '0.530',
      '0.810',
      '1.090',
      '1.370',
      '1.650',
      '1.930',
      '2.210',
      '2.490',
      '2.770',
    ]);
    expect(bottles.map(packageSize)).toEqual([
      ...Array(6).fill('small parcel'),
      ...Array(3).fill('medium parcel'),
    ]);
  });

  it("gives the planned despatch date as DD/MM/YY, Click & Drop's import default", () => {
    expect(clickAndDropDate('2026-12-29')).toBe('29/12/26');
    expect(clickAndDropDate('2027-03-02')).toBe('02/03/27');
  });

  it("writes Click & Drop's headings, then one row per order with the handling mark and a +44 phone as typed", () => {
    const order = orderFixture({
      customer: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '+44 7700 900123',
        address: '12 High St\nFlat 2\nLeeds, West Yorkshire',
        postcode: 'LS1 1AA',
      },
    });
    const csv = clickAndDropCsv('2026-11-23', [order]);
    expect(csv.split('\r\n')).toEqual([
      HEADER,
      `"Ada Lovelace","12 High St","Flat 2","","Leeds","West Yorkshire","LS1 1AA","United Kingdom","ada@example.com","+44 7700 900123","${order.reference}","URGENT – LIVING CREATURES – HANDLE WITH CARE","1.090","small parcel","","23/11/26"`,
      '',
    ]);
  });

  it('writes the headings alone for a day with no orders', () => {
    expect(clickAndDropCsv('2026-11-23', [])).toBe(`${HEADER}\r\n`);
  });
});

describe('the reference on the day files', () => {
  it('is the one form the success page shows: the 12 characters, case kept, on the slips and in the CSV', () => {
    const order = orderFixture({ sessionId: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmN' });
    expect(packingSlipsHtml('2026-11-23', [order], SELLER)).toContain('<h2 class="ref">g7H8i9J0kLmN</h2>');
    expect(clickAndDropCsv('2026-11-23', [order])).toContain(',"g7H8i9J0kLmN",');
  });
});

describe('packing slips', () => {
  it('carry the handling mark on every slip and the reference in a monospace face', () => {
    const html = packingSlipsHtml('2026-11-23', [orderFixture(), orderFixture()], SELLER);
    expect(html.match(/<p class="mark">URGENT – LIVING CREATURES – HANDLE WITH CARE<\/p>/g)).toHaveLength(2);
    expect(html).toContain(`<h2 class="ref">${orderFixture().reference}</h2>`);
    expect(html).toMatch(/\.ref\{font-family:[^}]*monospace\}/);
  });

  it('read on a phone at their size, long words wrapped, as well as printing on A6', () => {
    const html = packingSlipsHtml('2026-11-23', [orderFixture()], SELLER);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/body\{[^}]*overflow-wrap:anywhere\}/);
    expect(html).toContain('@page{size:A6;margin:6mm}');
  });

  it('give the summary, then each slip with its contents, the address as typed, how to reach the customer and the sender', () => {
    const ada = orderFixture({
      sessionId: 'cs_test_AdaLovelace000000000000000000',
      quote: quoteOrder(6),
      customer: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '+44 7700 900123',
        address: '12 High St\r\nFlat 2\nLeeds',
        postcode: 'LS1 1AA',
      },
    });
    const zoe = orderFixture({ customer: { ...paidCheckout().customer, phone: '' } });
    const html = packingSlipsHtml('2026-11-23', [ada, zoe], SELLER);

    expect(html.slice(html.indexOf('<body>'))).toBe(`<body>
<section class="summary"><h1>Packing slips: Monday 23 November</h1>
<p>2 orders, 9 bottles to prepare.</p>
<ol><li><span class="ref">${ada.reference}</span>: 6 bottles, LS1 1AA</li><li><span class="ref">${zoe.reference}</span>: 3 bottles, SW1A 2AA</li></ol></section>
<section class="slip">
<p class="mark">URGENT – LIVING CREATURES – HANDLE WITH CARE</p>
<h2 class="ref">${ada.reference}</h2>
<p class="pack">6 × 250ml Daphnia Magna</p>
<p class="to">Ada Lovelace<br>12 High St<br>Flat 2<br>Leeds<br>LS1 1AA</p>
<p>Phone: +44 7700 900123<br>Email: ada@example.com</p>
<p class="live">LIVE ANIMALS: keep upright, away from heat and frost. Open on arrival.</p>
<p class="from">From: Live Aquatics Ltd, 1 Pond Lane, Bristol BS1 4DJ</p>
</section>
<section class="slip">
<p class="mark">URGENT – LIVING CREATURES – HANDLE WITH CARE</p>
<h2 class="ref">${zoe.reference}</h2>
<p class="pack">3 × 250ml Daphnia Magna</p>
<p class="to">Zoë Brontë<br>Flat 2, 10 Downing Street<br>London<br>SW1A 2AA</p>
<p>Email: zoe@example.com</p>
<p class="live">LIVE ANIMALS: keep upright, away from heat and frost. Open on arrival.</p>
<p class="from">From: Live Aquatics Ltd, 1 Pond Lane, Bristol BS1 4DJ</p>
</section>
</body></html>
`);
  });

  it('count one order in the singular', () => {
    const html = packingSlipsHtml('2026-11-23', [orderFixture()], SELLER);
    expect(html).toContain('<p>1 order, 3 bottles to prepare.</p>');
  });

  it('style themselves with one inline stylesheet, the one the site policy allows by hash, and run no script', () => {
    // Opened from a blob by the admin page, the slips keep the page's CSP: a second <style>, or
    // one that changed with the day's orders, would be dropped, and the slips would print unstyled.
    for (const orders of [[], [orderFixture()], [orderFixture(), orderFixture()]]) {
      const html = packingSlipsHtml('2026-11-23', orders, SELLER);
      const hashes = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
        ([, text = '']) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`,
      );
      expect(hashes).toEqual(['sha256-0Zhc3Em0fZF0VygA+vpt5Dca6Cg+Fn5hEt+ZxL8L9HQ=']);
      expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    }
  });
});
