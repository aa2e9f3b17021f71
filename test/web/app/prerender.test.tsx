import { describe, expect, it } from 'vitest';
import { prerenderedPageAt } from '../../../web/src/app/pages';
import { renderPages } from '../../../web/src/app/prerender';

/** The build's pages, rendered as vite.config.ts renders them into the HTML files. */
async function renderedPage(file: string) {
  const page = (await renderPages()).find((rendered) => rendered.file === file);
  if (!page) throw new Error(`no prerendered ${file}`);
  return page;
}
async function pageBody(file: string): Promise<string> {
  return (await renderedPage(file)).body;
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

  it('/order/<token>: one page for every token, loading, kept out of search engines and sending no referrer', async () => {
    const page = await renderedPage('order.html');

    expect(page.key).toBe('/order/:token');
    expect(page.body).toContain(
      '<div class="order-status"><p class="subtitle order-status__intro">Your order from payment to your door: its dispatch day, any change to it, and its tracking once it is on its way. The link to this page opens your order, so please keep it to yourself.</p><section class="card card--centered">',
    );
    expect(page.body).toContain('<h1>Your order</h1><p role="status">Loading your order…</p>');
    expect(page.body).not.toContain('prerendered');
    expect(page.head).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(page.head).toContain('<meta name="referrer" content="no-referrer"/>');
    expect(page.head).toContain('<title>Your order · Live Aquatics</title>');
  });

  it('the browser takes over order.html at any /order/<token>, and the 404 page where the token is missing', () => {
    expect(prerenderedPageAt({ pathname: '/order/AbC-12_x', search: '' })).toBe('/order/:token');
    expect(prerenderedPageAt({ pathname: '/order/', search: '' })).toBe('not-found');
    expect(prerenderedPageAt({ pathname: '/order/a/b', search: '' })).toBe('not-found');
  });

  it('every page carries the logo in its header, sized', async () => {
    for (const page of await renderPages()) {
      expect(page.body, page.file).toContain(
        '<header class="site-header"><img src="/favicon.svg" alt="Live Aquatics" width="48" height="48"/></header>',
      );
    }
  });
});
