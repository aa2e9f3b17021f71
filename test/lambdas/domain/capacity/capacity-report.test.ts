import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setCapacity } from '../../../../lambdas/domain/capacity/capacity-report';
import { RefusedError } from '../../../../lambdas/domain/refusal';
import { itemKey, SETTINGS_KEY } from '../../../../lambdas/domain/storage/orders-table';
import { readShopSettings, writeCapacitySettings } from '../../../../lambdas/domain/storage/settings-store';
import { type StandIns, startStandIns } from '../../../support/stand-ins';

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
  // Each test starts from a shop with no settings item.
  await standIns.inspector.send(
    new DeleteCommand({ TableName: standIns.tableName, Key: itemKey(SETTINGS_KEY) }),
  );
});

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
