import {
  contentSecurityPolicy,
  inlineScriptHashes,
  policyStyleHashes,
} from '../../infra/lib/constructs/website';
import { PACKING_SLIPS_STYLE } from '../../lambdas/domain/fulfilment/dispatch-files';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium';
import { expect, test } from './support/fixtures';
import { signIn } from './support/merchant';

// The admin under the policy CloudFront sends. The documents are answered by Playwright (to carry
// the policy), which Chromium counts as public: its local-network checks would then refuse the
// page's call to the identity provider on localhost (on the deployed site a public Cognito domain),
// so this file's browser runs without them.
const executablePath = await chromiumPath();
test.use({
  launchOptions: {
    executablePath,
    args: [
      ...CHROMIUM_ARGS,
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults',
    ],
  },
});

test('under the deployed CSP, with the sign-in domain the page calls for tokens, the admin signs in and is styled by its own stylesheet', async ({
  page,
  baseURL,
}) => {
  // The rehearsal sends the template's policy itself, as CloudFront will; `npm start` sends none.
  const served = (await fetch(`${baseURL}/admin`)).headers.get('content-security-policy');
  if (served === null) {
    const config = (await (await fetch(`${baseURL}/admin-config.json`)).json()) as { signInUrl: string };
    // As CloudFront sends it, less upgrade-insecure-requests (this test server is plain http).
    const policy = contentSecurityPolicy(
      policyStyleHashes('dist/web', [PACKING_SLIPS_STYLE]),
      [new URL(config.signInUrl).origin],
      inlineScriptHashes('dist/web'),
    )
      .split('; ')
      .filter((directive) => directive !== 'upgrade-insecure-requests')
      .join('; ');
    // The shop's documents get the policy. The provider sends the merchant back with a 302, whose
    // target Playwright would not route: it is followed here by a page of our own instead, so the
    // page that exchanges the code gets the policy too.
    await page.route('**/*', async (route) => {
      const request = route.request();
      if (request.resourceType() !== 'document') return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      const location = response.headers().location;
      if (response.status() === 302 && location !== undefined) {
        const target = new URL(location, request.url()).href.replace(/"/g, '&quot;');
        return route.fulfill({
          contentType: 'text/html',
          body: `<meta http-equiv="refresh" content="0;url=${target}">`,
        });
      }
      const ours = request.url().startsWith(`${baseURL}/`);
      await route.fulfill({
        response,
        headers: { ...response.headers(), ...(ours && { 'content-security-policy': policy }) },
      });
    });
  }
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });

  await signIn(page);
  const current = page.getByRole('link', { name: 'This week' });
  await expect(current).toHaveAttribute('aria-current', 'page');
  // admin.css, a file of its own that style-src 'self' allows: the current view's pill is filled.
  await expect(current).toHaveCSS('background-color', 'rgb(11, 95, 107)');

  // The packing slips open from a blob, which keeps this page's policy: their one inline
  // stylesheet is allowed by its hash, so the summary prints with its heading styled.
  const [slips] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Packing slips' }).click(),
  ]);
  slips.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await expect(slips.getByRole('heading', { level: 1 })).toHaveText(/^Packing slips: /);
  await expect(slips.getByRole('heading', { level: 1 })).toHaveCSS('font-size', '21.3333px');
  expect(violations).toEqual([]);
});
