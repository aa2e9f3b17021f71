import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Inside lambdas/domain/ the concept folders stand on floors, and a file imports only its own folder
 * or a lower floor: a flow (a standing order's actions, the reconciler's sweep) sits above the rules it
 * calls, never beside them in both directions. Peers on one floor do not import each other.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOMAIN = join(ROOT, 'lambdas/domain');

/** Bottom first. A root file of lambdas/domain/ is named with its `.ts`. */
const FLOORS: readonly (readonly string[])[] = [
  ['refusal.ts', 'order-page-token.ts'],
  ['storage'],
  ['capacity', 'emails', 'push'],
  ['standing-deliveries'],
  ['checkout'],
  ['fulfilment'],
  ['operations'],
  ['standing-orders', 'order-page', 'weather'],
  ['reconcile'],
];

/** The folder (or root file) of lambdas/domain/ a path is in, or undefined outside it. */
function partOf(path: string): string | undefined {
  const inside = relative(DOMAIN, path);
  if (inside.startsWith('..')) return undefined;
  return inside.split('/')[0];
}

const floorOf = (part: string) => FLOORS.findIndex((floor) => floor.includes(part));

/** Why `file` may not import `specifier` (both as written), or undefined when it may. */
function floorViolation(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const from = partOf(join(ROOT, file));
  const to = partOf(
    resolve(dirname(join(ROOT, file)), specifier.endsWith('.ts') ? specifier : `${specifier}.ts`),
  );
  if (from === undefined || to === undefined || from === to) return undefined;
  const [a, b] = [floorOf(from), floorOf(to)];
  if (a === -1 || b === -1)
    return `${file}: ${from === undefined || a === -1 ? from : to} stands on no floor`;
  return b < a ? undefined : `${file} imports ${specifier}: ${to} is ${b === a ? 'beside' : 'above'} ${from}`;
}

function domainFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? domainFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const IMPORT = /(?:from|import)\s*\(?\s*'([^']+)'/g;

describe('lambdas/domain/ floors', () => {
  it('every concept folder and root file stands on a floor', () => {
    const parts = readdirSync(DOMAIN);

    expect(parts.filter((part) => floorOf(part) === -1)).toEqual([]);
  });

  it('no file imports a folder above its own or beside it', () => {
    const violations = domainFiles(DOMAIN).flatMap((path) => {
      const file = relative(ROOT, path);
      return [...readFileSync(path, 'utf8').matchAll(IMPORT)].flatMap((match) => {
        const why = floorViolation(file, match[1] ?? '');
        return why === undefined ? [] : [why];
      });
    });

    expect(violations).toEqual([]);
  });

  it('the check itself refuses an import upward and beside, and lets one down, within and outside pass', () => {
    expect(floorViolation('lambdas/domain/fulfilment/x.ts', '../standing-orders/actions')).toBe(
      'lambdas/domain/fulfilment/x.ts imports ../standing-orders/actions: standing-orders is above fulfilment',
    );
    expect(floorViolation('lambdas/domain/emails/x.ts', '../capacity/holds')).toBe(
      'lambdas/domain/emails/x.ts imports ../capacity/holds: capacity is beside emails',
    );
    expect(floorViolation('lambdas/domain/storage/x.ts', '../refusal')).toBeUndefined();
    expect(
      floorViolation('lambdas/domain/reconcile/x.ts', '../standing-orders/reconcile-invoices'),
    ).toBeUndefined();
    expect(floorViolation('lambdas/domain/checkout/x.ts', './order-metadata')).toBeUndefined();
    expect(floorViolation('lambdas/domain/checkout/x.ts', '../../lib/logger')).toBeUndefined();
    expect(floorViolation('lambdas/domain/checkout/x.ts', 'zod/mini')).toBeUndefined();
  });
});
