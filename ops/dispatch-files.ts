import type { SellerDetails } from '../lambdas/domain/emails/customer-confirmation';
import { escapeHtml } from '../lambdas/domain/emails/render';
import type { ManagedOrder } from '../lambdas/domain/orders/managed-order';
import { formatDispatchDate } from '../shared/dispatch';
import { DAPHNIA, PRODUCT_NAME } from '../shared/product';

/** The courier upload's columns, in order. */
export const CSV_COLUMNS = [
  'name',
  'address_line_1',
  'address_line_2',
  'address_line_3',
  'postcode',
  'phone',
  'email',
  'reference',
  'bottles',
] as const;

/**
 * One CSV field: quoted, quotes doubled, and a leading `=`, `+`, `-`, `@`, tab or CR defused with
 * an apostrophe, so a customer's "name" cannot become a formula in the merchant's spreadsheet.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The address as three label lines: the customer's own lines (or comma-separated parts), the
 * fourth and later ones joined onto the third, so nothing is lost.
 */
export function addressLines(address: string): [string, string, string] {
  const lines = address
    .split(/\r?\n/)
    .flatMap((line) => (address.includes('\n') ? [line] : line.split(',')))
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return [lines[0] ?? '', lines[1] ?? '', lines.slice(2).join(', ')];
}

/** The courier's bulk-label CSV: a header row and one row per order, CRLF line ends. */
export function courierCsv(orders: readonly ManagedOrder[]): string {
  const rows = orders.map((order) =>
    [
      order.customerName,
      ...addressLines(order.deliveryAddress),
      order.postcode,
      order.customerPhone,
      order.customerEmail,
      order.reference,
      order.bottles,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

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
<h2>${escapeHtml(order.reference)}</h2>
<p class="pack">${order.bottles} × ${escapeHtml(DAPHNIA.bottleSize)} ${escapeHtml(PRODUCT_NAME)}</p>
<p class="to">${[order.customerName, ...order.deliveryAddress.split(/\r?\n/), order.postcode].map(escapeHtml).join('<br>')}</p>
<p>${order.customerPhone ? `Phone: ${escapeHtml(order.customerPhone)}<br>` : ''}Email: ${escapeHtml(order.customerEmail)}</p>
<p class="live">LIVE ANIMALS: keep upright, away from heat and frost. Open on arrival.</p>
<p class="from">From: ${escapeHtml(seller.name)}, ${escapeHtml(seller.address.replace(/\r?\n/g, ', '))}</p>
</section>`,
  );
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:Arial,Helvetica,sans-serif;font-size:12pt;color:#000;margin:0}
.summary,.slip{box-sizing:border-box;max-width:105mm;padding:8mm;margin:0 auto 8mm;border:1px dashed #888}
h1{font-size:16pt;margin:0 0 4mm}h2{font-size:20pt;margin:0 0 3mm;letter-spacing:.05em}
.pack{font-size:16pt;font-weight:700}.to{font-size:13pt}.live{font-weight:700;border:2px solid #000;padding:2mm}
.from{font-size:9pt}
@page{size:A6;margin:6mm}
@media print{.summary,.slip{border:0;margin:0;max-width:none;padding:0;break-after:page;page-break-after:always}.slip:last-child{break-after:auto}}
</style></head><body>
<section class="summary"><h1>${escapeHtml(title)}</h1>
<p>${orders.length} ${orders.length === 1 ? 'order' : 'orders'}, ${bottles} bottles to prepare.</p>
<ol>${orders.map((o) => `<li>${escapeHtml(o.reference)}: ${o.bottles} bottles, ${escapeHtml(o.postcode)}</li>`).join('')}</ol></section>
${slips.join('\n')}
</body></html>
`;
}
