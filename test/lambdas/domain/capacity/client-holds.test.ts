import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_HOLD_LIMIT,
  clientHoldKeys,
  countClientHold,
  TooManyOpenHoldsError,
} from '../../../../lambdas/domain/capacity/client-holds';
import { releaseHold, reserveBottles, sellHold } from '../../../../lambdas/domain/capacity/holds';
import {
  capacityStoreFromTable,
  clientHoldItemsFromTable,
} from '../../../../lambdas/domain/storage/capacity-table';
import { type StandIns, startStandIns } from '../../../support/stand-ins';

// How many open holds one client may have, counted per viewer address and per email address in
// CLIENT_HOLDS items, against dynalite. Each test is its own client (its own email, its own viewer).

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const table = () => ({ client: standIns.inspector, tableName: standIns.tableName });
const capacity = () => capacityStoreFromTable(table());
const items = () => clientHoldItemsFromTable(table());

/** 1 December 2026, 10:00 UTC, in epoch seconds; holds expire 40 minutes on unless told. */
const NOW = new Date('2026-12-01T10:00:00.000Z');
const NOW_S = 1796119200;
const DAY = '2026-12-07';

let serial = 0;
function client(viewer = true) {
  serial += 1;
  return {
    email: `client${serial}@example.com`,
    ...(viewer && { viewer: `198.51.100.${serial}` }),
  };
}

const checkoutHold = (token: string, expiresAt = NOW_S + 2400, bottles = 3) =>
  `c${token}.${expiresAt}:${bottles}`;

async function holdOnDay(hold: string, date = DAY) {
  await reserveBottles(capacity(), { from: date, hold, capacity: undefined });
}

/** Holds the bottles on their day (a checkout's first step), then counts the hold for the client. */
async function count(who: { email: string; viewer?: string }, hold: string, date = DAY) {
  await holdOnDay(hold, date);
  return countClientHold({ items: items(), capacity: capacity(), now: NOW }, who, { date, hold });
}

async function itemOf(pk: string) {
  const { Item } = await standIns.inspector.send(
    new GetCommand({ TableName: standIns.tableName, Key: { pk }, ConsistentRead: true }),
  );
  return Item;
}

describe('clientHoldKeys', () => {
  it('counts a client by its viewer address and its email address, each in its own item', () => {
    expect(clientHoldKeys({ email: 'ann@example.com', viewer: '198.51.100.7' })).toEqual([
      'CLIENT_HOLDS#viewer#e183220b699c10a83ca7be3433d228ed',
      'CLIENT_HOLDS#email#71d4f55f72fa128dfb468a1a3901507c',
    ]);
    expect(clientHoldKeys({ email: 'ann@example.com' })).toEqual([
      'CLIENT_HOLDS#email#71d4f55f72fa128dfb468a1a3901507c',
    ]);
  });

  it('one mailbox and one network are one client, however written', () => {
    expect(clientHoldKeys({ email: 'Ann+shop@Example.com', viewer: '::ffff:198.51.100.7' })).toEqual(
      clientHoldKeys({ email: 'ann@example.com', viewer: '198.51.100.7' }),
    );
    expect(clientHoldKeys({ email: 'a@example.com', viewer: '2001:db8:1:2::9' })[0]).toBe(
      'CLIENT_HOLDS#viewer#7437dddbc0275bcfe536fa291fb82060',
    );
  });
});

