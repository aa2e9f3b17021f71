import { describe, expect, it } from 'vitest';
import { renderPages } from '../../../web/src/app/prerender';

/** The build's pages, rendered as vite.config.ts renders them into the HTML files. */
async function pageBody(file: string): Promise<string> {
  const page = (await renderPages()).find((rendered) => rendered.file === file);
  if (!page) throw new Error(`no prerendered ${file}`);
  return page.body;
}

describe('the HTML the build writes', () => {
  it('/success: the shell paints before any script, with the heading and the wait, and no one session reference', async () => {
    const body = await pageBody('success.html');

    expect(body).toContain('<h1>Checking your payment...</h1>');
    expect(body).toContain('We are confirming your payment with our payment provider.');
    // The box is there, the size it will be; the reference comes from the address after hydration,
    // never the placeholder session the page was written for.
    expect(body).toContain(
      '<p class="reference__label">Order Reference</p><p class="reference__value">\u00a0</p>',
    );
    expect(body).not.toContain('prerendered');
    expect(body).not.toContain('Payment Successful!');
  });

  it('every page carries the logo in its header, sized', async () => {
    for (const page of await renderPages()) {
      expect(page.body, page.file).toContain(
        '<header class="site-header"><img src="/favicon.svg" alt="Live Aquatics" width="48" height="48"/></header>',
      );
    }
  });
});
