import { afterEach, describe, expect, it, vi } from 'vitest';

// The request schema's messages reach customers (the form's toast) and API clients (the 400
// body). They must not depend on which modules a process loaded before the schema: zod's
// messages follow process-wide configuration, which a server module could once change.
const schemaModule = '../../shared/checkout-request';
const serverModules = [
  '../../lambdas/handlers/create-checkout/handler',
  '../../lambdas/handlers/stripe-webhook/handler',
  '../../lambdas/handlers/reconcile-orders/handler',
  '../../lambdas/domain/operations/order-actions',
];

const badBodies = [null, [], { name: 1 }] as const;

async function messagesFor(loadServerFirst: boolean) {
  vi.resetModules();
  if (loadServerFirst) for (const path of serverModules) await import(path);
  const { checkoutRequestSchema, describeIssues } = await import(schemaModule);
  if (!loadServerFirst) for (const path of serverModules) await import(path);
  return badBodies.map((body) => {
    const result = checkoutRequestSchema.safeParse(body);
    if (result.success) throw new Error('expected a refusal');
    return describeIssues(result.error).fields;
  });
}

describe('checkout request messages whatever loaded first', () => {
  afterEach(() => vi.resetModules());

  it('are the same with the schema loaded before or after the server modules', async () => {
    const schemaFirst = await messagesFor(false);
    const serverFirst = await messagesFor(true);

    expect(schemaFirst[0]).toEqual({ _: 'Invalid input' });
    expect(schemaFirst[1]).toEqual({ _: 'Invalid input' });
    expect(schemaFirst[2]).toMatchObject({ name: 'Please enter your full name (up to 100 characters).' });
    expect(serverFirst).toEqual(schemaFirst);
  }, 30_000);
});
