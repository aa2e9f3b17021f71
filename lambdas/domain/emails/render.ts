/** A rendered email: both parts are always sent, so every client shows something readable. */
export interface EmailContent {
  subject: string;
  html: string;
  text: string;
}

/** Templates say what to show and this module alone makes HTML, escaping every string: none can forget to. */
export type EmailBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  /** Label/value pairs; a value may span lines (a postal address). */
  | { kind: 'rows'; rows: ReadonlyArray<EmailRow> }
  /** A link on its own line; the text part shows the address after the words. */
  | { kind: 'link'; text: string; href: string }
  /** The one call to action: its URL only in `href`, never widening a phone's screen; text shows it after. */
  | { kind: 'button'; text: string; href: string };

/** `mono`: a code read character by character (a reference: I and l, O and 0 differ), monospace in HTML. */
export type EmailRow = readonly [label: string, value: string, format?: { mono: boolean }];

/** The shop's colour: the header's name and rule, links and buttons. */
const BRAND = '#0b5f6b';

/** Monospace faces every mail client has one of; the generic family last. */
const MONOSPACE = "font-family:Menlo,Consolas,'Courier New',monospace";

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** CR, LF and every other control or separator become a space: no header injection through the subject. */
export function singleLine(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

function htmlLines(value: string): string {
  return value
    .split(/\r\n|\r|\n/)
    .map((line) => escapeHtml(line))
    .join('<br>');
}

function blockToHtml(block: EmailBlock): string {
  switch (block.kind) {
    case 'heading':
      return `<h2 style="font-size:18px;margin:24px 0 8px">${escapeHtml(block.text)}</h2>`;
    case 'paragraph':
      return `<p style="margin:0 0 12px">${htmlLines(block.text)}</p>`;
    case 'link':
      return `<p style="margin:0 0 12px"><a href="${escapeHtml(block.href)}" style="color:${BRAND};font-weight:600">${escapeHtml(block.text)}</a></p>`;
    case 'button':
      return `<p style="margin:16px 0"><a href="${escapeHtml(block.href)}" style="display:inline-block;max-width:100%;box-sizing:border-box;padding:12px 24px;border-radius:6px;background:${BRAND};color:#ffffff;font-weight:600;text-decoration:none;text-align:center">${escapeHtml(block.text)}</a></p>`;
    case 'rows':
      // Long values (Stripe ids, email addresses) wrap rather than push a phone screen sideways.
      return `<table role="presentation" style="border-collapse:collapse;margin:0 0 12px;max-width:100%">${block.rows
        .map(
          ([label, value, format]) =>
            `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:2px 16px 2px 0;font-weight:600">${escapeHtml(label)}</th><td style="padding:2px 0;overflow-wrap:anywhere;word-break:break-word${format?.mono ? `;${MONOSPACE}` : ''}">${htmlLines(value)}</td></tr>`,
        )
        .join('')}</table>`;
  }
}

function blockToText(block: EmailBlock): string {
  switch (block.kind) {
    case 'heading':
      return `${block.text}\n${'-'.repeat(Math.min(block.text.length, 60))}`;
    case 'paragraph':
      return block.text;
    case 'link':
    case 'button':
      return `${block.text}: ${block.href}`;
    case 'rows':
      return block.rows
        .map(([label, value]) => `${label}: ${value.split(/\r\n|\r|\n/).join('\n  ')}`)
        .join('\n');
  }
}

/** Both parts of one email under the header all share: the shop's name, known at a glance. */
export function renderEmail(subject: string, blocks: readonly EmailBlock[], shopName: string): EmailContent {
  const safeSubject = singleLine(subject);
  const name = singleLine(shopName);
  const html = [
    '<!doctype html>',
    '<html lang="en-GB"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(safeSubject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a;max-width:640px;margin:0 auto;padding:16px">',
    `<p style="margin:0 0 20px;padding:0 0 10px;border-bottom:3px solid ${BRAND};font-size:22px;font-weight:700;color:${BRAND}">${escapeHtml(name)}</p>`,
    ...blocks.map(blockToHtml),
    '</body></html>',
  ].join('\n');
  const header = `${name}\n${'='.repeat(Math.min(name.length, 60))}`;
  const text = `${[header, ...blocks.map(blockToText)].join('\n\n')}\n`;
  return { subject: safeSubject, html, text };
}
