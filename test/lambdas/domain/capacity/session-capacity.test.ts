import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutReservationId,
  holdId,
  reserveBottles,
  sellHold,
} from '../../../../lambdas/domain/capacity/holds';
import {
  keepSessionReservation,
  releaseExpiredSession,
  returnRefundedBottles,
  returnSessionBottles,
  settleUnpaidSession,
} from '../../../../lambdas/domain/capacity/session-capacity';
import { CAPACITY_HOLD_KEY } from '../../../../lambdas/domain/capacity/session-reservation';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { type StandIns, startStandIns } from '../../../support/stand-ins';

// What a session's later life gives back to its day, against dynalite: a refund (once, both days
// while a delay is moving the bottles), an expiry, a failed debit, the reconciler's look at an
// unpaid session. Each test has days of its own (Mondays of a year no other test uses).

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const store = () => capacityStoreFromTable({ client: standIns.inspector, tableName: standIns.tableName });
const noMetrics = () => undefined;

let week = 0;
/** A Monday of 2051 no other test has used. */
function freshMonday(): string {
  week += 1;
  return new Date(Date.UTC(2051, 0, 2 + 7 * week)).toISOString().slice(0, 10);
}

let sessions = 0;
/** A hold of `bottles` for a new session (its id as create-checkout makes them). */
function newHold(bottles: 3 | 6 | 9): string {
  sessions += 1;
  return holdId(
    checkoutReservationId(`session${String(sessions).padStart(15, '0')}`, 2_556_000_000),
    bottles,
  );
}

/** `bottles` reserved on `day` and, when `sold`, sold there. */
async function heldOn(day: string, bottles: 3 | 6 | 9, sold: boolean): Promise<string> {
  const hold = newHold(bottles);
  await reserveBottles(store(), { from: day, hold, capacity: undefined });
  if (sold) await sellHold(store(), day, hold);
  return hold;
}

const counts = async (day: string) => {
  const { taken, sold, holds, sales } = await store().read(day);
  return { taken, sold, holds: holds.size, sales: sales.size };
};

describe('returnRefundedBottles', () => {
  it('gives an undispatched refunded order’s bottles back to its day, once', async () => {
    const day = freshMonday();
    const hold = await heldOn(day, 6, true);
    const order = { status: 'refunded', capacityHold: hold, capacityDate: day };

    expect(await returnRefundedBottles(store(), order)).toBe(true);
    expect(await counts(day)).toEqual({ taken: 0, sold: 0, holds: 0, sales: 0 });
    expect(await returnRefundedBottles(store(), order)).toBe(false);
    expect(await counts(day)).toEqual({ taken: 0, sold: 0, holds: 0, sales: 0 });
  });

  it.each([
    ['not refunded', { status: 'paid' }],
    ['dispatched before the refund', { status: 'refunded', dispatchedAt: '2051-01-09T08:00:00Z' }],
  ])('gives nothing back for an order %s (its bottles were used or are still sold)', async (_, state) => {
    const day = freshMonday();
    const hold = await heldOn(day, 3, true);

    expect(await returnRefundedBottles(store(), { ...state, capacityHold: hold, capacityDate: day })).toBe(
      false,
    );
    expect(await counts(day)).toEqual({ taken: 3, sold: 3, holds: 0, sales: 1 });
  });

  it('gives nothing back for an order that carries no hold or no day (made before capacity)', async () => {
    const day = freshMonday();
    const hold = await heldOn(day, 3, true);

    expect(await returnRefundedBottles(store(), { status: 'refunded', capacityDate: day })).toBe(false);
    expect(await returnRefundedBottles(store(), { status: 'refunded', capacityHold: hold })).toBe(false);
    expect(await counts(day)).toEqual({ taken: 3, sold: 3, holds: 0, sales: 1 });
  });

  it('gives back on both days while a delay is moving the bottles, and says so when only the old day had them', async () => {
    const [oldDay, newDay] = [freshMonday(), freshMonday()];
    const moving = await heldOn(oldDay, 9, true);
    await reserveBottles(store(), { from: newDay, hold: moving, capacity: undefined });
    await sellHold(store(), newDay, moving);
    const stillOld = await heldOn(oldDay, 3, true);

    // Sold on both days (a move stopped between its two steps): both given back.
    expect(
      await returnRefundedBottles(store(), {
        status: 'refunded',
        capacityHold: moving,
        capacityDate: newDay,
        capacityMovingFrom: oldDay,
      }),
    ).toBe(true);
    // Sold only on the old day (the move had not sold it on the new one yet): that is given back.
    expect(
      await returnRefundedBottles(store(), {
        status: 'refunded',
        capacityHold: stillOld,
        capacityDate: newDay,
        capacityMovingFrom: oldDay,
      }),
    ).toBe(true);

    expect(await counts(oldDay)).toEqual({ taken: 0, sold: 0, holds: 0, sales: 0 });
    expect(await counts(newDay)).toEqual({ taken: 0, sold: 0, holds: 0, sales: 0 });
  });
});

