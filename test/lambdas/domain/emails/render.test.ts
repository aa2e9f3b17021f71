import { describe, expect, it } from 'vitest';
import { escapeHtml, renderEmail, singleLine } from '../../../../lambdas/domain/emails/render';
import { HOSTILE } from '../../../support/order-fixtures';

describe('email rendering', () => {
  it('escapes every HTML-significant character', () => {
    expect(escapeHtml(`<img src=x onerror=alert(1)> & "quoted" 'single'`)).toBe(
      '&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; &#39;single&#39;',
    );
  });

  it('the subject never carries CR/LF: CR, LF and other separators cannot start a header', () => {
    expect(singleLine('Order\r\nBcc: victim@example.com')).toBe('Order Bcc: victim@example.com');
    expect(singleLine('a\u2028b\u0085c\td')).toBe('a b c d');
  });

  it('escapes values in every block of the HTML part and leaves the text part readable', () => {
    // Prepare
    const blocks = [
      { kind: 'heading', text: HOSTILE.name },
      { kind: 'paragraph', text: HOSTILE.address },
      { kind: 'rows', rows: [[HOSTILE.name, HOSTILE.address]] },
    ] as const;

    // Act
    const email = renderEmail(`Hello ${HOSTILE.name}\r\nBcc: x@example.com`, blocks, HOSTILE.name);

    // Assess
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.html).not.toMatch(/<img|<a href/);
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain(
      '&quot;&gt;&lt;a href=&quot;https://evil.test&quot;&gt;win&lt;/a&gt;<br>London',
    );
    expect(email.html).toContain(
      '<title>Hello &lt;img src=x onerror=alert(1)&gt; Bcc: x@example.com</title>',
    );
    expect(email.html).not.toContain(`>${HOSTILE.name}<`);
    expect(email.text).toContain(HOSTILE.name);
    expect(email.text).toContain('"><a href="https://evil.test">win</a>\n  London');
  });

  it('renders one whole HTML document: doctype, British English, UTF-8, a heading, rows as a table and a link', () => {
    // Act
    const email = renderEmail(
      'Order J0kLmNoPqRsT',
      [
        { kind: 'heading', text: 'Your order' },
        {
          kind: 'rows',
          rows: [
            ['Bottles', '3'],
            ['Address', 'Flat 2\nLondon'],
          ],
        },
        { kind: 'link', text: 'Track it', href: 'https://shop.test/t?a=1&b=2' },
      ],
      'Live Aquatics',
    );

    // Assess
    expect(email.html).toBe(
      [
        '<!doctype html>',
        '<html lang="en-GB"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<title>Order J0kLmNoPqRsT</title></head>',
        '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a;max-width:640px;margin:0 auto;padding:16px">',
        '<p style="margin:0 0 20px;padding:0 0 10px;border-bottom:3px solid #0b5f6b;font-size:22px;font-weight:700;color:#0b5f6b">Live Aquatics</p>',
        '<h2 style="font-size:18px;margin:24px 0 8px">Your order</h2>',
        '<table role="presentation" style="border-collapse:collapse;margin:0 0 12px;max-width:100%">' +
          '<tr><th scope="row" style="text-align:left;vertical-align:top;padding:2px 16px 2px 0;font-weight:600">Bottles</th><td style="padding:2px 0;overflow-wrap:anywhere;word-break:break-word">3</td></tr>' +
          '<tr><th scope="row" style="text-align:left;vertical-align:top;padding:2px 16px 2px 0;font-weight:600">Address</th><td style="padding:2px 0;overflow-wrap:anywhere;word-break:break-word">Flat 2<br>London</td></tr>' +
          '</table>',
        '<p style="margin:0 0 12px"><a href="https://shop.test/t?a=1&amp;b=2" style="color:#0b5f6b;font-weight:600">Track it</a></p>',
        '</body></html>',
      ].join('\n'),
    );
    expect(email.text).toBe(
      'Live Aquatics\n=============\n\nYour order\n----------\n\nBottles: 3\nAddress: Flat 2\n  London\n\nTrack it: https://shop.test/t?a=1&b=2\n',
    );
  });

  it('sets a value marked mono (a reference) in a monospace face in HTML, and leaves the text part as it is', () => {
    // Act
    const email = renderEmail(
      'Order',
      [
        {
          kind: 'rows',
          rows: [
            ['Order reference', 'nOARwiIJfKj0', { mono: true }],
            ['Item', '3 bottles'],
          ],
        },
      ],
      'Live Aquatics',
    );

    // Assess
    expect(email.html).toContain(
      `<td style="padding:2px 0;overflow-wrap:anywhere;word-break:break-word;font-family:Menlo,Consolas,'Courier New',monospace">nOARwiIJfKj0</td>`,
    );
    expect(email.html).toContain(
      '<td style="padding:2px 0;overflow-wrap:anywhere;word-break:break-word">3 bottles</td>',
    );
    expect(email.text).toBe(
      'Live Aquatics\n=============\n\nOrder reference: nOARwiIJfKj0\nItem: 3 bottles\n',
    );
  });

  it('heads every email with the shop name, in HTML and text alike', () => {
    // Act
    const email = renderEmail('Anything', [{ kind: 'paragraph', text: 'Hello' }], 'Daphnia Direct');

    // Assess
    expect(email.html).toContain(
      '<p style="margin:0 0 20px;padding:0 0 10px;border-bottom:3px solid #0b5f6b;font-size:22px;font-weight:700;color:#0b5f6b">Daphnia Direct</p>\n<p style="margin:0 0 12px">Hello</p>',
    );
    expect(email.text).toBe('Daphnia Direct\n==============\n\nHello\n');
  });

  it('renders a button as a styled link whose address is only in href, and as words and address in text', () => {
    // Prepare
    const url = `https://checkout.stripe.com/c/pay/cs_test_${'a1B2'.repeat(40)}#fidkdWxOYHwnPyd1blpxYHZxWjA0`;

    // Act
    const email = renderEmail(
      'Pay',
      [{ kind: 'button', text: 'Pay £14.70 with Stripe', href: url }],
      'Live Aquatics',
    );

    // Assess
    expect(email.html).toContain(
      `<p style="margin:16px 0"><a href="${url}" style="display:inline-block;max-width:100%;box-sizing:border-box;padding:12px 24px;border-radius:6px;background:#0b5f6b;color:#ffffff;font-weight:600;text-decoration:none;text-align:center">Pay £14.70 with Stripe</a></p>`,
    );
    expect(email.html.split(url)).toHaveLength(2);
    expect(email.text).toBe(`Live Aquatics\n=============\n\nPay £14.70 with Stripe: ${url}\n`);
  });
});
