import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as ordersTable from '../../lambdas/domain/storage/orders-table';
import { ADMIN_API_ROUTES } from '../../shared/admin-routes';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';

// docs/architecture.md is checked against the code, so it cannot drift into describing another
// system: every path it names exists, every handler and public route is named, every index too.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const TOP_FOLDERS = ['shared', 'web', 'lambdas', 'ops', 'infra', 'local', 'scripts', 'test', 'docs'];

/** Every `code span` of the page. */
const codeSpans = [...doc.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');

/** Code spans that name a file or folder of the repository. */
function namedPaths(spans: readonly string[]): string[] {
  return spans.filter((span) => TOP_FOLDERS.some((top) => span.startsWith(`${top}/`)) && !/[<…*]/.test(span));
}

/** The routes the page names, as `METHOD /path`. */
function namedRoutes(text: string): string[] {
  return [...text.matchAll(/\b(GET|POST) (\/functions\/v1\/[\w/-]+)/g)].map((m) => `${m[1]} ${m[2]}`);
}

/** The handler folders in the page's Lambdas table (its first column). */
function tableHandlers(text: string): string[] {
  const section = text.split('## The Lambdas')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `([\w-]+)`/gm)].map((m) => m[1] ?? '');
}

/** The indexes the table's design declares: every export with an index's name and partition key. */
const declaredIndexes = Object.values(ordersTable).flatMap((value) =>
  typeof value === 'object' && value !== null && 'name' in value && 'partitionKey' in value
    ? [String(value.name)]
    : [],
);

describe('docs/architecture.md', () => {
  it('is at most 200 lines', () => {
    expect(doc.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('names only paths that exist', () => {
    const paths = namedPaths(codeSpans);

    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('lists every Lambda handler, and only those', () => {
    const folders = readdirSync(join(ROOT, 'lambdas/handlers')).filter((name) =>
      existsSync(join(ROOT, 'lambdas/handlers', name, 'handler.ts')),
    );

    expect(tableHandlers(doc).sort()).toEqual(folders.sort());
  });

  it('names every public route with its method, and no route the tables lack', () => {
    const publicRoutes = Object.values(PUBLIC_API_ROUTES).map((route) => `${route.method} ${route.path}`);
    const adminRoutes = Object.values(ADMIN_API_ROUTES).map((route) => `${route.method} ${route.path}`);
    const named = namedRoutes(doc);

    expect(publicRoutes.filter((route) => !named.includes(route))).toEqual([]);
    expect(named.filter((route) => ![...publicRoutes, ...adminRoutes].includes(route))).toEqual([]);
  });

  it('names every index of the table, and no other', () => {
    const namedIndexes = codeSpans.filter((span) => /^by[A-Z]\w+$/.test(span));

    expect(declaredIndexes.length).toBeGreaterThanOrEqual(3);
    expect(declaredIndexes.filter((name) => !namedIndexes.includes(name))).toEqual([]);
    expect(namedIndexes.filter((name) => !declaredIndexes.includes(name))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('find a renamed file, a missing handler and an unknown route', () => {
    expect(namedPaths(['lambdas/lib/no-such-file.ts', 'a word', 'web/src/<feature>/x.ts'])).toEqual([
      'lambdas/lib/no-such-file.ts',
    ]);
    expect(tableHandlers('## The Lambdas\n\n| `one` | x |\n| `two-b` | y |\n## Next\n| `three` |')).toEqual([
      'one',
      'two-b',
    ]);
    expect(namedRoutes('calls GET /functions/v1/shop-status and POST /functions/v1/x/y.')).toEqual([
      'GET /functions/v1/shop-status',
      'POST /functions/v1/x/y',
    ]);
  });
});
