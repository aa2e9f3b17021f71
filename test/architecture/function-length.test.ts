import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Functions of one screen (issue 47): a function, or a table of functions, longer than 80 lines
// is one reader's screen too many. Measured with the compiler's own parse of the product tree.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRODUCT = ['shared', 'lambdas', 'web/src', 'ops', 'infra', 'local'];
const MAX_LINES = 80;

/** The name a reader would search for: the declaration's, or the variable or property it is assigned to. */
function nameOf(node: ts.Node): string | undefined {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if ('name' in node && node.name !== undefined && ts.isIdentifier(node.name as ts.Node)) {
    return (node.name as ts.Identifier).text;
  }
  if (ts.isVariableDeclaration(node)) return ts.isIdentifier(node.name) ? node.name.text : undefined;
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return ts.isIdentifier(parent.name) ? parent.name.text : undefined;
  }
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    return `${ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText()}(…)`;
  }
  return undefined;
}

/** A variable's object literal with functions in it: a route or command table. */
function isTableOfFunctions(node: ts.Node): node is ts.ObjectLiteralExpression {
  if (!ts.isObjectLiteralExpression(node)) return false;
  let holder: ts.Node = node.parent;
  while (
    ts.isSatisfiesExpression(holder) ||
    ts.isAsExpression(holder) ||
    ts.isParenthesizedExpression(holder)
  ) {
    holder = holder.parent;
  }
  const hasFunction = (child: ts.Node): boolean =>
    ts.isFunctionLike(child) || (ts.forEachChild(child, hasFunction) ?? false);
  return ts.isVariableDeclaration(holder) && hasFunction(node);
}

/** The variable a table is the value of (through `satisfies` or `as`). */
function holderOf(node: ts.Node): ts.Node {
  let holder = node;
  while (!ts.isVariableDeclaration(holder) && holder.parent !== undefined) holder = holder.parent;
  return holder;
}

function isMeasured(node: ts.Node): boolean {
  return ts.isFunctionLike(node) && 'body' in node && node.body !== undefined
    ? true
    : isTableOfFunctions(node);
}

/** Every function and table of functions over the limit, as `file#Outer.inner` → lines. */
function longFunctions(file: string): Map<string, number> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = new Map<string, number>();
  const visit = (node: ts.Node, path: readonly string[]) => {
    let inner = path;
    if (isMeasured(node)) {
      inner = [...path, nameOf(isTableOfFunctions(node) ? holderOf(node) : node) ?? '(anonymous)'];
      const { line: first } = source.getLineAndCharacterOfPosition(node.getStart(source));
      const { line: last } = source.getLineAndCharacterOfPosition(node.getEnd());
      const lines = last - first + 1;
      const key = `${file}#${inner.join('.')}`;
      if (lines > MAX_LINES) found.set(key, Math.max(lines, found.get(key) ?? 0));
    } else if (ts.isClassDeclaration(node) && node.name !== undefined) {
      inner = [...path, node.name.text];
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, []);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const measured = new Map(
  PRODUCT.flatMap(sourceFiles).flatMap((file) => [...longFunctions(relative(ROOT, join(ROOT, file)))]),
);

describe(`functions of one screen (at most ${MAX_LINES} lines)`, () => {
  it('has no function or table of functions over the limit', () => {
    expect([...measured]).toEqual([]);
  });
});
