import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readShopSettings,
  writeCapacitySettings,
  writeShopSettings,
} from '../../../../lambdas/domain/storage/settings-store';
import {
  checkShopMessage,
  createSettingsReader,
  type ShopSettings,
  settingsFromItem,
} from '../../../../lambdas/domain/storage/shop-settings';
import { type StandIns, startStandIns } from '../../../support/stand-ins';

describe('checkShopMessage', () => {
  // Each is a character the checkout refuses in a name or an address line.
  it.each([
    ['a zero-width space', 'Back\u200bon Monday'],
    ['a zero-width joiner', 'Back on\u200d Monday'],
    ['a right-to-left override', 'Back on \u202eyadnoM'],
    ['a first-strong isolate', 'Back on \u2068Monday'],
    ['a left-to-right mark', 'Back on\u200e Monday'],
    ['a byte order mark', 'Back\ufeff on Monday'],
    ['a soft hyphen', 'Back on Mon\u00adday'],
    ['a word joiner', 'Back\u2060 on Monday'],
    ['a tag character', 'Back on Monday\u{e0041}'],
    ['a Hangul filler', 'Back on \u3164 Monday'],
    ['a braille blank', 'Back on\u2800Monday'],
    ['a bell', 'Back on Monday\u0007'],
    ['a line separator', 'Back on\u2028Monday'],
    ['a lone surrogate', 'Back on Monday \ud800'],
    ['a replacement character', 'Back on Mon\ufffdday'],
  ])('refuses %s, which the checkout refuses too', (_name, message) => {
    expect(() => checkShopMessage(message)).toThrow(
      'The message must be one line of 1 to 300 characters, without control or invisible characters.',
    );
  });

  it('takes a message with accents, a pound sign and an emoji, trimmed', () => {
    expect(checkShopMessage('  Zoë is away: orders over £50 ship Tuesday 🐟  ')).toBe(
      'Zoë is away: orders over £50 ship Tuesday 🐟',
    );
  });
});

describe('settingsFromItem', () => {
  it('no item: a new shop is open', () => {
    expect(settingsFromItem(undefined)).toEqual({ mode: 'open' });
  });

  it('a well-formed item: its mode, message, time, and since when it has been in that mode', () => {
    expect(
      settingsFromItem({
        pk: 'SETTINGS#shop',
        mode: 'paused',
        message: 'Back on 5 January',
        updatedAt: '2026-12-20T10:00:00.000Z',
        modeSince: '2026-12-19T16:30:00.000Z',
      }),
    ).toEqual({
      mode: 'paused',
      message: 'Back on 5 January',
      updatedAt: '2026-12-20T10:00:00.000Z',
      modeSince: '2026-12-19T16:30:00.000Z',
    });
  });

  it('an item from before modeSince: a pause its last write; an open shop since it is not known', () => {
    const item = { pk: 'SETTINGS#shop', updatedAt: '2026-12-20T10:00:00.000Z' };

    expect(settingsFromItem({ ...item, mode: 'requests' })).toEqual({
      mode: 'requests',
      updatedAt: '2026-12-20T10:00:00.000Z',
      modeSince: '2026-12-20T10:00:00.000Z',
    });
    // Perhaps made by a capacity write, which says nothing of the mode.
    expect(settingsFromItem({ ...item, mode: 'open' })).toEqual({
      mode: 'open',
      updatedAt: '2026-12-20T10:00:00.000Z',
    });
  });

  it.each([
    ['an unknown mode', { pk: 'SETTINGS#shop', mode: 'closed', updatedAt: '2026-12-20T10:00:00.000Z' }],
    ['no time', { pk: 'SETTINGS#shop', mode: 'open' }],
    ['another key', { pk: 'SETTINGS#other', mode: 'open', updatedAt: '2026-12-20T10:00:00.000Z' }],
    [
      'a message that is not text',
      { pk: 'SETTINGS#shop', mode: 'open', message: 5, updatedAt: '2026-12-20T10:00:00.000Z' },
    ],
  ])('a malformed item (%s) reads as paused with no message, never as open', (_case, item) => {
    expect(settingsFromItem(item)).toEqual({ mode: 'paused' });
  });
});

