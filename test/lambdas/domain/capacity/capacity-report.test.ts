import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  capacityOfDays,
  closeDispatchDay,
  setCapacity,
} from '../../../../lambdas/domain/capacity/capacity-report';
import { holdId, reserveBottles, sellFromDay } from '../../../../lambdas/domain/capacity/holds';
import { RefusedError } from '../../../../lambdas/domain/refusal';
import { holdStandingChange } from '../../../../lambdas/domain/storage/capacity-changes';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { capacityDayKey, itemKey, SETTINGS_KEY } from '../../../../lambdas/domain/storage/orders-table';
import { readShopSettings, writeCapacitySettings } from '../../../../lambdas/domain/storage/settings-store';
import { deferred } from '../../../support/deferred';
import { STAND_IN_REGION, type StandIns, startStandIns } from '../../../support/stand-ins';

// setCapacity against dynalite with the SDK's document client, on the operator's clock of
// Wednesday 28 May 2031: the coming dispatch days are Mondays 2, 9, 16, 23 and 30 June, 7, 14,
// 21 and 28 July (no bank holiday between).
let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const table = () => ({ client: standIns.inspector, tableName: standIns.tableName });
const deps = () => ({ table: table(), now: () => new Date('2031-05-28T10:00:00Z') });
const set = (value: number | 'none' | 'default', date?: string) => setCapacity(deps(), { value, date }, 8);
const days = async () => (await readShopSettings(table(), true)).capacity?.days;

beforeEach(async () => {
  // Each test starts from a shop with no settings item and nothing held or sold.
  for (const key of [SETTINGS_KEY, ...['2031-06-02', '2031-06-09'].map(capacityDayKey)]) {
    await standIns.inspector.send(new DeleteCommand({ TableName: standIns.tableName, Key: itemKey(key) }));
  }
});

/** Sells `sold` bottles on `date` and holds `held` more there for a checkout not paid yet. */
async function sellAndHold(date: string, sold: number, held = 0): Promise<void> {
  const store = capacityStoreFromTable(table());
  await sellFromDay(store, { from: date, hold: holdId(`sale-${date}`, sold), capacity: undefined });
  if (held > 0) {
    await reserveBottles(store, { from: date, hold: holdId(`hold-${date}`, held), capacity: undefined });
  }
}

describe('setCapacity: changes made at the same moment all stay', () => {
  it('five days set at once on a new shop: all five are there afterwards', async () => {
    await Promise.all([
      set(11, '2031-06-02'),
      set(12, '2031-06-09'),
      set(13, '2031-06-16'),
      set(14, '2031-06-23'),
      set(15, '2031-06-30'),
    ]);

    expect(await days()).toEqual({
      '2031-06-02': 11,
      '2031-06-09': 12,
      '2031-06-16': 13,
      '2031-06-23': 14,
      '2031-06-30': 15,
    });
  });

  it('five days changed at once where days and a weekly default are already set, one of them taken away', async () => {
    await writeCapacitySettings(
      table(),
      { weekly: 40, days: { '2031-06-02': 1, '2031-07-07': 2 } },
      new Date(),
    );

    await Promise.all([
      set(0, '2031-06-02'),
      set('none', '2031-06-09'),
      set(13, '2031-06-16'),
      set('default', '2031-07-07'),
      set(30),
    ]);

    expect((await readShopSettings(table(), true)).capacity).toEqual({
      weekly: 30,
      days: { '2031-06-02': 0, '2031-06-09': null, '2031-06-16': 13 },
    });
  });

  it('the same day set twice at once ends as one of the two, and the other days stay', async () => {
    await set(9, '2031-06-09');

    await Promise.all([set(5, '2031-06-02'), set(7, '2031-06-02'), set(20, '2031-06-16')]);

    const after = await days();
    expect([5, 7]).toContain(after?.['2031-06-02']);
    expect(after).toMatchObject({ '2031-06-09': 9, '2031-06-16': 20 });
  });

  it("a day's change drops the days already past, and keeps the rest", async () => {
    await writeCapacitySettings(table(), { days: { '2031-05-26': 4, '2031-06-09': 9 } }, new Date());

    await set(6, '2031-06-02');

    expect(await days()).toEqual({ '2031-06-02': 6, '2031-06-09': 9 });
  });
});

/**
 * The orders table through a document client that holds every read of the settings item until
 * `readers` reads have arrived (or a second has passed), then lets each write go after its own
 * delay: `readers` changes made at once all read before any writes, as on a loaded machine, where
 * a change computed from its read overwrites the others.
 */
