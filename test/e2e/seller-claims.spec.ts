import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { buildSite } from '../../infra/lib/site-build';
import { createStaticSite } from '../../local/static-site';
import { LOCAL_STAGE_SETTINGS } from '../../shared/stage-config';
import { expect, test } from './support/fixtures';
import { stackUrls } from './support/stack';

/*
 * A stage with its own trial-run sentence and promotion: the site built from that stage's settings
 * (as the CDK app builds it, infra/lib/site-build.ts) into a folder of its own, served beside the
 * running stack, whose API answers the page's requests. The stack's own site stays the spec's.
 */

const OWN_CLAIMS = {
  trialRunNotice: 'Our first season: thank you for trying us!',
  promotionReferencePence: 1100,
  promotionWording: 'Launch offer: £9.75 for 3 bottles',
};

let server: Server;
let siteUrl: string;

test.beforeAll(async () => {
  // A whole site build (shop, admin, prerendered pages): longer than one test's time on a busy machine.
  test.setTimeout(240_000);
  const outDir = buildSite({
    repoRoot: resolve('.'),
    outDir: resolve('dist/web-seller-claims'),
    settings: { ...LOCAL_STAGE_SETTINGS, ...OWN_CLAIMS },
  });
  const site = createStaticSite(outDir);
  const api = stackUrls().shop;
  server = createServer(async (request, response) => {
    if (!(request.url ?? '/').startsWith('/functions/')) {
      await site(request, response);
      return;
    }
    // The stack's API, as CloudFront puts it beside the site.
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(Buffer.from(chunk));
    const answer = await fetch(`${api}${request.url}`, {
      method: request.method ?? 'GET',
      headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
      ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
    });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  siteUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((closed) => server?.close(closed));
});

test('a stage with its own trial-run sentence and promotion shows them on /, prerendered and once the page runs', async ({
  page,
  request,
}) => {
  const html = await (await request.get(`${siteUrl}/`)).text();
  expect(html).toContain('Our first season: thank you for trying us! Daphnia are live, natural stock');
  expect(html).toContain('£11.00</s>');
  expect(html).toContain('Launch offer: £9.75 for 3 bottles');
  expect(html).not.toContain('This is a trial run.');
  expect(html).not.toContain('£12.00');

  // A prerendered claim the script disagreed with would be a hydration mismatch React reports.
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${siteUrl}/`);
  const card = page.getByRole('button', { name: 'Daphnia Magna' });
  await expect(card.locator('s')).toHaveText('£11.00');
  await expect(card).toContainText('Launch offer: £9.75 for 3 bottles');
  // The price charged is the checkout's, whatever the promotion says.
  await expect(card).toContainText('£14.70 delivered');
  const info = page.getByRole('region', { name: 'Important Information' });
  await expect(info.getByRole('listitem').first()).toHaveText(
    'Our first season: thank you for trying us! Daphnia are live, natural stock, so the number in each bottle can vary from the estimate shown.',
  );
  await card.click();
  await expect(card).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('region', { name: 'Checkout' })).toContainText('£14.70');
  expect(errors).toEqual([]);
});

test("the stack's own site, built with no claims set, shows the spec's", async ({ page }) => {
  await page.goto('/');
  const card = page.getByRole('button', { name: 'Daphnia Magna' });
  await expect(card.locator('s')).toHaveText('£12.00');
  await expect(card).toContainText('£9.75 for 3 bottles');
  await expect(
    page.getByRole('region', { name: 'Important Information' }).getByRole('listitem').first(),
  ).toHaveText(
    'This is a trial run. Daphnia are live, natural stock, so the number in each bottle can vary from the estimate shown.',
  );
});
