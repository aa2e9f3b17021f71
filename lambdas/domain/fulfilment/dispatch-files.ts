import { formatDispatchDate, type IsoDate } from '../../../shared/dispatch';
import { formatReference } from '../../../shared/order-reference';
import { DAPHNIA, PRODUCT_NAME } from '../../../shared/product';
import type { SellerDetails } from '../emails/common';
import { escapeHtml } from '../emails/render';
import type { ManagedOrder } from '../storage/managed-order';

/** Click & Drop's import headings in the CSV's order: with these exact names it maps every column itself. */
export const CLICK_AND_DROP_COLUMNS = [
  'Full name',
  'Address line 1',
  'Address line 2',
  'Address line 3',
  'City',
  'County',
  'Postcode',
  'Country',
  'Email',
  'Phone',
  'Order reference',
  'Special instructions',
  'Weight (kg)',
  'Package size',
  'Service code',
  'Planned despatch date',
] as const;

/**
 * Royal Mail carries live creatures only marked so (1st Class at the least). It goes in Special
 * instructions (Click & Drop takes up to 100 characters) and on every packing slip.
 */
export const LIVE_ANIMALS_MARK = 'URGENT – LIVING CREATURES – HANDLE WITH CARE';

/**
 * Click & Drop's Country takes a country's full name or an ISO code; the full name is the form
 * its field specification gives first, and the checkout only takes UK postcodes.
 */
const COUNTRY = 'United Kingdom';

/**
 * Left empty on purpose: service codes differ between Click & Drop accounts (online prices or a
 * business contract), and an unknown code fails the import. The merchant sets Royal Mail 1st Class
 * (or faster) in Click & Drop, as a default service or a shipping rule; the command reminds them.
 */
const SERVICE_CODE = '';

/**
 * A bottle's share of the parcel: 250 ml of pond water weighs 250 g, plus about 30 g for the PET
 * bottle, its cap and its bag. Rounded up: a parcel declared lighter than it is costs a surcharge.
 */
const GRAMS_PER_BOTTLE = 280;
/** The box, its insulation and padding, whatever the number of bottles: about 250 g. */
const PACKAGING_GRAMS = 250;
/** Royal Mail's small parcel goes up to 2 kg; heavier parcels (9 bottles) are medium parcels. */
const SMALL_PARCEL_MAX_GRAMS = 2000;

const FORMULA_START = /^[=+\-@\t\r]/;
/** A phone of the checkout's own shape: `+`, then digits, spaces, brackets and hyphens only. */
const PLAIN_PHONE = /^\+[0-9 ()-]+$/;

/**
 * One CSV field: quoted, quotes doubled, a leading `=`, `+`, `-`, `@`, tab or CR defused with an apostrophe
 * so a "name" cannot become a formula in the merchant's spreadsheet. A `phone` keeps its `+` (Click & Drop's
 * numeric field would keep the apostrophe): from `+`, digits, spaces, brackets and hyphens no function or
 * link can be spelled. Any other value starting with `+` (not from the checkout) is defused.
 */