describe('countClientHold', () => {
  it('counts 3 open holds and refuses the 4th; the items keep the 3 with their days, version and deletion time', async () => {
    const who = client();
    const holds = ['a1', 'a2', 'a3', 'a4'].map((token, i) => checkoutHold(token, NOW_S + 2400 + i));

    for (const hold of holds.slice(0, 3)) await count(who, hold);
    const fourth = count(who, holds[3] ?? '');

    await expect(fourth).rejects.toThrow(TooManyOpenHoldsError);
    await expect(fourth).rejects.toThrow('The client already holds 3 open checkouts or requests');
    await expect(fourth).rejects.toMatchObject({ name: 'TooManyOpenHoldsError', limit: 3 });
    expect(CLIENT_HOLD_LIMIT).toBe(3);
    for (const pk of clientHoldKeys(who)) {
      expect(await itemOf(pk)).toEqual({
        pk,
        holds: new Set([`${DAY}/${holds[0]}`, `${DAY}/${holds[1]}`, `${DAY}/${holds[2]}`]),
        version: 3,
        // The last expiry (NOW + 2402 s) and a day.
        deleteAfter: NOW_S + 2402 + 86_400,
      });
    }
  });

  it('counts a retry of the same attempt once, even with a later expiry', async () => {
    const who = client();
    await count(who, checkoutHold('same', NOW_S + 600));
    await count(who, checkoutHold('same', NOW_S + 1200));
    await count(who, checkoutHold('same', NOW_S + 1800, 6));
    await count(who, checkoutHold('twelve', NOW_S + 600, 12));
    await count(who, checkoutHold('twelve', NOW_S + 1200, 12));

    const [viewerKey] = clientHoldKeys(who);
    expect(await itemOf(viewerKey ?? '')).toMatchObject({
      holds: new Set([
        `${DAY}/${checkoutHold('same', NOW_S + 600)}`,
        `${DAY}/${checkoutHold('twelve', NOW_S + 600, 12)}`,
      ]),
      version: 2,
    });
  });

  it('an older request hold without expiry is its own attempt: its item is kept a day from now', async () => {
    const who = client(false);
    await count(who, 'rR0A1B2C3D4E5:3');
    await count(who, 'rR0A1B2C3D4E5:3');
    await count(who, 'rR0A1B2C3D4E5:6');

    const [emailKey] = clientHoldKeys(who);
    expect(await itemOf(emailKey ?? '')).toMatchObject({
      holds: new Set([`${DAY}/rR0A1B2C3D4E5:3`]),
      version: 1,
      deleteAfter: NOW_S + 86_400,
    });
  });

  it('holds past their expiry no longer count (one expiring this very second included)', async () => {
    const who = client();
    await count(who, checkoutHold('old1', NOW_S - 60));
    await count(who, checkoutHold('old2', NOW_S));
    await count(who, checkoutHold('new1'));
    await count(who, checkoutHold('new2'));

    await expect(count(who, checkoutHold('new3'))).resolves.toBeUndefined();
    await expect(count(who, checkoutHold('new4'))).rejects.toThrow(TooManyOpenHoldsError);
    const [viewerKey] = clientHoldKeys(who);
    expect((await itemOf(viewerKey ?? ''))?.holds).toEqual(
      new Set(['new1', 'new2', 'new3'].map((token) => `${DAY}/${checkoutHold(token)}`)),
    );
  });

  it('at the limit, a hold paid for or released on its day no longer counts; one still held does', async () => {
    const who = client();
    const other = '2026-12-14';
    const [paid, released, held] = [checkoutHold('paid'), checkoutHold('released'), checkoutHold('held')];
    await count(who, paid);
    await count(who, released, other);
    await count(who, held);
    await sellHold(capacity(), DAY, paid);
    await releaseHold(capacity(), other, released);

    await count(who, checkoutHold('fourth'));
    await count(who, checkoutHold('fifth'));
    await expect(count(who, checkoutHold('sixth'))).rejects.toThrow(TooManyOpenHoldsError);

    const [viewerKey] = clientHoldKeys(who);
    expect((await itemOf(viewerKey ?? ''))?.holds).toEqual(
      new Set([held, checkoutHold('fourth'), checkoutHold('fifth')].map((hold) => `${DAY}/${hold}`)),
    );
  });

  it('counts by email across viewers, and by viewer across emails', async () => {
    const email = client(false).email;
    for (const n of [1, 2, 3])
      await count({ email, viewer: `203.0.113.${n}` }, checkoutHold(`e${serial}x${n}`));
    await expect(count({ email, viewer: '203.0.113.9' }, checkoutHold(`e${serial}x4`))).rejects.toThrow(
      TooManyOpenHoldsError,
    );

    const viewer = '192.0.2.77';
    for (const n of [1, 2, 3])
      await count({ email: `v${n}.${serial}@example.com`, viewer }, checkoutHold(`v${serial}x${n}`));
    await expect(
      count({ email: `v4.${serial}@example.com`, viewer }, checkoutHold(`v${serial}x4`)),
    ).rejects.toThrow(TooManyOpenHoldsError);
  });

  it('ignores an entry without a day (a hand edit), even one naming the same attempt, and counts on', async () => {
    const who = client(false);
    const [emailKey = ''] = clientHoldKeys(who);
    await standIns.inspector.send(
      new PutCommand({
        TableName: standIns.tableName,
        Item: {
          pk: emailKey,
          holds: new Set([checkoutHold('added', NOW_S + 60), `${DAY}/${checkoutHold('kept')}`]),
          version: 4,
        },
      }),
    );

    await count(who, checkoutHold('added'));

    expect(await itemOf(emailKey)).toMatchObject({
      holds: new Set([`${DAY}/${checkoutHold('kept')}`, `${DAY}/${checkoutHold('added')}`]),
      version: 5,
    });
  });

  it('four checkouts of one client at once: three counted, one refused, none lost', async () => {
    const who = client();
    const holds = ['p1', 'p2', 'p3', 'p4'].map((token) => checkoutHold(`${token}s${serial}`));

    const results = await Promise.allSettled(holds.map((hold) => count(who, hold)));

    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(refused).toEqual([expect.any(TooManyOpenHoldsError)]);
    for (const pk of clientHoldKeys(who)) {
      const item = await itemOf(pk);
      expect(item?.holds).toHaveProperty('size', 3);
      expect(item?.version).toBe(3);
    }
  });
});

