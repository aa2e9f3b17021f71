import { describe, expect, it } from 'vitest';
import { escapeHtml, renderEmail, singleLine } from '../../../../lambdas/fulfilment/emails/render';
import { HOSTILE } from '../fixtures';

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
    const email = renderEmail(`Hello ${HOSTILE.name}\r\nBcc: x@example.com`, blocks);

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
    expect(email.text).toContain(HOSTILE.name);
    expect(email.text).toContain('"><a href="https://evil.test">win</a>\n  London');
  });
});