describe('createSettingsReader: one read per max age (5 seconds here) per container', () => {
  function counting(results: Array<ShopSettings | Error>) {
    let reads = 0;
    const read = async () => {
      const result = results[Math.min(reads, results.length - 1)];
      reads += 1;
      if (result instanceof Error) throw result;
      return result as ShopSettings;
    };
    return { read, reads: () => reads };
  }

  it('answers from its copy for 4,999 ms and reads again at 5,000 ms', async () => {
    let clock = 1_000_000;
    const source = counting([{ mode: 'open' }, { mode: 'paused', message: 'Back soon' }]);
    const settings = createSettingsReader(source.read, 5_000, () => clock);

    expect(await settings()).toEqual({ mode: 'open' });
    clock += 4_999;
    expect(await settings()).toEqual({ mode: 'open' });
    expect(source.reads()).toBe(1);
    clock += 1;
    expect(await settings()).toEqual({ mode: 'paused', message: 'Back soon' });
    expect(source.reads()).toBe(2);
  });

  it('a failed read is not kept: the next request reads again', async () => {
    const clock = 1_000_000;
    const source = counting([new Error('DynamoDB down'), { mode: 'requests' }]);
    const settings = createSettingsReader(source.read, 5_000, () => clock);

    await expect(settings()).rejects.toThrow('DynamoDB down');
    expect(await settings()).toEqual({ mode: 'requests' });
    expect(source.reads()).toBe(2);
  });

  it('concurrent requests share one read', async () => {
    const source = counting([{ mode: 'open' }]);
    const settings = createSettingsReader(source.read, 5_000, () => 0);

    await Promise.all([settings(), settings(), settings()]);
    expect(source.reads()).toBe(1);
  });
});

describe('readShopSettings: the item the operator commands write, as the Lambdas read it', () => {
  let standIns: StandIns;
  beforeAll(async () => {
    standIns = await startStandIns();
  });
  afterAll(() => standIns?.close());

  const read = () => readShopSettings({ client: standIns.inspector, tableName: standIns.tableName });

  it('open with no item, then what `orders shop pause` wrote', async () => {
    expect(await read()).toEqual({ mode: 'open' });

    const table = { client: standIns.inspector, tableName: standIns.tableName };
    await writeShopSettings(
      table,
      { mode: 'paused', message: 'Back on 5 January' },
      new Date('2026-12-20T10:00:00Z'),
    );

    expect(await read()).toEqual({
      mode: 'paused',
      message: 'Back on 5 January',
      updatedAt: '2026-12-20T10:00:00.000Z',
      modeSince: '2026-12-20T10:00:00.000Z',
    });
  });

  it('modeSince moves when the mode changes, and not for a new message, a resume of an open shop, or a capacity write', async () => {
    const table = { client: standIns.inspector, tableName: standIns.tableName };
    const at = (time: string) => new Date(`2026-12-21T${time}:00Z`);
    await writeShopSettings(table, { mode: 'open' }, at('08:00'));

    const paused = await writeShopSettings(table, { mode: 'paused', message: 'Back at ten' }, at('09:00'));
    await writeCapacitySettings(table, { weekly: 24 }, at('09:50'));
    const reworded = await writeShopSettings(
      table,
      { mode: 'paused', message: 'Back at eleven' },
      at('10:05'),
    );
    const afterPause = await read();
    const resumed = await writeShopSettings(table, { mode: 'open' }, at('11:00'));
    await writeCapacitySettings(table, { weekly: 30 }, at('11:30'));
    const resumedAgain = await writeShopSettings(table, { mode: 'open' }, at('11:45'));

    expect(paused.modeSince).toBe('2026-12-21T09:00:00.000Z');
    expect(reworded).toEqual({
      mode: 'paused',
      message: 'Back at eleven',
      updatedAt: '2026-12-21T10:05:00.000Z',
      modeSince: '2026-12-21T09:00:00.000Z',
    });
    expect(afterPause).toMatchObject({
      updatedAt: '2026-12-21T10:05:00.000Z',
      modeSince: '2026-12-21T09:00:00.000Z',
    });
    expect(resumed.modeSince).toBe('2026-12-21T11:00:00.000Z');
    expect(resumedAgain.modeSince).toBe('2026-12-21T11:00:00.000Z');
    expect(await read()).toEqual({
      mode: 'open',
      updatedAt: '2026-12-21T11:45:00.000Z',
      modeSince: '2026-12-21T11:00:00.000Z',
      capacity: { weekly: 30 },
    });
  });

  it('a hand-edited item whose mode is a number reads as paused', async () => {
    await standIns.inspector.send(
      new PutCommand({
        TableName: standIns.tableName,
        Item: { pk: 'SETTINGS#shop', mode: 1, updatedAt: '2026-12-20T10:00:00.000Z' },
      }),
    );

    expect(await read()).toEqual({ mode: 'paused' });
  });
});