describe('countClientHold when other writes of the client keep coming first', () => {
  /** The real items, with another checkout of the client writing between each read and its write. */
  function raced() {
    const real = items();
    const reads: string[] = [];
    return {
      reads,
      items: {
        async read(pk: string) {
          const item = await real.read(pk);
          reads.push(pk);
          await real.replace(pk, new Set([...item.holds, `${DAY}/rival${reads.length}:3`]), item.version, 1);
          return item;
        },
        replace: real.replace,
      },
    };
  }

  it('tries 5 times, then fails naming the item, and counts nothing of its own', async () => {
    const who = client(false);
    const [emailKey = ''] = clientHoldKeys(who);
    const { reads, items: racedItems } = raced();
    const hold = checkoutHold('raced');
    await holdOnDay(hold);

    await expect(
      countClientHold({ items: racedItems, capacity: capacity(), now: NOW }, who, { date: DAY, hold }),
    ).rejects.toThrow(`Could not count a hold in ${emailKey}: other writes kept coming first`);
    expect(reads).toEqual([emailKey, emailKey, emailKey, emailKey, emailKey]);
    expect((await itemOf(emailKey))?.holds).not.toContain(`${DAY}/${hold}`);
  });

  it('a count that wins its write reads the item once', async () => {
    const who = client(false);
    const [emailKey = ''] = clientHoldKeys(who);
    const real = items();
    const reads: string[] = [];
    const counting = {
      read: (pk: string) => {
        reads.push(pk);
        return real.read(pk);
      },
      replace: real.replace,
    };
    const hold = checkoutHold('once');
    await holdOnDay(hold);

    await countClientHold({ items: counting, capacity: capacity(), now: NOW }, who, { date: DAY, hold });

    expect(reads).toEqual([emailKey]);
  });
});

describe('clientHoldItemsFromTable', () => {
  it('reads a missing item as no holds at version 0, and an odd one likewise', async () => {
    const [pk = ''] = clientHoldKeys(client(false));
    await standIns.inspector.send(
      new PutCommand({
        TableName: standIns.tableName,
        Item: { pk: `${pk}x`, holds: 'not a set', version: 1.5 },
      }),
    );

    expect(await items().read(pk)).toEqual({ holds: new Set(), version: 0 });
    expect(await items().read(`${pk}x`)).toEqual({ holds: new Set(), version: 0 });
    await standIns.inspector.send(
      new PutCommand({
        TableName: standIns.tableName,
        Item: { pk: `${pk}n`, holds: new Set([1, 2]), version: 2 },
      }),
    );
    expect(await items().read(`${pk}n`)).toEqual({ holds: new Set(), version: 2 });
  });

  it('replaces only at the version read: a stale version, or 0 for an item that exists, writes nothing', async () => {
    const [pk = ''] = clientHoldKeys(client(false));

    expect(await items().replace(pk, new Set(['a']), 0, 100)).toBe(true);
    expect(await items().replace(pk, new Set(['b']), 0, 100)).toBe(false);
    expect(await items().replace(pk, new Set(['c']), 2, 100)).toBe(false);
    expect(await items().replace(pk, new Set(['d']), 1, 200)).toBe(true);

    expect(await itemOf(pk)).toEqual({ pk, holds: new Set(['d']), version: 2, deleteAfter: 200 });
  });
});
