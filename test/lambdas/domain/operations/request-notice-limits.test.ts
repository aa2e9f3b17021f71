import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressGroup, clientGroup } from '../../../../lambdas/domain/capacity/client-identity';
import { recordOrderRequest } from '../../../../lambdas/domain/operations/request-actions';
import {
  decideRequestNotice,
  takeDeclineEmail,
} from '../../../../lambdas/domain/operations/request-notice-limits';
import { createRequestDeps } from '../../../../lambdas/handlers/create-checkout/request-writer';
import { checkoutRuntimeEnvSchema, parseEnv } from '../../../../lambdas/lib/config';
import { logger } from '../../../../lambdas/lib/logger';
import { TEST_SHOP_ID } from '../../../support/shop';
import { type StandIns, standInEnvironment, startStandIns } from '../../../support/stand-ins';

let standIns: StandIns;
beforeAll(async () => {
  logger.setLogLevel('SILENT');
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const table = () => ({ client: standIns.inspector, tableName: standIns.tableName });

describe('clientGroup', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:aa:bb:1::1', '2001:db8:aa:bb::/64'],
    ['2001:DB8:aa:bb:ffff:ffff:ffff:ffff', '2001:db8:aa:bb::/64'],
    ['2001:0db8:00aa:00bb::', '2001:db8:aa:bb::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['1:2:3:4:5::1.2.3.4', '1:2:3:4::/64'],
    ['1:2:3::1.2.3.4', '1:2:3:0::/64'],
    ['not an address', 'not an address'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['::ffff:10.20.30.40', '10.20.30.40'],
    // Only a whole mapped address is IPv4: one mapped further in, or with a zone, is IPv6.
    ['1::ffff:1.2.3.4', '1:0:0:0::/64'],
    ['::ffff:1.2.3.4%eth0', '0:0:0:0::/64'],
    ['::ffff:999.1.1.1', '::ffff:999.1.1.1'],
    // The embedded IPv4 address fills two groups, so `::` stands for one group here.
    ['1::2:3:4:5:1.2.3.4', '1:0:2:3::/64'],
  ])('%s counts as %s', (address, group) => {
    expect(clientGroup(address)).toBe(group);
  });
});

describe('addressGroup', () => {
  it.each([
    ['Victim@Example.COM', 'victim@example.com'],
    ['victim+prize@example.com', 'victim@example.com'],
    ['victim+a+b@example.com', 'victim@example.com'],
    ['plain@example.com', 'plain@example.com'],
    [' Victim@Example.com ', 'victim@example.com'],
  ])('%s counts as %s', (email, group) => {
    expect(addressGroup(email)).toBe(group);
  });
});

describe('decideRequestNotice', () => {
  it('the whole shop gets 20 notices an hour from any number of clients; the next hour the first notice counts those held back', async () => {
    const hour = new Date('2026-01-05T10:00:00.000Z');
    const decisions = [];
    for (let n = 0; n < 25; n += 1) {
      decisions.push(
        await decideRequestNotice(
          table(),
          { email: `shop.${n}@example.com`, client: `192.0.2.${n}` },
          new Date(hour.getTime() + n * 1000),
        ),
      );
    }

    expect(decisions.slice(0, 20)).toEqual(Array(20).fill({ notify: true, unnotified: undefined }));
    expect(decisions.slice(20)).toEqual(Array(5).fill({ notify: false, limitedBy: 'shop' }));
    const nextHour = await decideRequestNotice(
      table(),
      { email: 'shop.next@example.com', client: '192.0.2.200' },
      new Date('2026-01-05T11:00:00.000Z'),
    );
    expect(nextHour).toEqual({ notify: true, unnotified: { count: 5, since: '2026-01-05T10:00:20.000Z' } });
    const after = await decideRequestNotice(
      table(),
      { email: 'shop.after@example.com', client: '192.0.2.201' },
      new Date('2026-01-05T11:00:01.000Z'),
    );
    expect(after).toEqual({ notify: true, unnotified: undefined });
  });

  it('one address gets one notice an hour, however its case or +tag is written', async () => {
    const now = new Date('2026-01-06T09:30:00.000Z');
    const first = await decideRequestNotice(
      table(),
      { email: 'tagged@example.com', client: '192.0.2.1' },
      now,
    );
    const tagged = await decideRequestNotice(
      table(),
      { email: 'Tagged+Win@Example.com', client: '192.0.2.2' },
      now,
    );
    expect(first).toMatchObject({ notify: true });
    expect(tagged).toEqual({ notify: false, limitedBy: 'address' });
  });

  it('keeps neither the address nor the client in its counters, only hashes, each with a TTL a day on', async () => {
    const now = new Date('2026-01-07T09:30:00.000Z');
    await decideRequestNotice(table(), { email: 'private.person@example.com', client: '192.0.2.77' }, now);

    const counters = (await standIns.orderItems()).filter((item) =>
      String(item.pk).startsWith('NOTICE_LIMIT#'),
    );
    const thisHour = counters.filter((item) => String(item.pk).includes('#2026-01-07T09#'));
    expect(thisHour.map((item) => String(item.pk).replace(/[0-9a-f]{32}$/, '<hash>')).sort()).toEqual([
      'NOTICE_LIMIT#address#2026-01-07T09#<hash>',
      'NOTICE_LIMIT#client#2026-01-07T09#<hash>',
      'NOTICE_LIMIT#shop#2026-01-07T09#all',
    ]);
    for (const item of thisHour) {
      expect(item).toEqual({
        pk: item.pk,
        count: 1,
        deleteAfter: Date.parse('2026-01-08T09:30:00.000Z') / 1000,
      });
    }
    expect(JSON.stringify(counters)).not.toContain('private.person');
    expect(JSON.stringify(counters)).not.toContain('192.0.2.77');
  });
});

describe('takeDeclineEmail', () => {
  // 23:30 UTC on 7 July is 00:30 on 8 July in London (BST): the London day is the key's.
  const lateEvening = new Date('2026-07-07T23:30:00.000Z');
  const declineItems = async () =>
    (await standIns.orderItems())
      .filter((item) => String(item.pk).startsWith('NOTICE_LIMIT#decline#'))
      .map(
        (item): Record<string, unknown> => ({
          ...item,
          pk: String(item.pk).replace(/[0-9a-f]{32}$/, '<hash>'),
        }),
      );

  it("one decline email per address a London day: held by the first request, kept on its retry, refused to the others, whatever the address's case or +tag", async () => {
    const first = { email: 'declined.daily@example.com', reference: 'RDECLINE0001' };

    expect(await takeDeclineEmail(table(), first, lateEvening)).toBe(true);
    expect(await takeDeclineEmail(table(), first, new Date('2026-07-08T12:00:00.000Z'))).toBe(true);
    expect(
      await takeDeclineEmail(
        table(),
        { email: 'Declined.Daily+again@EXAMPLE.com', reference: 'RDECLINE0002' },
        new Date('2026-07-08T22:59:00.000Z'),
      ),
    ).toBe(false);
    expect(await declineItems()).toEqual([
      {
        pk: 'NOTICE_LIMIT#decline#2026-07-08#<hash>',
        heldBy: 'RDECLINE0001',
        // The retry at noon rewrote it: two days after its `now`.
        deleteAfter: Date.parse('2026-07-10T12:00:00.000Z') / 1000,
      },
    ]);
  });

  it('the next London day, another request to the address may email it', async () => {
    expect(
      await takeDeclineEmail(
        table(),
        { email: 'declined.daily@example.com', reference: 'RDECLINE0003' },
        new Date('2026-07-08T23:00:00.000Z'),
      ),
    ).toBe(true);
    expect((await declineItems()).map((item) => [item.pk, item.heldBy])).toEqual([
      ['NOTICE_LIMIT#decline#2026-07-08#<hash>', 'RDECLINE0001'],
      ['NOTICE_LIMIT#decline#2026-07-09#<hash>', 'RDECLINE0003'],
    ]);
  });
});

describe('recordOrderRequest', () => {
  function requestDeps(now: Date, lines: string[]) {
    const config = parseEnv(checkoutRuntimeEnvSchema, {
      STRIPE_LIVEMODE: 'false',
      STRIPE_SECRET_KEY: 'sk_test_notice_limits',
      SITE_URL: 'http://shop.test',
      SHOP_ID: TEST_SHOP_ID,
      ...standInEnvironment(standIns),
    });
    // The table as create-checkout's gate passes it: its one document client.
    const table = { client: standIns.inspector, tableName: config.ORDERS_TABLE_NAME };
    return {
      ...createRequestDeps(config, table),
      now: () => now,
      metrics: (line: string) => lines.push(line),
    };
  }
  const order = {
    name: 'Mia Metric',
    email: 'mia.metric@example.com',
    phone: '',
    address: '4 Count Lane\nYork',
    postcode: 'YO1 7HH',
    quantity: 3 as const,
    subtotal: 9.75,
    shipping: 4.95,
    total: 14.7,
  };
  const metricsIn = (lines: string[]) =>
    lines.map((line) => {
      const emf = JSON.parse(line);
      return emf._aws.CloudWatchMetrics[0].Metrics[0].Name;
    });

  it('counts each new request (OrderRequests) and each notice held back (OrderRequestNoticesSuppressed); a retry counts nothing', async () => {
    const lines: string[] = [];
    const deps = requestDeps(new Date('2026-01-08T15:00:00.000Z'), lines);
    const key = randomUUID();
    const options = { idempotencyKey: key, cutoffHours: 36, client: '192.0.2.90' };

    const first = await recordOrderRequest(order, options, deps);
    const retry = await recordOrderRequest(order, options, deps);
    const sameAddress = await recordOrderRequest(order, { ...options, idempotencyKey: randomUUID() }, deps);

    expect([first.created, first.notice]).toEqual([true, 'sent']);
    expect([retry.created, retry.notice]).toEqual([false, 'not-sent']);
    expect([sameAddress.created, sameAddress.notice]).toEqual([true, 'limited-by-address']);
    expect(metricsIn(lines)).toEqual(['OrderRequests', 'OrderRequests', 'OrderRequestNoticesSuppressed']);
    const emails = await standIns.emails();
    expect(emails.filter((email) => email.destination.to.includes('mia.metric@example.com'))).toEqual([]);
    expect(emails.filter((email) => email.subject.startsWith('Order request '))).toHaveLength(1);
  });
});