function slowedSettingsTable(readers: number) {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: STAND_IN_REGION,
      endpoint: standIns.dynamoEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const allRead = deferred<void>();
  const opened = setTimeout(() => allRead.resolve(), 1000);
  let reads = 0;
  let writes = 0;
  let readsAtFirstWrite: number | undefined;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const touchesSettings = JSON.stringify(args.input).includes(SETTINGS_KEY);
      if (touchesSettings && context.commandName === 'GetItemCommand') {
        const answer = await next(args);
        reads += 1;
        if (reads >= readers) allRead.resolve();
        await allRead.promise;
        return answer;
      }
      if (touchesSettings && context.commandName === 'UpdateItemCommand') {
        // 0, 30, 10, 40, 20 ms…: the writes land out of the order they were made in.
        const wait = ((writes * 3) % 5) * 10;
        writes += 1;
        readsAtFirstWrite ??= reads;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      return next(args);
    },
    { step: 'initialize', name: 'slowed-settings' },
  );
  return {
    table: { client, tableName: standIns.tableName },
    /** How many reads of the settings had been answered when the first write went out. */
    readsAtFirstWrite: () => readsAtFirstWrite,
    close: () => {
      clearTimeout(opened);
      client.destroy();
    },
  };
}

describe('setCapacity: five changes made at the same moment against a slowed store', () => {
  it('five days set at once, every read answered before any write: all five are there afterwards', async () => {
    // Prepare: a shop whose settings item already holds a weekly default and a day.
    await writeCapacitySettings(table(), { weekly: 40, days: { '2031-07-07': 2 } }, new Date());
    const slowed = slowedSettingsTable(5);
    const setSlowly = (value: number, date: string) =>
      setCapacity({ table: slowed.table, now: () => new Date('2031-05-28T10:00:00Z') }, { value, date }, 8);

    // Act
    const answers = await Promise.all([
      setSlowly(11, '2031-06-02'),
      setSlowly(12, '2031-06-09'),
      setSlowly(13, '2031-06-16'),
      setSlowly(14, '2031-06-23'),
      setSlowly(15, '2031-06-30'),
    ]).finally(slowed.close);

    // Assess
    expect(slowed.readsAtFirstWrite()).toBe(5);
    expect(answers).toHaveLength(5);
    expect((await readShopSettings(table(), true)).capacity).toEqual({
      weekly: 40,
      days: {
        '2031-06-02': 11,
        '2031-06-09': 12,
        '2031-06-16': 13,
        '2031-06-23': 14,
        '2031-06-30': 15,
        '2031-07-07': 2,
      },
    });
  });

  it('five first changes on a shop with no settings item, every read answered before any write: all five stay', async () => {
    // Prepare
    const slowed = slowedSettingsTable(5);
    const setSlowly = (value: number, date: string) =>
      setCapacity({ table: slowed.table, now: () => new Date('2031-05-28T10:00:00Z') }, { value, date }, 8);

    // Act
    await Promise.all([
      setSlowly(21, '2031-06-02'),
      setSlowly(22, '2031-06-09'),
      setSlowly(23, '2031-06-16'),
      setSlowly(24, '2031-06-23'),
      setSlowly(25, '2031-06-30'),
    ]).finally(slowed.close);

    // Assess
    expect(slowed.readsAtFirstWrite()).toBe(5);
    expect(await days()).toEqual({
      '2031-06-02': 21,
      '2031-06-09': 22,
      '2031-06-16': 23,
      '2031-06-23': 24,
      '2031-06-30': 25,
    });
  });
});

describe('setCapacity: only the days checkout sells', () => {
  it('refuses a day in 2099, naming the last day it can set; nothing is written', async () => {
    const refusal = set(5, '2099-06-01');

    await expect(refusal).rejects.toThrow(RefusedError);
    await expect(refusal).rejects.toThrow(
      "Monday 1 June 2099 (2099-06-01) is beyond the 8 weeks checkout sells: the last day it can sell now is Monday 28 July (2031-07-28). Set that day's capacity once it is within them.",
    );
    expect(await days()).toBeUndefined();
  });

  it('takes Monday 28 July, the last day a checkout placed now may be sold, and refuses Monday 4 August', async () => {
    await set(5, '2031-07-28');

    await expect(set(5, '2031-08-04')).rejects.toThrow('Monday 4 August (2031-08-04) is beyond the 8 weeks');
    expect(await days()).toEqual({ '2031-07-28': 5 });
  });
});

describe('setCapacity: the number range', () => {
  it('refuses 1.5, -1 and 10001 bottles with the range named, and takes 0 and 10000', async () => {
    for (const bad of [1.5, -1, 10_001]) {
      await expect(set(bad)).rejects.toThrow(
        'A capacity is a whole number of bottles from 0 to 10000, or none.',
      );
    }
    await expect(set(0)).resolves.toBeDefined();
    await expect(set(10_000)).resolves.toBeDefined();
  });
});

describe('setCapacity: what it refuses', () => {
  it('refuses default without a day, and writes nothing', async () => {
    await expect(set('default')).rejects.toThrow(
      'default goes with --date: it makes that day follow the weekly default again.',
    );
    expect((await readShopSettings(table(), true)).capacity).toBeUndefined();
  });

  it('refuses Monday 26 May, already past, and writes nothing', async () => {
    await expect(set(5, '2031-05-26')).rejects.toThrow(
      '2031-05-26 is past: its capacity can no longer change anything.',
    );
    expect(await days()).toBeUndefined();
  });
});

