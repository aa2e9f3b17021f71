import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { releaseLapsedHolds } from '../../../../lambdas/domain/fulfilment/lapsed-holds';
import { requestView } from '../../../../lambdas/domain/operations/admin-views';
import { recordOrderRequest } from '../../../../lambdas/domain/operations/request-actions';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { orderRequestSchema } from '../../../../lambdas/domain/storage/order-request';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

// An order request holds its bottles only while it waits for an answer: 48 hours, shown to the
// merchant, then back on sale with nobody emailed. One client holds at most 3 at once.

const HOUR_MS = 3600_000;

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

function nine(email: string) {
  return {
    name: 'Hoarder Harry',
    email,
    phone: '07700 900456',
    address: '3 Reed Row\nBath',
    postcode: 'BA1 1AA',
    quantity: 9 as const,
    subtotal: 29.25,
    shipping: 4.95,
    total: 34.2,
  };
}

async function record(email: string, viewer: string) {
  const { reference } = await recordOrderRequest(
    nine(email),
    { idempotencyKey: randomUUID(), cutoffHours: 36, client: viewer, viewer },
    h.deps,
  );
  return orderRequestSchema.parse(await h.item(`REQUEST#${reference}`));
}

const store = () => capacityStoreFromTable(h.deps.table);
const sweep = (at: Date) =>
  releaseLapsedHolds({ stripe: h.deps.stripe, store: store(), shopId: h.deps.shopId, now: () => at });

describe('an order request holds its bottles for 48 hours', () => {
  it('holds until 48 hours after it came, shown on the admin page; then the reconciler gives them back, nobody emailed', async () => {
    const at = new Date('2026-12-01T10:00:00.000Z');
    h.setNow(at);
    const email = `harry.${randomUUID().slice(0, 8)}@example.com`;

    const request = await record(email, '198.51.100.77');

    expect(request.holdsUntil).toBe('2026-12-03T10:00:00.000Z');
    expect(requestView(request).holdsUntil).toBe('2026-12-03T10:00:00.000Z');
    const hold = `r${request.reference}.1796292000:9`;
    expect((await store().read(request.dispatchDate)).holds.has(hold)).toBe(true);

    await sweep(new Date(at.getTime() + 47 * HOUR_MS));
    expect((await store().read(request.dispatchDate)).holds.has(hold)).toBe(true);

    const taken = (await store().read(request.dispatchDate)).taken;
    await sweep(new Date(at.getTime() + 49 * HOUR_MS));
    const day = await store().read(request.dispatchDate);
    expect(day.holds.has(hold)).toBe(false);
    expect(day.taken).toBe(taken - 9);
    expect(await h.emailsTo(email)).toEqual([]);
  });

  it("one client's fourth waiting request is recorded, but holds no bottles", async () => {
    h.setNow(new Date('2026-12-01T11:00:00.000Z'));
    const viewer = '198.51.100.78';

    const requests = [];
    for (let n = 0; n < 4; n += 1)
      requests.push(await record(`hoard${n}.${randomUUID().slice(0, 6)}@example.com`, viewer));

    expect(requests.map((request) => request.holdsUntil !== undefined)).toEqual([true, true, true, false]);
    const fourth = requests[3];
    if (fourth === undefined) throw new Error('no fourth request');
    const day = await store().read(fourth.dispatchDate);
    expect([...day.holds].filter((hold) => hold.startsWith(`r${fourth.reference}`))).toEqual([]);
    expect(requestView(fourth).holdsUntil).toBeUndefined();
  });
});
