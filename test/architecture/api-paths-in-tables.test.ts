import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/lint-probe';

/*
 * An API path (`/functions/v1…`) is written in one place, shared/'s route tables (ADR 0050): every
 * other file of the product takes it from there. Comments may name a path; tests may too.
 */

/** The files that may write an API path in code: the public table, the admin's, and its prefix. */
const ALLOWED = [
  'shared/admin-api-paths.ts',
  'shared/admin-routes.ts',
  'shared/admin-session-routes.ts',
  'shared/public-routes.ts',
  // The admin's service worker is a plain script served as it is: it cannot import the table.
  'web/public/admin-sw.js',
];

const SOURCE = /\.(ts|tsx|mts|js|mjs|cjs)$/;

/** The text of every string, template part and regular expression of a source (never a comment). */
function literalsOf(path: string, text: string): string[] {
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
    // `/^\/functions\/v1/` is the same path, escaped.
    else if (ts.isRegularExpressionLiteral(node)) found.push(node.text.replaceAll('\\', ''));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const writesAnApiPath = (path: string, text: string) =>
  literalsOf(path, text).some((literal) => literal.includes('functions/v1'));

/** The product's sources as git sees them (committed or not, ignored files left out): no test. */
function productSources(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((path) => SOURCE.test(path) && !path.startsWith('test/'))
    .filter((path) => {
      try {
        readFileSync(join(REPO_ROOT, path));
        return true;
      } catch {
        return false; // listed but deleted in the work tree
      }
    });
}

describe('API paths', () => {
  it("are written only in shared/'s route tables", () => {
    const product = productSources();
    const writing = product.filter((path) =>
      writesAnApiPath(path, readFileSync(join(REPO_ROOT, path), 'utf8')),
    );

    expect(product.length).toBeGreaterThan(300);
    expect(writing.sort()).toEqual(ALLOWED);
  });

  it.each([
    ['a string', "const url = '/functions/v1/create-checkout';"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the probe is source text holding a template.
    ['a template', 'const url = `${site}/functions/v1/stripe-webhook`;'],
    ['a template without a placeholder', 'const url = `/functions/v1/shop-status`;'],
    ['JSX text in an attribute', 'const a = <a href="/functions/v1/order-page">order</a>;'],
    ['a regular expression', 'const root = /^\\/functions\\/v1/;'],
  ])('finds one in %s', (_kind, source) => {
    expect(writesAnApiPath('probe.tsx', source)).toBe(true);
  });

  it('finds none in a comment', () => {
    const source =
      '// GET /functions/v1/shop-status\n/** `POST /functions/v1/create-checkout` */\nconst a = 1;';
    expect(writesAnApiPath('probe.ts', source)).toBe(false);
  });
});