describe('setCapacity: the weekly default', () => {
  it('none takes the weekly default away and keeps the days’ own limits', async () => {
    await writeCapacitySettings(table(), { weekly: 40, days: { '2031-06-09': 9 } }, new Date());

    const { settings } = await set('none');

    expect(settings).toEqual({ days: { '2031-06-09': 9 } });
    expect((await readShopSettings(table(), true)).capacity?.weekly).toBeUndefined();
  });
});

describe('capacityOfDays: limit, held, sold and left of each day', () => {
  it('Monday 2 June, limit 10, 5 sold and 2 held: 3 left; Monday 9 June, no limit, 3 sold: no limit and none left to count', async () => {
    await sellAndHold('2031-06-02', 5, 2);
    await sellAndHold('2031-06-09', 3);
    await set(10, '2031-06-02');

    expect(await capacityOfDays({ table: table() }, ['2031-06-02', '2031-06-09'])).toEqual([
      { date: '2031-06-02', capacity: 10, reserved: 2, sold: 5, left: 3 },
      { date: '2031-06-09', capacity: null, reserved: 0, sold: 3, left: null },
    ]);
  });

  it('Monday 2 June, limit 12, 5 sold, 2 held and two standing orders of 3 and 2 bottles: 5 standing apart, 0 left', async () => {
    await sellAndHold('2031-06-02', 5, 2);
    const store = capacityStoreFromTable(table());
    await store.apply('2031-06-02', holdStandingChange('sub_report_a:3', 3));
    await store.apply('2031-06-02', holdStandingChange('sub_report_b:2', 2));
    await set(12, '2031-06-02');

    expect(await capacityOfDays({ table: table() }, ['2031-06-02'])).toEqual([
      { date: '2031-06-02', capacity: 12, reserved: 2, standing: 5, sold: 5, left: 0 },
    ]);
  });

  it('a day lowered to 6 below its 7 taken shows 0 left, not -1', async () => {
    await sellAndHold('2031-06-02', 5, 2);
    await set(6, '2031-06-02');

    expect(await capacityOfDays({ table: table() }, ['2031-06-02'])).toEqual([
      { date: '2031-06-02', capacity: 6, reserved: 2, sold: 5, left: 0 },
    ]);
  });
});

describe('setCapacity: the days it names as sold above their new limit', () => {
  it('names a day lowered below its sales, not one lowered to them, and on a day change only that day', async () => {
    await sellAndHold('2031-06-02', 5);
    await sellAndHold('2031-06-09', 3);

    expect((await set(4, '2031-06-02')).oversold).toEqual([{ date: '2031-06-02', sold: 5, capacity: 4 }]);
    expect((await set(5, '2031-06-02')).oversold).toEqual([]);
    // Monday 2 June keeps its own 5; Monday 9 June's 3 sold are above the new weekly 2.
    expect((await set(2)).oversold).toEqual([{ date: '2031-06-09', sold: 3, capacity: 2 }]);
    expect((await set(1, '2031-06-16')).oversold).toEqual([]);
    // No weekly limit: Monday 9 June's 3 sold are above nothing.
    expect((await set('none')).oversold).toEqual([]);
  });
});

describe('closeDispatchDay', () => {
  const close = (date: string) => closeDispatchDay(deps(), date);

  it("closes Monday 2 June, which followed the weekly default: its own limit is 0, and reopening it means 'default'", async () => {
    expect(await close('2031-06-02')).toEqual({ date: '2031-06-02', before: 'default' });
    expect(await days()).toEqual({ '2031-06-02': 0 });
  });

  it('closes a day with its own 7: reopening it means 7', async () => {
    await set(7, '2031-06-02');

    expect(await close('2031-06-02')).toEqual({ date: '2031-06-02', before: 7 });
    expect(await days()).toEqual({ '2031-06-02': 0 });
  });

  it("closes a day already at 0 (an earlier run of the same delay): reopening it means 'default', not 0", async () => {
    await set(0, '2031-06-02');

    expect(await close('2031-06-02')).toEqual({ date: '2031-06-02', before: 'default' });
  });

  it('leaves Monday 19 May (past) and Tuesday 3 June (no dispatch day) alone', async () => {
    expect(await close('2031-05-19')).toBeUndefined();
    expect(await close('2031-06-03')).toBeUndefined();
    expect(await days()).toBeUndefined();
  });
});

describe('the operator reads the settings strongly consistently: the change just made counts', () => {
  it('every settings read of setCapacity, capacityOfDays and closeDispatchDay asks for ConsistentRead', async () => {
    const reads: unknown[] = [];
    const name = 'record-settings-reads';
    standIns.inspector.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: unknown; ConsistentRead?: unknown };
        const isRead = context.commandName === 'GetItemCommand';
        if (isRead && JSON.stringify(input.Key).includes('SETTINGS#shop')) reads.push(input.ConsistentRead);
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      await set(7, '2031-06-02');
      await capacityOfDays({ table: table() }, ['2031-06-02']);
      await closeDispatchDay(deps(), '2031-06-09');
    } finally {
      standIns.inspector.middlewareStack.remove(name);
    }

    // set: the stale days, the settings after, the report's; capacityOfDays: one; close: one.
    expect(reads).toEqual([true, true, true, true, true]);
  });
});