describe('expired and failed sessions', () => {
  const metadataOf = (day: string, hold: string) => ({ dispatch_date: day, [CAPACITY_HOLD_KEY]: hold });

  it('an expiry releases the hold once, and a session without a reservation moves nothing', async () => {
    const day = freshMonday();
    const hold = await heldOn(day, 6, false);

    expect(await releaseExpiredSession(metadataOf(day, hold), store())).toBe(true);
    expect(await releaseExpiredSession(metadataOf(day, hold), store())).toBe(false);
    expect(await releaseExpiredSession({ dispatch_date: day }, store())).toBe(false);
    expect(await releaseExpiredSession(null, store())).toBe(false);
    expect(await counts(day)).toEqual({ taken: 0, sold: 0, holds: 0, sales: 0 });
  });

  it('a failed debit gives back a sale too, and a session without a reservation moves nothing', async () => {
    const day = freshMonday();
    const hold = await heldOn(day, 9, true);

    expect(await returnSessionBottles(undefined, store())).toBe(false);
    expect(await returnSessionBottles(metadataOf(day, hold), store())).toBe(true);
    expect(await counts(day)).toEqual({ taken: 0, sold: 0, holds: 0, sales: 0 });
  });

  it.each(['requires_payment_method', 'canceled'])(
    'the reconciler gives back the bottles of an unpaid session whose payment is %s',
    async (intentStatus) => {
      const day = freshMonday();
      const hold = await heldOn(day, 3, false);

      await settleUnpaidSession(metadataOf(day, hold), intentStatus, {
        store: store(),
        settings: undefined,
        metrics: noMetrics,
      });

      expect(await counts(day)).toEqual({ taken: 0, sold: 0, holds: 0, sales: 0 });
    },
  );

  it('the reconciler keeps the bottles of a debit still with the bank: they are sold', async () => {
    const day = freshMonday();
    const hold = await heldOn(day, 3, false);

    await settleUnpaidSession(metadataOf(day, hold), 'processing', {
      store: store(),
      settings: undefined,
      metrics: noMetrics,
    });

    expect(await counts(day)).toEqual({ taken: 3, sold: 3, holds: 0, sales: 1 });
  });
});

describe('keepSessionReservation: only the sale that fills a day says so', () => {
  const metadataOf = (day: string, hold: string) => ({ dispatch_date: day, [CAPACITY_HOLD_KEY]: hold });

  it('a sale leaving room fills nothing, the one leaving under 3 fills the day, a sale on a day already full fills nothing again', async () => {
    const day = freshMonday();
    const lines: string[] = [];
    const deps = {
      store: store(),
      settings: { days: { [day]: 8 } },
      metrics: (line: string) => lines.push(line),
    };
    // Held before the merchant set the limit of 8, so all three are sold: 3, then 9, then 12.
    const [three, six, more] = [
      await heldOn(day, 3, false),
      await heldOn(day, 6, false),
      await heldOn(day, 3, false),
    ];

    expect(await keepSessionReservation(metadataOf(day, three), deps)).toEqual({ date: day, hold: three });
    expect(lines).toEqual([]);
    expect(await keepSessionReservation(metadataOf(day, six), deps)).toEqual({
      date: day,
      hold: six,
      full: { sold: 9, capacity: 8 },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"DispatchDaySoldOut":1');
    expect(await keepSessionReservation(metadataOf(day, more), deps)).toEqual({ date: day, hold: more });
    expect(lines).toHaveLength(1);
  });

  it('a session without a reservation (made before capacity) keeps nothing and counts nothing', async () => {
    const lines: string[] = [];
    const deps = { store: store(), settings: { weekly: 8 }, metrics: (line: string) => lines.push(line) };

    expect(await keepSessionReservation(undefined, deps)).toBeUndefined();
    expect(await keepSessionReservation({ dispatch_date: freshMonday() }, deps)).toBeUndefined();
    expect(lines).toEqual([]);
  });
});

describe('returnSessionBottles: a paid session refunded in Stripe before its order was recorded', () => {
  const metadataOf = (day: string, hold: string) => ({ dispatch_date: day, [CAPACITY_HOLD_KEY]: hold });

  it('gives back its hold or its sale, once; a session without a reservation gives nothing', async () => {
    const day = freshMonday();
    const [held, sold] = [await heldOn(day, 3, false), await heldOn(day, 6, true)];

    expect(await returnSessionBottles(metadataOf(day, held), store())).toBe(true);
    expect(await returnSessionBottles(metadataOf(day, sold), store())).toBe(true);
    expect(await returnSessionBottles(metadataOf(day, sold), store())).toBe(false);
    expect(await returnSessionBottles(null, store())).toBe(false);
    expect(await counts(day)).toEqual({ taken: 0, sold: 0, holds: 0, sales: 0 });
  });
});
