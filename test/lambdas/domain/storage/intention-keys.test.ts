import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimIntention,
  finishIntention,
  intentionId,
  intentionKey,
  releaseIntention,
  requestFingerprint,
} from '../../../../lambdas/domain/storage/intention-keys';
import { type OperationsHarness, startOperationsHarness } from '../operations/operations-harness';

// The intention keys' item in dynalite: its claim, its kept answer, and when a claim may be taken again.
let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterAll(() => h?.close());

const AT = new Date('2026-12-06T17:00:00Z');
const later = (ms: number) => new Date(AT.getTime() + ms);
const newScope = () => ({ merchant: 'sub-1', route: 'refundPart', key: randomUUID() });

describe('intention keys', () => {
  it('names the item by merchant, route and key, and derives a 32-character id from them alone', () => {
    const scope = { merchant: 'sub-1', route: 'refund', key: 'abc' };
    expect(intentionKey(scope)).toBe('IDEMPOTENCY#sub-1#refund#abc');
    expect(intentionId(scope)).toMatch(/^[0-9a-f]{32}$/);
    expect(intentionId(scope)).toBe(intentionId({ ...scope }));
    expect(intentionId({ ...scope, merchant: 'sub-2' })).not.toBe(intentionId(scope));
    expect(intentionId({ ...scope, route: 'refundPart' })).not.toBe(intentionId(scope));
    expect(requestFingerprint({ a: 1 })).toBe(requestFingerprint({ a: 1 }));
    expect(requestFingerprint({ a: 1 })).not.toBe(requestFingerprint({ a: 2 }));
    expect(requestFingerprint(undefined)).toBe(requestFingerprint(null));
  });

  it('claims a new key with a day to live; a repeat is running, then done with the kept answer', async () => {
    const scope = newScope();
    const claim = await claimIntention(h.deps.table, scope, 'fp', AT);
    expect(claim.kind).toBe('claimed');
    expect(await h.item(intentionKey(scope))).toMatchObject({
      intentionState: 'running',
      fingerprint: 'fp',
      claimedAt: '2026-12-06T17:00:00.000Z',
      deleteAfter: 1_796_662_800,
    });
    expect(await claimIntention(h.deps.table, scope, 'fp', later(1000))).toEqual({ kind: 'running' });
    expect(await claimIntention(h.deps.table, scope, 'other', later(1000))).toEqual({ kind: 'otherRequest' });
    const token = claim.kind === 'claimed' ? claim.token : '';
    expect(await finishIntention(h.deps.table, scope, 'not-ours', { statusCode: 200, body: '{}' })).toBe(
      false,
    );
    expect(await finishIntention(h.deps.table, scope, token, { statusCode: 201, body: '{"a":1}' })).toBe(
      true,
    );
    expect(await finishIntention(h.deps.table, scope, token, { statusCode: 200, body: '{}' })).toBe(false);
    expect(await claimIntention(h.deps.table, scope, 'fp', later(3 * 60_000))).toEqual({
      kind: 'done',
      statusCode: 201,
      body: '{"a":1}',
    });
    expect(await claimIntention(h.deps.table, scope, 'other', later(1000))).toEqual({ kind: 'otherRequest' });
    expect(await h.item(intentionKey(scope))).not.toHaveProperty('claimToken');
  });

  it('takes over a claim of the same request after 2 minutes, never of another; a day later the key is new', async () => {
    const scope = newScope();
    await claimIntention(h.deps.table, scope, 'fp', AT);
    expect(await claimIntention(h.deps.table, scope, 'fp', later(2 * 60_000))).toEqual({ kind: 'running' });
    expect((await claimIntention(h.deps.table, scope, 'fp', later(2 * 60_000 + 1))).kind).toBe('claimed');
    expect(await claimIntention(h.deps.table, scope, 'other', later(10 * 60_000))).toEqual({
      kind: 'otherRequest',
    });
    // The TTL deletes late: a key whose day is over is new, whatever it was for.
    const nextDay = await claimIntention(h.deps.table, scope, 'other', later(2 * 60_000 + 1 + 86_400_000));
    expect(nextDay.kind).toBe('claimed');
    expect(await claimIntention(h.deps.table, scope, 'fp', later(2 * 60_000 + 86_400_000 + 999))).toEqual({
      kind: 'otherRequest',
    });
  });

  it('lets a key go after a failure: released by its token only, then claimed again', async () => {
    const scope = newScope();
    const claim = await claimIntention(h.deps.table, scope, 'fp', AT);
    const token = claim.kind === 'claimed' ? claim.token : '';
    expect(await releaseIntention(h.deps.table, scope, 'not-ours')).toBe(false);
    expect(await releaseIntention(h.deps.table, scope, token)).toBe(true);
    expect(await h.item(intentionKey(scope))).toMatchObject({ intentionState: 'released' });
    expect(await h.item(intentionKey(scope))).not.toHaveProperty('claimToken');
    expect((await claimIntention(h.deps.table, scope, 'fp', later(1000))).kind).toBe('claimed');
  });

  it('answers a key whose item is gone between the refused claim and its read (a late TTL delete) as another request', async () => {
    const scope = newScope();
    const pk = intentionKey(scope);
    await claimIntention(h.deps.table, scope, 'fp', AT);
    h.beforeCommand(
      'GetItemCommand',
      (input) => JSON.stringify(input).includes(pk),
      async () => {
        await h.deps.table.client.send(new DeleteCommand({ TableName: h.deps.table.tableName, Key: { pk } }));
      },
    );

    expect(await claimIntention(h.deps.table, scope, 'fp', later(1000))).toEqual({ kind: 'otherRequest' });
    expect(await h.item(pk)).toBeUndefined();
  });
});
