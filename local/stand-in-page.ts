import { escapeHtml } from '../lambdas/domain/emails/render';

/**
 * A page of a local stand-in (the sign-in, Stripe's payment pages): one en-GB HTML document,
 * `style` in its head, `banner` (HTML) above the `main` that holds `body` (HTML). `noindex`: kept
 * out of search engines, as the hosted page it stands in for is.
 */
export function standInPage({
  title,
  style,
  body,
  noindex = false,
  banner,
}: {
  title: string;
  style: string;
  body: string;
  noindex?: boolean;
  banner?: string;
}): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${noindex ? '<meta name="robots" content="noindex">\n' : ''}<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${banner === undefined ? '' : `${banner}\n`}<main>
${body}
</main>
</body>
</html>
`;
}