export function csvField(value: string | number, kind: 'text' | 'phone' = 'text'): string {
  let text = String(value);
  const plainPhone = kind === 'phone' && PLAIN_PHONE.test(text);
  if (FORMULA_START.test(text) && !plainPhone) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** An address in Click & Drop's fields; `city` is empty when the customer gave no town. */
export interface AddressFields {
  line1: string;
  line2: string;
  line3: string;
  city: string;
  county: string;
}

/**
 * Counties customers write after the town, in lower case. Counties that share a name with their
 * town (Durham, Bristol, London) are left out: there the word is the town. Names ending in
 * "shire" and "County …"/"Co. …" are recognised without being listed.
 */
const COUNTIES = new Set([
  'avon',
  'cleveland',
  'clwyd',
  'cornwall',
  'cumbria',
  'devon',
  'dorset',
  'dumfries and galloway',
  'dyfed',
  'east lothian',
  'east riding of yorkshire',
  'east sussex',
  'essex',
  'fife',
  'greater london',
  'greater manchester',
  'gwent',
  'gwynedd',
  'highland',
  'isle of anglesey',
  'isle of wight',
  'kent',
  'merseyside',
  'mid glamorgan',
  'middlesex',
  'midlothian',
  'norfolk',
  'north yorkshire',
  'northumberland',
  'powys',
  'rutland',
  'scottish borders',
  'somerset',
  'south glamorgan',
  'south yorkshire',
  'suffolk',
  'surrey',
  'tyne and wear',
  'west glamorgan',
  'west lothian',
  'west midlands',
  'west sussex',
  'west yorkshire',
]);

/** Country names customers sometimes add at the end: the Country column says it already. */
const COUNTRY_NAMES = new Set([
  'uk',
  'u.k.',
  'united kingdom',
  'gb',
  'great britain',
  'england',
  'scotland',
  'wales',
  'northern ireland',
]);

function isCounty(part: string): boolean {
  const name = part.toLowerCase().replace(/\s+/g, ' ');
  return COUNTIES.has(name) || /\S(shire)$/.test(name) || /^(county|co\.?) \S/.test(name);
}

/** The part without the order's postcode at its end ("Bristol BS1 4DJ" → "Bristol"). */
function withoutPostcode(part: string, postcode: string): string {
  const compact = postcode.replace(/[^0-9a-z]/gi, '');
  if (compact === '') return part;
  const atEnd = new RegExp(`(^|[\\s,])${compact.split('').join('\\s*')}$`, 'i');
  return part.replace(atEnd, '').trim();
}

/**
 * Splits the free-text address into Click & Drop's fields. The last line is also split at commas, so "12 High
 * St, Leeds, West Yorkshire" reads as if on lines. From the end: postcode and country dropped, a county to
 * `county`, then the post town; lines 1–3 take the rest, later ones joined onto the third so nothing is lost.
 * A one-part address has no town: the merchant fills `city` in.
 */
export function splitAddress(address: string, postcode: string): AddressFields {
  const lines = address
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const parts = [...lines.slice(0, -1), ...(lines.at(-1) ?? '').split(',')]
    .map((part) => part.trim())
    .filter((part) => part !== '');
  // The postcode and a country, in either order ("Leeds, LS1 1AA, UK" or "Leeds, UK, LS1 1AA").
  for (;;) {
    const last = parts.at(-1);
    if (last === undefined) break;
    const kept = COUNTRY_NAMES.has(last.toLowerCase()) ? '' : withoutPostcode(last, postcode);
    if (kept === last) break;
    parts.pop();
    if (kept !== '') parts.push(kept);
  }
  const county = isCounty(parts.at(-1) ?? '') ? (parts.pop() ?? '') : '';
  const city = parts.length >= 2 ? (parts.pop() ?? '') : '';
  return {
    line1: parts[0] ?? '',
    line2: parts[1] ?? '',
    line3: parts.slice(2).join(', '),
    city,
    county,
  };
}

/** The parcel's weight in kilograms, three decimals as Click & Drop takes it: 3 bottles "1.090". */
export function parcelWeightKg(bottles: number): string {
  return ((bottles * GRAMS_PER_BOTTLE + PACKAGING_GRAMS) / 1000).toFixed(3);
}

/** Click & Drop's package size for the parcel's weight. */
export function packageSize(bottles: number): 'small parcel' | 'medium parcel' {
  return bottles * GRAMS_PER_BOTTLE + PACKAGING_GRAMS <= SMALL_PARCEL_MAX_GRAMS
    ? 'small parcel'
    : 'medium parcel';
}

/** `2026-12-29` → `29/12/26`: Click & Drop reads import dates as DD/MM/YY unless set otherwise. */
export function clickAndDropDate(day: IsoDate): string {
  const [year = '', month = '', date = ''] = day.split('-');
  return `${date}/${month}/${year.slice(2)}`;
}

/** The Click & Drop import for one dispatch day: headings and a row per order, CRLF, every field defused. */
export function clickAndDropCsv(day: IsoDate, orders: readonly ManagedOrder[]): string {
  const rows = orders.map((order) => {
    const address = splitAddress(order.deliveryAddress, order.postcode);
    return [
      csvField(order.customerName),
      csvField(address.line1),
      csvField(address.line2),
      csvField(address.line3),
      csvField(address.city),
      csvField(address.county),
      csvField(order.postcode),
      csvField(COUNTRY),
      csvField(order.customerEmail),
      csvField(order.customerPhone, 'phone'),
      csvField(formatReference(order.reference)),
      csvField(LIVE_ANIMALS_MARK),
      csvField(parcelWeightKg(order.bottles)),
      csvField(packageSize(order.bottles)),
      csvField(SERVICE_CODE),
      csvField(clickAndDropDate(day)),
    ].join(',');
  });
  return `${[CLICK_AND_DROP_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

/**
 * Inline so the slips print on their own. The site's Content-Security-Policy allows this text by its hash
 * (infra/lib/shop-stack.ts), so it must not vary per day or order.
 */
export const PACKING_SLIPS_STYLE = `body{font-family:Arial,Helvetica,sans-serif;font-size:12pt;color:#000;margin:0;overflow-wrap:anywhere}
.summary,.slip{box-sizing:border-box;max-width:105mm;padding:8mm;margin:0 auto 8mm;border:1px dashed #888}
h1{font-size:16pt;margin:0 0 4mm}h2{font-size:20pt;margin:0 0 3mm;letter-spacing:.05em}
.ref{font-family:"DejaVu Sans Mono",Consolas,"Courier New",monospace}
.mark{font-size:15pt;font-weight:700;text-align:center;border:3px solid #000;padding:2mm;margin:0 0 4mm}
.pack{font-size:16pt;font-weight:700}.to{font-size:13pt}.live{font-weight:700;border:2px solid #000;padding:2mm}
.from{font-size:9pt}
@page{size:A6;margin:6mm}
@media print{.summary,.slip{border:0;margin:0;max-width:none;padding:0;break-after:page;page-break-after:always}.slip:last-child{break-after:auto}}
`;

/** One printable HTML file: a summary page, then one packing slip per order (A6-sized, one per page). */
export function packingSlipsHtml(
  day: string,
  orders: readonly ManagedOrder[],
  seller: SellerDetails,
): string {
  const bottles = orders.reduce((sum, order) => sum + order.bottles, 0);
  const title = `Packing slips: ${formatDispatchDate(day)}`;
  const slips = orders.map(
    (order) => `<section class="slip">
<p class="mark">${escapeHtml(LIVE_ANIMALS_MARK)}</p>
<h2 class="ref">${escapeHtml(formatReference(order.reference))}</h2>
<p class="pack">${order.bottles} × ${escapeHtml(DAPHNIA.bottleSize)} ${escapeHtml(PRODUCT_NAME)}</p>
<p class="to">${[order.customerName, ...order.deliveryAddress.split(/\r?\n/), order.postcode].map(escapeHtml).join('<br>')}</p>
<p>${order.customerPhone ? `Phone: ${escapeHtml(order.customerPhone)}<br>` : ''}Email: ${escapeHtml(order.customerEmail)}</p>
<p class="live">LIVE ANIMALS: keep upright, away from heat and frost. Open on arrival.</p>
<p class="from">From: ${escapeHtml(seller.name)}, ${escapeHtml(seller.address.replace(/\r?\n/g, ', '))}</p>
</section>`,
  );
  // References in a monospace face: in most sans-serif faces I/l and O/0 look alike. The viewport
  // line lets a phone show the slips at their size, not a desktop page shrunk to a third.
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PACKING_SLIPS_STYLE}</style></head><body>
<section class="summary"><h1>${escapeHtml(title)}</h1>
<p>${orders.length} ${orders.length === 1 ? 'order' : 'orders'}, ${bottles} bottles to prepare.</p>
<ol>${orders.map((o) => `<li><span class="ref">${escapeHtml(formatReference(o.reference))}</span>: ${o.bottles} bottles, ${escapeHtml(o.postcode)}</li>`).join('')}</ol></section>
${slips.join('\n')}
</body></html>
`;
}
