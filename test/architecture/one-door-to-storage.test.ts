import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 47's "one door to storage" (ADR 0051): every DynamoDB command and paginator is sent from
// lambdas/domain/storage, and every expression it carries is written there; the rest of the shop
// calls storage's functions. Tests and the local
// stand-ins aside, as the issue says.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = ['lambdas', 'ops', 'infra', 'scripts', 'shared', 'local', 'web/src'];

/** Where a DynamoDB command may be written: path prefixes, relative to the repository. */
const ALLOWED = [
  'lambdas/domain/storage/',
  // The stand-ins create, seed and empty the local table (tests and local stand-ins aside).
  'local/',
  // The bench measures the document client's own CPU per call: the floor the shop's calls stand on.
  'scripts/bench',
];

/** Still to move (issue 47, the checkout's part): each must still hold a command, or leave this list. */
const PENDING = ['lambdas/domain/checkout/order-page-link.ts'];

const DYNAMODB_MODULE = /^@aws-sdk\/(client-dynamodb|lib-dynamodb)$/;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !path.includes('node_modules') && !/\.test\.tsx?$/.test(path));
}

/** The DynamoDB commands and paginators a file imports (values, not types) and then uses. */
function dynamoCommandsIn(source: string): string[] {
  const used: string[] = [];
  for (const match of source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    if (match[1] !== undefined || !DYNAMODB_MODULE.test(match[3] ?? '')) continue;
    const names = (match[2] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && !name.startsWith('type '))
      .map((name) => name.split(/\s+as\s+/).pop() ?? name)
      .filter((name) => /Command$|^paginate/.test(name));
    used.push(...names.filter((name) => new RegExp(`\\b${name}\\s*\\(`).test(source)));
  }
  return used;
}

/** The expressions a DynamoDB call carries, written as a request's own field (`UpdateExpression: …`). */
const EXPRESSION_FIELD =
  /\b(UpdateExpression|ConditionExpression|KeyConditionExpression|FilterExpression|ProjectionExpression)\s*:/g;

function dynamoExpressionsIn(source: string): string[] {
  return [...source.matchAll(EXPRESSION_FIELD)].map((match) => match[1] ?? '');
}

const files = SCANNED.flatMap(sourceFiles);
const withExpressions = files.filter(
  (path) => dynamoExpressionsIn(readFileSync(join(ROOT, path), 'utf8')).length > 0,
);
const withCommands = files.filter(
  (path) => dynamoCommandsIn(readFileSync(join(ROOT, path), 'utf8')).length > 0,
);

describe('one door to storage', () => {
  it('finds the commands it looks for (the scan itself works)', () => {
    expect(withCommands).toContain('lambdas/domain/storage/records.ts');
    expect(
      dynamoCommandsIn("import { GetCommand } from '@aws-sdk/lib-dynamodb';\nnew GetCommand({})"),
    ).toEqual(['GetCommand']);
    expect(
      dynamoCommandsIn("import type { GetCommand } from '@aws-sdk/lib-dynamodb';\nnew GetCommand({})"),
    ).toEqual([]);
    expect(
      dynamoCommandsIn("import { paginateScan } from '@aws-sdk/lib-dynamodb';\npaginateScan({}, {})"),
    ).toEqual(['paginateScan']);
  });

  it('no DynamoDB command or paginator outside lambdas/domain/storage (tests and local stand-ins aside)', () => {
    const outside = withCommands.filter(
      (path) => !ALLOWED.some((prefix) => path.startsWith(prefix)) && !PENDING.includes(path),
    );
    expect(outside).toEqual([]);
  });

  it('finds the expressions it looks for (the scan itself works)', () => {
    expect(withExpressions).toContain('lambdas/domain/storage/refund-writes.ts');
    expect(
      dynamoExpressionsIn("updateIf(t, k, { ConditionExpression: 'a = :a', UpdateExpression: 'REMOVE b' })"),
    ).toEqual(['ConditionExpression', 'UpdateExpression']);
    expect(dynamoExpressionsIn("const q = { KeyConditionExpression : 'pk = :pk' };")).toEqual([
      'KeyConditionExpression',
    ]);
  });

  it('no DynamoDB update, condition or key expression outside lambdas/domain/storage (tests and local stand-ins aside)', () => {
    const outside = withExpressions.filter(
      (path) => !ALLOWED.some((prefix) => path.startsWith(prefix)) && !PENDING.includes(path),
    );
    expect(outside).toEqual([]);
  });

  it('each file still to move still holds a command (a moved one leaves the list)', () => {
    expect(PENDING.filter((path) => !withCommands.includes(path))).toEqual([]);
  });
});
