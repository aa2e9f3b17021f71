import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attributeNames,
  type CapacityChange,
  capacityDayFromItem,
  usedValues,
} from '../../../../lambdas/domain/storage/capacity-store';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { type StandIns, startStandIns } from '../../../support/stand-ins';

// A dispatch day's item as the capacity store reads and writes it, against dynalite: what a change
// sends (only the names and values its expressions use: DynamoDB refuses others) and what comes back.

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const store = () => capacityStoreFromTable({ client: standIns.inspector, tableName: standIns.tableName });

const reserve = (hold: string, n: number, maxBefore: number): CapacityChange => ({
  update: 'ADD #taken :n, #holds :holdSet',
  condition: '(attribute_not_exists(#taken) OR #taken <= :maxBefore) AND NOT contains(#holds, :hold)',
  values: { ':n': n, ':hold': hold, ':holdSet': new Set([hold]), ':maxBefore': maxBefore, ':unused': 1 },
});

describe('attributeNames and usedValues', () => {
  it('name only the attributes and values the expressions use, by whole name', () => {
    const change: CapacityChange = {
      update: 'ADD #sold :nMax',
      condition: '#taken >= :nMax',
      values: { ':n': 3, ':nMax': 9, ':other': 1 },
    };

    expect(attributeNames(change)).toEqual({ '#sold': 'sold', '#taken': 'taken' });
    expect(usedValues(change)).toEqual({ ':nMax': 9 });
    expect(attributeNames({ update: 'ADD #holdsX :n', condition: '', values: {} })).toEqual({});
    expect(
      attributeNames({
        update: 'ADD #taken :n, #holds :h',
        condition: 'NOT contains(#sales, :h) AND #sold < :n',
        values: {},
      }),
    ).toEqual({ '#taken': 'taken', '#sold': 'sold', '#holds': 'holds', '#sales': 'sales' });
  });
});

describe('capacityDayFromItem', () => {
  it('reads an absent item as an empty day, and a partial one with zeros and empty sets', () => {
    expect(capacityDayFromItem('2026-12-07', undefined)).toEqual({
      date: '2026-12-07',
      taken: 0,
      sold: 0,
      holds: new Set(),
      sales: new Set(),
      standing: new Set(),
    });
    expect(capacityDayFromItem('2026-12-07', { taken: 6, holds: new Set(['cA.1796119200:6']) })).toEqual({
      date: '2026-12-07',
      taken: 6,
      sold: 0,
      holds: new Set(['cA.1796119200:6']),
      sales: new Set(),
      standing: new Set(),
    });
  });

  it('refuses a malformed item rather than read it as room to sell', () => {
    expect(() => capacityDayFromItem('2026-12-07', { taken: 'six' })).toThrow(
      'The capacity item of 2026-12-07 is malformed',
    );
    expect(() => capacityDayFromItem('2026-12-07', { taken: 1.5 })).toThrow('malformed');
  });
});

describe('capacityStoreFromTable', () => {
  it('change: the day after the update; undefined when its condition fails, nothing written', async () => {
    const first = await store().change('2050-06-06', reserve('cA.1796119200:6', 6, 4));
    const refused = await store().change('2050-06-06', reserve('cB.1796119200:3', 3, 2));

    expect(first).toEqual({
      date: '2050-06-06',
      taken: 6,
      sold: 0,
      holds: new Set(['cA.1796119200:6']),
      sales: new Set(),
      standing: new Set(),
    });
    expect(refused).toBeUndefined();
    expect(await store().read('2050-06-06')).toEqual(first);
  });

  it('apply: true when made, false when its condition fails', async () => {
    expect(await store().apply('2050-06-13', reserve('cC.1796119200:3', 3, 7))).toBe(true);
    expect(await store().apply('2050-06-13', reserve('cC.1796119200:3', 3, 7))).toBe(false);
    expect(await store().apply('2050-06-13', reserve('cD.1796119200:9', 9, 0))).toBe(false);

    expect(await store().read('2050-06-13')).toMatchObject({ taken: 3, holds: new Set(['cC.1796119200:3']) });
  });

  it('read: a hand-edited item is an error, not an empty day', async () => {
    await standIns.inspector.send(
      new PutCommand({ TableName: standIns.tableName, Item: { pk: 'CAPACITY#2050-06-20', taken: 'many' } }),
    );

    await expect(store().read('2050-06-20')).rejects.toThrow('The capacity item of 2050-06-20 is malformed');
  });
});
